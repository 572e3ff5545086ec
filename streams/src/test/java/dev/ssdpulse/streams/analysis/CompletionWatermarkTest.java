package dev.ssdpulse.streams.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * The producer's completion time ({@link RunAnalysis#completedThrough}): windows close as soon as it passes their
 * end instead of a grace later, with the very results the grace gives, and an I/O that still comes for a closed
 * window is late as before.
 */
class CompletionWatermarkTest {
    private static final long S = 1_000_000_000L;
    private static final AnalysisSettings SETTINGS =
            new AnalysisSettings(S, 2 * S, LatencyBins.iometer(), 5 * S, List.of(FioCriterion.parse("iops:10%:5")), 3);

    /** 12 s of I/Os at 2,000/s on two workers, phase change at 4 s, latencies 20 us .. 30 ms. */
    private static List<long[]> ios() {
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> ios = new ArrayList<>();
        for (int i = 0; i < 24_000; i++) {
            long completion = i * (S / 2000) + random.nextLong(S / 4000);
            long latency = random.nextInt(100) == 0
                    ? 10_000_000L + random.nextLong(20_000_000L)
                    : 20_000 + random.nextLong(900_000);
            int phase = completion < 4 * S ? 0 : 1;
            ios.add(new long[] {random.nextInt(2), phase, completion, 4096L << random.nextInt(3), latency});
        }
        return ios;
    }

    private static void feed(RunAnalysis run, List<long[]> ios, boolean heartbeats) {
        run.phaseChanged(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0);
        long nextBeatNs = S / 10;
        boolean changed = false;
        for (long[] io : ios) {
            if (!changed && io[1] == 1) {
                run.phaseChanged(1, "test", PhaseKind.TEST, 4 * S);
                changed = true;
            }
            if (heartbeats && io[2] >= nextBeatNs) {
                // the producer's word: everything before the previous tick is in
                run.completedThrough(nextBeatNs - S / 10);
                nextBeatNs += S / 10;
            }
            run.io((int) io[0], (int) io[1], io[2], io[3], io[4], 0);
        }
        run.finish(RunStatus.COMPLETED, null, 12 * S, ios.size(), 0);
    }

    @Test
    void windowsCloseOnTheProducersWordWithTheResultsOfTheGrace() {
        List<long[]> ios = ios();
        CollectingOutput byGrace = new CollectingOutput();
        feed(new RunAnalysis("r", SETTINGS, byGrace), ios, false);
        CollectingOutput byWord = new CollectingOutput();
        feed(new RunAnalysis("r", SETTINGS, byWord), ios, true);

        assertThat(bytes(byWord.windows)).isEqualTo(bytes(byGrace.windows)).hasSizeGreaterThan(20);
        assertThat(bytes(byWord.latencies)).isEqualTo(bytes(byGrace.latencies));
        assertThat(bytes(byWord.verdicts)).isEqualTo(bytes(byGrace.verdicts));
        assertThat(bytes(byWord.scatters)).isEqualTo(bytes(byGrace.scatters));
        assertThat(bytes(byWord.summaries)).isEqualTo(bytes(byGrace.summaries));
        assertThat(byWord.lastSummary().getLateIoCount()).isZero();
    }

    @Test
    void aWindowClosesAsSoonAsTheProducerSaysItIsCompleteNotAGraceLater() {
        CollectingOutput out = new CollectingOutput();
        RunAnalysis run = new RunAnalysis("r", SETTINGS, out);
        run.phaseChanged(0, "test", PhaseKind.TEST, 0);
        run.io(0, 0, S / 2, 4096, 100_000, 0);
        run.io(0, 0, S + S / 10, 4096, 100_000, 0);
        assertThat(out.windows)
                .as("the grace alone keeps window 0 open for 2 s")
                .isEmpty();
        WindowMetrics open = run.openWindow(0);
        assertThat(open.getWindowStartNs()).isEqualTo(S);
        assertThat(open.getIoCount()).isEqualTo(1);

        run.completedThrough(S);
        assertThat(out.windows).hasSize(1);
        assertThat(out.windows.get(0).getWindowStartNs()).isZero();
        assertThat(out.windows.get(0).getIoCount()).isEqualTo(1);

        // a producer that was wrong: its I/O is late, in the summary's totals only, as one behind the grace
        run.io(0, 0, S - 1, 4096, 100_000, 0);
        assertThat(run.lateIoCount()).isEqualTo(1);
        run.finish(RunStatus.COMPLETED, null, 2 * S, 3, 0);
        assertThat(out.lastSummary().getIoCount()).isEqualTo(3);
        assertThat(out.lastSummary().getLateIoCount()).isEqualTo(1);
        assertThat(out.windows).extracting(WindowMetrics::getIoCount).containsExactly(1L, 1L);
    }

    private static List<ByteBuffer> bytes(List<? extends SpecificRecordBase> records) {
        return records.stream()
                .map(r -> {
                    try {
                        return (ByteBuffer)
                                r.getClass().getMethod("toByteBuffer").invoke(r);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }
}
