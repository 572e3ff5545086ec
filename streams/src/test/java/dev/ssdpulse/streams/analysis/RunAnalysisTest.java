package dev.ssdpulse.streams.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

class RunAnalysisTest {
    private static final long S = 1_000_000_000L;
    private static final AnalysisSettings SETTINGS = new AnalysisSettings(
            S, 2 * S, LatencyBins.iometer(), 5 * S, List.of(FioCriterion.parse("iops:10%:20")), 10);

    /** Reads alternate 300/500 IOPS, writes 500/300: 800 every second together, never steady per direction. */
    private static List<Consumer<RunAnalysis>> alternatingRun(int seconds, boolean smartBeforePhases) {
        List<Consumer<RunAnalysis>> events = new ArrayList<>();
        if (smartBeforePhases) {
            for (int t = 0; t <= seconds; t++) {
                events.add(smartAt(t));
            }
        }
        events.add(a -> a.phaseChanged(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0));
        for (int t = 0; t < seconds; t++) {
            if (t == 5) {
                long at = t * S;
                events.add(a -> a.phaseChanged(1, "test", PhaseKind.TEST, at));
            }
            int phase = t < 5 ? 0 : 1;
            int reads = t % 2 == 0 ? 300 : 500;
            int writes = 800 - reads;
            for (int i = 0; i < 800; i++) {
                long completion = t * S + (i + 1) * (S / 801);
                int op = i < reads ? 0 : 1;
                events.add(a -> a.io(op, phase, completion, 4096, 100_000, 0));
            }
            if (!smartBeforePhases) {
                events.add(smartAt(t + 1));
            }
        }
        if (!smartBeforePhases) {
            events.add(0, smartAt(0));
        }
        long end = seconds * S;
        events.add(a -> a.finish(RunStatus.COMPLETED, null, end, 800L * seconds, 0));
        return events;
    }

    /** Host writes 1 MB/s; NAND twice that in the precondition (first 5 s), four times after. */
    private static Consumer<RunAnalysis> smartAt(int second) {
        long host = second * 1_000_000L;
        long nand = Math.min(second, 5) * 2_000_000L + Math.max(0, second - 5) * 4_000_000L;
        return a -> a.smart(SmartSample.newBuilder()
                .setRunId("r")
                .setTimeNs(second * S)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(host)
                .setNandBytesWritten(nand)
                .build());
    }

    private static CollectingOutput run(List<Consumer<RunAnalysis>> events) {
        CollectingOutput out = new CollectingOutput();
        RunAnalysis analysis = new RunAnalysis("r", SETTINGS, out);
        events.forEach(e -> e.accept(analysis));
        return out;
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

    /**
     * The per-I/O path looks for ready phase ends only when the watermark crosses a window boundary; the phase's
     * final outputs still come with the first I/O that closes the window holding the change, in an even or an odd
     * window, also when that I/O comes after a pause of many windows.
     */
    @Test
    void aPhaseEndsWithTheFirstIoThatClosesTheWindowHoldingTheChangeAlsoAfterAPause() {
        for (long changeNs : new long[] {5 * S + S / 4, 6 * S + S / 4}) {
            // ready at the watermark closing the change's window, the I/O completing 2 s (grace) after that
            long readyCompletionNs = (changeNs / S + 1) * S + 2 * S;
            for (long resumeNs : new long[] {changeNs + S / 10, 100 * S}) {
                long expectedNs = Math.max(resumeNs, readyCompletionNs);
                assertThat(completionThatEndsTheFirstPhase(changeNs, resumeNs))
                        .as("changed at %d ns, resumed at %d ns", changeNs, resumeNs)
                        .isBetween(expectedNs, expectedNs + S / 10 - 1);
            }
        }
    }

    /** Phase 0 with an I/O every 100 ms until changeNs, phase 1 from resumeNs: the I/O after which phase 0 ended. */
    private static long completionThatEndsTheFirstPhase(long changeNs, long resumeNs) {
        CollectingOutput out = new CollectingOutput();
        RunAnalysis analysis = new RunAnalysis("r", SETTINGS, out);
        analysis.phaseChanged(0, "first", PhaseKind.TEST, 0);
        for (long t = S / 10; t < changeNs; t += S / 10) {
            analysis.io(0, 0, t, 4096, 100_000, 0);
        }
        analysis.phaseChanged(1, "second", PhaseKind.TEST, changeNs);
        for (long t = resumeNs; t < resumeNs + 10 * S; t += S / 10) {
            analysis.io(0, 1, t, 4096, 100_000, 0);
            if (out.latencies.stream().anyMatch(l -> l.getPhaseIndex() == 0)) {
                return t;
            }
        }
        return -1;
    }

    @Test
    void fiosCriteriaAreAlsoJudgedOverAllDirectionsTogetherAsFioDoes() {
        RunSummary summary = run(alternatingRun(40, false)).lastSummary();
        List<SteadyStateVerdict> fio = summary.getSteadyState().stream()
                .filter(v -> v.getMethod() == SteadyStateMethod.FIO_IOPS)
                .toList();
        assertThat(fio)
                .filteredOn(v -> !v.getAllOps())
                .extracting(SteadyStateVerdict::getOp)
                .containsExactly(IoOp.READ, IoOp.WRITE);
        assertThat(fio)
                .filteredOn(v -> !v.getAllOps())
                .allSatisfy(v -> assertThat(v.getReached()).isFalse());
        assertThat(fio)
                .filteredOn(SteadyStateVerdict::getAllOps)
                .singleElement()
                .satisfies(v -> {
                    assertThat(v.getReached()).isTrue();
                    assertThat(v.getMean()).isEqualTo(800.0);
                    assertThat(v.getPhaseIndex()).isEqualTo(1);
                    assertThat(v.getOp())
                            .as("marker for consumers that predate allOps")
                            .isEqualTo(IoOp.FLUSH);
                });
        assertThat(summary.getSteadyState())
                .filteredOn(v -> v.getMethod() == SteadyStateMethod.SNIA_PTS)
                .noneMatch(SteadyStateVerdict::getAllOps);
    }

    @Test
    void perPhaseWriteAmplificationDoesNotDependOnHowSamplesAndPhaseChangesInterleave() throws Exception {
        RunSummary interleaved = run(alternatingRun(20, false)).lastSummary();
        RunSummary samplesFirst = run(alternatingRun(20, true)).lastSummary();
        assertThat(interleaved.getPhases())
                .extracting(p -> p.getWriteAmplification())
                .containsExactly(2.0, 4.0);
        assertThat(samplesFirst.toByteBuffer()).isEqualTo(interleaved.toByteBuffer());
        assertThat(interleaved.getWriteAmplification().getWaCumulative()).isEqualTo((10.0 + 60.0) / 20.0);
    }

    /**
     * A drive whose host counter moves in 32 MiB steps and NAND counter in 1 GiB steps (an Intel SATA drive): the
     * WA records and the phases carry the bounds those steps allow, one step per phase's chain of samples.
     */
    @Test
    void aQuantisedDrivesWaComesWithBoundsLiveAndPerPhase() {
        long mib32 = 32L << 20;
        long gib = 1L << 30;
        List<Consumer<RunAnalysis>> events = new ArrayList<>();
        events.add(a -> a.phaseChanged(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0));
        for (int t = 0; t <= 20; t++) {
            if (t == 5) {
                events.add(a -> a.phaseChanged(1, "test", PhaseKind.TEST, 5 * S));
            }
            long host = 32L * t; // 1 GiB a second, in 32 MiB counts
            long nand = 2L * Math.min(t, 5) + 4L * Math.max(0, t - 5); // GiB: WA 2, then 4
            long at = t * S;
            int phase = t < 5 ? 0 : 1;
            if (t < 20) {
                events.add(a -> a.io(1, phase, at + S / 2, 4096, 100_000, 0));
            }
            events.add(a -> a.smart(SmartSample.newBuilder()
                    .setRunId("r")
                    .setTimeNs(at)
                    .setSource(SmartSource.SMARTCTL)
                    .setWaUnit("B")
                    .setWaHostWrites(host * mib32)
                    .setWaHostResolution(mib32)
                    .setWaNandWrites(nand * gib)
                    .setWaNandResolution(gib)
                    .build()));
        }
        events.add(a -> a.finish(RunStatus.COMPLETED, null, 20 * S, 0, 0));
        CollectingOutput out = run(events);

        WriteAmplification first = out.writeAmplification.get(0);
        assertThat(first.getWaWindow()).isEqualTo(2.0);
        assertThat(first.getWaWindowLow()).isEqualTo(1.0 * gib / (1.0 * gib + mib32));
        assertThat(first.getWaWindowHigh()).isEqualTo(3.0 * gib / (1.0 * gib - mib32));
        assertThat(first.getWaCumulativeResolved()).isFalse();
        WriteAmplification last = out.writeAmplification.get(out.writeAmplification.size() - 1);
        assertThat(last.getWaCumulative()).isEqualTo(70.0 / 20);
        assertThat(last.getWaCumulativeLow()).isEqualTo(69.0 * gib / (20.0 * gib + mib32));
        assertThat(last.getWaCumulativeHigh()).isEqualTo(71.0 * gib / (20.0 * gib - mib32));
        assertThat(last.getWaCumulativeResolved()).isTrue();

        RunSummary summary = out.lastSummary();
        assertThat(summary.getWriteAmplification()).isEqualTo(last);
        PhaseSummary precondition = summary.getPhases().get(0);
        assertThat(precondition.getWriteAmplification()).isEqualTo(2.0);
        assertThat(precondition.getWriteAmplificationLow()).isEqualTo(9.0 * gib / (5.0 * gib + mib32));
        assertThat(precondition.getWriteAmplificationHigh()).isEqualTo(11.0 * gib / (5.0 * gib - mib32));
        assertThat(precondition.getWriteAmplificationResolved())
                .as("10 GiB +- 1 GiB")
                .isFalse();
        PhaseSummary test = summary.getPhases().get(1);
        assertThat(test.getWriteAmplification()).isEqualTo(4.0);
        assertThat(test.getWriteAmplificationLow()).isEqualTo(59.0 * gib / (15.0 * gib + mib32));
        assertThat(test.getWriteAmplificationHigh()).isEqualTo(61.0 * gib / (15.0 * gib - mib32));
        assertThat(test.getWriteAmplificationResolved()).isTrue();
    }

    @Test
    void aSampleAfterTheRunFinishedUpdatesTheSummary() {
        List<Consumer<RunAnalysis>> events = new ArrayList<>(alternatingRun(10, false));
        events.add(smartAt(12));
        CollectingOutput out = run(events);
        assertThat(out.summaries).hasSize(2);
        assertThat(out.lastSummary().getWriteAmplification().getToTimeNs()).isEqualTo(12 * S);
    }

    @Test
    void stateRestoredAtAnyPointContinuesExactlyAsTheUninterruptedRun() {
        List<Consumer<RunAnalysis>> events = alternatingRun(30, false);
        CollectingOutput expected = run(events);
        for (int cut : new int[] {1, 3_000, 4_801, 12_345, events.size() - 1}) {
            CollectingOutput out = new CollectingOutput();
            RunAnalysis first = new RunAnalysis("r", SETTINGS, out);
            events.subList(0, cut).forEach(e -> e.accept(first));
            RunAnalysis restored = RunAnalysis.decode("r", first.encode(), SETTINGS, out);
            assertThat(restored.encode()).as("re-encoded at %d", cut).isEqualTo(first.encode());
            events.subList(cut, events.size()).forEach(e -> e.accept(restored));
            assertThat(bytes(out.windows)).as("windows, cut at %d", cut).isEqualTo(bytes(expected.windows));
            assertThat(bytes(out.verdicts)).as("verdicts, cut at %d", cut).isEqualTo(bytes(expected.verdicts));
            assertThat(bytes(out.writeAmplification))
                    .as("WA, cut at %d", cut)
                    .isEqualTo(bytes(expected.writeAmplification));
            assertThat(bytes(out.latencies)).as("latency, cut at %d", cut).isEqualTo(bytes(expected.latencies));
            assertThat(bytes(out.summaries)).as("summary, cut at %d", cut).isEqualTo(bytes(expected.summaries));
        }
    }

    @Test
    void aStateOfAnotherFormatIsRefusedWithTheRemedy() {
        assertThatThrownBy(() -> RunAnalysis.decode("r", new byte[] {1, 0}, SETTINGS, new CollectingOutput()))
                .hasMessageContaining("run r")
                .hasMessageContaining("format 1")
                .hasMessageContaining("new application id");
    }
}
