package dev.ssdpulse.streams.waf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriteAmplificationAccumulatorTest {
    static final long S = 1_000_000_000L;

    static SmartCounters sample(long t, Long host, Long nand, Long nandHost, Long gc, Long wl, Long meta) {
        return new SmartCounters(t * S, host, nand, nandHost, gc, wl, meta, 100L + t);
    }

    @Test
    void deltasAndCumulativeWithCauses() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        assertThat(acc.accept(sample(0, 1000L, 3000L, 1000L, 2000L, 0L, null))).isEmpty();
        WaInterval first =
                acc.accept(sample(1, 2000L, 5000L, 2000L, 2900L, 100L, null)).orElseThrow();
        assertThat(first.fromTimeNs()).isZero();
        assertThat(first.toTimeNs()).isEqualTo(S);
        assertThat(first.hostBytesWrittenDelta()).isEqualTo(1000);
        assertThat(first.nandBytesWrittenDelta()).isEqualTo(2000);
        assertThat(first.nandBytesWrittenHostDelta()).isEqualTo(1000);
        assertThat(first.nandBytesWrittenGcDelta()).isEqualTo(900);
        assertThat(first.nandBytesWrittenWearLevelingDelta()).isEqualTo(100);
        assertThat(first.nandBytesWrittenMetadataDelta()).isNull();
        assertThat(first.waWindow()).isEqualTo(2.0);
        assertThat(first.waCumulative()).isEqualTo(2.0);
        assertThat(first.freeBlocks()).isEqualTo(101L);
        WaInterval second =
                acc.accept(sample(2, 4000L, 11000L, null, null, null, null)).orElseThrow();
        assertThat(second.waWindow()).isEqualTo(3.0);
        assertThat(second.hostBytesWrittenCumulative()).isEqualTo(3000);
        assertThat(second.nandBytesWrittenCumulative()).isEqualTo(8000);
        assertThat(second.waCumulative()).isEqualTo(8000.0 / 3000);
        assertThat(second.nandBytesWrittenGcDelta()).isNull();
    }

    @Test
    void idleIntervalHasNullWindowWa() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        acc.accept(sample(0, 1000L, 1000L, null, null, null, null));
        WaInterval idle =
                acc.accept(sample(1, 1000L, 1500L, null, null, null, null)).orElseThrow();
        assertThat(idle.waWindow()).isNull();
        assertThat(idle.waCumulative()).isNull();
        assertThat(idle.nandBytesWrittenDelta()).isEqualTo(500); // idle GC
    }

    @Test
    void nandTotalFromCausesWhenTotalMissing() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        acc.accept(sample(0, 0L, null, 0L, 0L, null, null));
        WaInterval w = acc.accept(sample(1, 100L, null, 100L, 50L, null, null)).orElseThrow();
        assertThat(w.nandBytesWrittenDelta()).isEqualTo(150);
        assertThat(w.waWindow()).isEqualTo(1.5);
    }

    @Test
    void resetsOutOfOrderAndUnusableSamplesAreCountedNotUsed() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        acc.accept(sample(0, 1000L, 2000L, null, null, null, null));
        acc.accept(sample(1, 2000L, 4000L, null, null, null, null));
        assertThat(acc.accept(sample(1, 2500L, 5000L, null, null, null, null))).isEmpty(); // same time
        assertThat(acc.accept(sample(0, 500L, 500L, null, null, null, null))).isEmpty(); // earlier
        assertThat(acc.outOfOrderCount()).isEqualTo(2);
        assertThat(acc.accept(sample(2, null, 5000L, null, null, null, null))).isEmpty();
        assertThat(acc.accept(sample(2, 3000L, null, null, null, null, null))).isEmpty();
        assertThat(acc.unusableCount()).isEqualTo(2);
        // counter reset: new origin, no interval
        assertThat(acc.accept(sample(3, 10L, 20L, null, null, null, null))).isEmpty();
        assertThat(acc.resetCount()).isEqualTo(1);
        WaInterval after =
                acc.accept(sample(4, 1010L, 4020L, null, null, null, null)).orElseThrow();
        assertThat(after.fromTimeNs()).isEqualTo(3 * S);
        assertThat(after.waWindow()).isEqualTo(4.0);
        assertThat(after.hostBytesWrittenCumulative()).isEqualTo(2000);
        assertThat(after.nandBytesWrittenCumulative()).isEqualTo(6000);
        assertThat(acc.waCumulative()).isEqualTo(3.0);
        assertThat(acc.lastInterval()).isEqualTo(after);
        assertThat(acc.firstTimeNs()).isZero();
    }

    @Test
    void stateRoundTripContinuesIdentically() {
        WriteAmplificationAccumulator live = new WriteAmplificationAccumulator();
        live.accept(sample(0, 1000L, 2000L, 1000L, 1000L, null, null));
        live.accept(sample(1, 2000L, 4500L, 2000L, 2400L, null, 100L));
        live.accept(sample(1, 2000L, 4500L, null, null, null, null));
        byte[] state = live.encodeState();
        WriteAmplificationAccumulator restored = WriteAmplificationAccumulator.decodeState(state);
        assertThat(restored.encodeState()).isEqualTo(state);
        assertThat(restored.lastInterval()).isEqualTo(live.lastInterval());
        SmartCounters next = sample(2, 3000L, 7000L, 3000L, 3900L, null, null);
        assertThat(restored.accept(next)).isEqualTo(live.accept(next));
        assertThat(restored.encodeState()).isEqualTo(live.encodeState());
        assertThat(restored.outOfOrderCount()).isEqualTo(1);
    }
}
