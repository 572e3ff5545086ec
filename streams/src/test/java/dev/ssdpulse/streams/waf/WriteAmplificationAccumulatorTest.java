package dev.ssdpulse.streams.waf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.streams.codec.BinaryWriter;
import org.junit.jupiter.api.Test;

class WriteAmplificationAccumulatorTest {
    static final long S = 1_000_000_000L;

    static final long MIB32 = 32L << 20;
    static final long GIB = 1L << 30;

    static SmartCounters sample(long t, Long host, Long nand, Long nandHost, Long gc, Long wl, Long meta) {
        return SmartCounters.exactBytes(t * S, host, nand, nandHost, gc, wl, meta, 100L + t);
    }

    /** An Intel SATA drive's counters: host in 32 MiB steps (241), NAND in 1 GiB steps (249), as bytes. */
    static SmartCounters intel(long t, long host32MiB, long nandGiB) {
        return new SmartCounters(
                t * S, "B", host32MiB * MIB32, MIB32, nandGiB * GIB, GIB, null, null, null, null, null);
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

    @Test
    void quantisedCountersGiveBoundsThatNarrowUntilResolved() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        acc.accept(intel(0, 1000, 500));
        // 64 x 32 MiB = 2 GiB of host writes and 3 GiB of NAND writes in the first interval
        WaInterval first = acc.accept(intel(1, 1064, 503)).orElseThrow();
        assertThat(first.waWindow()).isEqualTo(1.5);
        assertThat(first.windowBounds().low()).isEqualTo(2.0 * GIB / (2.0 * GIB + MIB32));
        assertThat(first.windowBounds().high()).isEqualTo(4.0 * GIB / (2.0 * GIB - MIB32));
        assertThat(first.windowBounds().resolved()).isFalse();
        assertThat(first.cumulativeBounds()).isEqualTo(first.windowBounds());
        // 40 more intervals of the same: 82 GiB host, 123 GiB NAND since the first sample
        WaInterval last = null;
        for (int t = 2; t <= 41; t++) {
            last = acc.accept(intel(t, 1000 + 64L * t, 500 + 3L * t)).orElseThrow();
        }
        assertThat(last.waCumulative()).isEqualTo(1.5);
        // one step per counter for the whole unbroken chain, not one per interval
        assertThat(last.cumulativeBounds().low()).isEqualTo(122.0 * GIB / (82.0 * GIB + MIB32));
        assertThat(last.cumulativeBounds().high()).isEqualTo(124.0 * GIB / (82.0 * GIB - MIB32));
        assertThat(last.cumulativeBounds().resolved()).isTrue();
        assertThat(last.windowBounds().resolved())
                .as("one interval is still too short")
                .isFalse();
        assertThat(acc.cumulativeBounds()).isEqualTo(last.cumulativeBounds());
        assertThat(last.unit()).isEqualTo("B");
        assertThat(last.hostResolution()).isEqualTo(MIB32);
        assertThat(last.nandResolution()).isEqualTo(GIB);
    }

    @Test
    void theCountersOwnUnitIsKeptAndAResetOrAnotherScaleStartsAChainWithItsOwnStep() {
        WriteAmplificationAccumulator acc = new WriteAmplificationAccumulator();
        // Crucial/Micron 247/248: NAND pages on both sides, WA = (247 + 248) / 247
        acc.accept(new SmartCounters(0, "NAND page", 1000L, 1, 1500L, 2, null, null, null, null, null));
        WaInterval a = acc.accept(new SmartCounters(S, "NAND page", 2000L, 1, 3500L, 2, null, null, null, null, null))
                .orElseThrow();
        assertThat(a.unit()).isEqualTo("NAND page");
        assertThat(a.waWindow()).isEqualTo(2.0);
        assertThat(a.windowBounds().low()).isEqualTo(1998.0 / 1001);
        // a power cycle: counters go back; a new chain whose step adds to the cumulative error
        assertThat(acc.accept(new SmartCounters(2 * S, "NAND page", 10L, 1, 10L, 2, null, null, null, null, null)))
                .isEmpty();
        WaInterval b = acc.accept(
                        new SmartCounters(3 * S, "NAND page", 1010L, 1, 2010L, 2, null, null, null, null, null))
                .orElseThrow();
        assertThat(b.waCumulative()).isEqualTo(2.0);
        assertThat(b.cumulativeBounds().low()).isEqualTo((4000.0 - 4) / (2000 + 2));
        assertThat(b.cumulativeBounds().high()).isEqualTo((4000.0 + 4) / (2000 - 2));
        // another unit is another source: a reset, not a difference
        assertThat(acc.accept(new SmartCounters(4 * S, "B", 5000L, 0, 9000L, 0, null, null, null, null, null)))
                .isEmpty();
        assertThat(acc.resetCount()).isEqualTo(2);
    }

    @Test
    void withoutAnUpperBoundOrAHostDeltaWaIsNotResolved() {
        WaBounds tiny = WaBounds.of(MIB32, MIB32, GIB, GIB);
        assertThat(tiny.high()).as("the host delta may be ~0: no upper bound").isNull();
        assertThat(tiny.low()).isZero();
        assertThat(tiny.resolved()).isFalse();
        assertThat(WaBounds.of(0, 0, 100, 0)).isEqualTo(WaBounds.NONE);
        assertThat(WaBounds.of(100, 0, 150, 0)).isEqualTo(new WaBounds(1.5, 1.5, true));
        // exactly 5 % wide is resolved, wider is not
        assertThat(WaBounds.of(1000, 0, 1000, 25).resolved()).isTrue();
        assertThat(WaBounds.of(1000, 0, 1000, 26).resolved()).isFalse();
    }

    @Test
    void aStateOfTheFormatBeforeStepsIsReadAsExactBytes() {
        // format 1: byte counters without unit or step, written by ssdpulse before counters had steps
        BinaryWriter v1 = new BinaryWriter(64);
        v1.writeByte(1).writeBoolean(true);
        v1.writeVarLong(2 * S)
                .writeNullableLong(4000L)
                .writeNullableLong(9000L)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableLong(7L);
        v1.writeVarLong(3000).writeVarLong(7000).writeVarLong(0).writeUnsignedVarLong(0);
        v1.writeUnsignedVarLong(0).writeUnsignedVarLong(0);
        v1.writeBoolean(true);
        v1.writeVarLong(S)
                .writeVarLong(2 * S)
                .writeVarLong(2000)
                .writeVarLong(5000)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableLong(null)
                .writeNullableDouble(2.5)
                .writeVarLong(3000)
                .writeVarLong(7000)
                .writeNullableDouble(7000.0 / 3000)
                .writeNullableLong(7L);
        WriteAmplificationAccumulator restored = WriteAmplificationAccumulator.decodeState(v1.toByteArray());
        assertThat(restored.lastInterval().windowBounds()).isEqualTo(new WaBounds(2.5, 2.5, true));
        assertThat(restored.lastInterval().unit()).isEqualTo("B");
        WaInterval next = restored.accept(SmartCounters.exactBytes(3 * S, 5000L, 12000L, null, null, null, null, 8L))
                .orElseThrow();
        assertThat(next.waCumulative()).isEqualTo(10000.0 / 4000);
        assertThat(next.cumulativeBounds()).isEqualTo(new WaBounds(2.5, 2.5, true));
    }

    @Test
    void quantisedStateRoundTripContinuesIdentically() {
        WriteAmplificationAccumulator live = new WriteAmplificationAccumulator();
        live.accept(intel(0, 1000, 500));
        live.accept(intel(1, 1064, 503));
        byte[] state = live.encodeState();
        WriteAmplificationAccumulator restored = WriteAmplificationAccumulator.decodeState(state);
        assertThat(restored.encodeState()).isEqualTo(state);
        assertThat(restored.accept(intel(2, 1128, 506))).isEqualTo(live.accept(intel(2, 1128, 506)));
        assertThat(restored.encodeState()).isEqualTo(live.encodeState());
    }
}
