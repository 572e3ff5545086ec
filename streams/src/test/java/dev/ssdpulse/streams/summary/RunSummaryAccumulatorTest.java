package dev.ssdpulse.streams.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RunSummaryAccumulatorTest {
    static final long S = 1_000_000_000L;

    @Test
    void totalsPerOpAndPhaseWithRatesOverTheSpan() {
        RunSummaryAccumulator acc = new RunSummaryAccumulator();
        // phase 0: reads from 0 s to 2 s; phase 1: writes from 2 s to 6 s
        acc.add(IoOpCode.READ, 0, 100_000, 4096, 100_000, 0); // submitted at 0
        acc.add(IoOpCode.READ, 0, 2 * S, 4096, 200_000, 0);
        acc.add(IoOpCode.WRITE, 1, 3 * S, 1_000_000, 1_000_000, 0);
        acc.add(IoOpCode.WRITE, 1, 6 * S, 1_000_000, 2_000_000, 3);
        acc.add(IoOpCode.WRITE, 1, 4 * S, 1_000_000, 1_000_000, 0);
        RunSummaryData data = acc.summarize(null);
        assertThat(data.durationNs()).isEqualTo(6 * S);
        assertThat(data.ioCount()).isEqualTo(5);
        assertThat(data.errorCount()).isEqualTo(1);
        assertThat(data.ops()).extracting(OpSummaryData::op).containsExactly((int) IoOpCode.READ, (int) IoOpCode.WRITE);
        OpSummaryData writes = data.ops().get(1);
        assertThat(writes.ioCount()).isEqualTo(3);
        assertThat(writes.bytes()).isEqualTo(3_000_000);
        assertThat(writes.iops()).isEqualTo(0.5);
        assertThat(writes.mbPerSec()).isEqualTo(0.5);
        assertThat(writes.latency().maxNs()).isEqualTo(2_000_000);
        assertThat(writes.errorCount()).isEqualTo(1);
        assertThat(data.phases()).hasSize(2);
        PhaseSummaryData phase1 = data.phases().get(1);
        assertThat(phase1.phaseIndex()).isEqualTo(1);
        assertThat(phase1.startNs()).isEqualTo(3 * S - 1_000_000);
        assertThat(phase1.endNs()).isEqualTo(6 * S);
        assertThat(phase1.ops().get(0).iops()).isEqualTo(3 / ((3 * S + 1_000_000) / 1e9));
        PhaseSummaryData phase0 = data.phases().get(0);
        assertThat(phase0.startNs()).isZero();
        assertThat(phase0.ops().get(0).latency().count()).isEqualTo(2);
        assertThat(acc.summarize(10 * S).ops().get(1).iops()).isEqualTo(0.3);
        assertThat(acc.phaseTotals(1, IoOpCode.READ)).isNull();
        assertThat(acc.runTotals(IoOpCode.TRIM)).isNull();
        assertThat(data.phases()).extracting(PhaseSummaryData::phaseIndex).containsExactly(0, 1);
    }

    @Test
    void emptyRunAndBadInput() {
        RunSummaryAccumulator acc = new RunSummaryAccumulator();
        RunSummaryData data = acc.summarize(null);
        assertThat(data.ioCount()).isZero();
        assertThat(data.durationNs()).isZero();
        assertThat(data.ops()).isEmpty();
        assertThatThrownBy(() -> acc.add(IoOpCode.READ, 0, 0, 1, -5, 0)).hasMessageContaining("latencyNs");
        assertThatThrownBy(() -> acc.add(9, 0, 0, 1, 5, 0)).hasMessageContaining("op code");
    }

    @Test
    void summaryFromClosedWindowsPlusLateIosEqualsSummaryFromEveryIo() {
        Random random = new Random(8);
        RunSummaryAccumulator perIo = new RunSummaryAccumulator();
        RunSummaryAccumulator perWindow = new RunSummaryAccumulator();
        int[] multiPhaseWindows = new int[1];
        RunWindowAggregator agg = new RunWindowAggregator(S, S / 2, LatencyBins.iometer(), w -> {
            if (w.phaseParts().size() > 1) {
                multiPhaseWindows[0]++;
            }
            perWindow.addWindow(w);
        });
        long t = 0;
        int late = 0;
        for (int i = 0; i < 30_000; i++) {
            t += random.nextInt(400_000);
            // phases change at 2.5 s and 4.2 s, inside windows; every 1000th I/O arrives 2 s late
            long completion = i % 1000 == 999 ? t - 2 * S : t;
            int phase = completion < 2_500_000_000L ? 0 : completion < 4_200_000_000L ? 1 : 2;
            int op = random.nextInt(3);
            long latency = 10_000 + random.nextInt(5_000_000);
            int status = random.nextInt(100) == 0 ? 1 : 0;
            perIo.add(op, phase, completion, 4096, latency, status);
            if (!agg.add(op, phase, completion, 4096, latency, status)) {
                late++;
                perWindow.add(op, phase, completion, 4096, latency, status);
            }
        }
        agg.flushAll();
        assertThat(late).isGreaterThan(0);
        assertThat(multiPhaseWindows[0]).isGreaterThanOrEqualTo(2);
        assertThat(perWindow).isEqualTo(perIo);
        assertThat(perWindow.encodeState()).isEqualTo(perIo.encodeState());
    }

    @Test
    void stateRoundTrip() {
        RunSummaryAccumulator acc = new RunSummaryAccumulator();
        acc.add(IoOpCode.READ, 0, 5 * S, 4096, 100_000, 0);
        acc.add(IoOpCode.TRIM, 3, 6 * S, 1 << 20, 900_000, 1);
        byte[] state = acc.encodeState();
        RunSummaryAccumulator restored = RunSummaryAccumulator.decodeState(state);
        assertThat(restored).isEqualTo(acc);
        assertThat(restored.encodeState()).isEqualTo(state);
        assertThat(restored.summarize(null)).isEqualTo(acc.summarize(null));
        restored.add(IoOpCode.READ, 0, 7 * S, 4096, 100_000, 0);
        assertThat(restored).isNotEqualTo(acc);
    }
}
