package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seed 003's long test for the report's size and drawing bounds: a 5,000-s QD32 4 KiB random-write phase after a
 * 100-s precondition, fast until the drive's free blocks run out and then in its garbage-collecting state, where a
 * large share of I/Os take 10 ms to seconds. The real analysis core analyses a minute of each state; the run's
 * 5,100 windows, WA intervals and summary are those minutes' records laid end to end (times changed, nothing
 * else): the analysis of 5,100 one-second windows costs seconds of CPU that no bound here depends on. The stored
 * scatter is what the analytics' sampler keeps of such a drive at QD32 — per 1-s window a 200-point sample below
 * the 10-ms threshold and every I/O above it, 1,200 to 1,500 in a garbage-collecting second — generated window by
 * window, as {@code report} reads it, and drawn as it comes: about 7 M points per run, which as vector marks made
 * a 5,000-s report tens of MB.
 */
final class LongRuns {
    static final long S = 1_000_000_000L;
    static final long TEST_S = 5_000;
    static final long PRECONDITION_S = 100;
    static final int SAMPLES_PER_WINDOW = 200;
    static final int OUTLIERS_PER_GC_WINDOW = 1_500;
    private static final long THRESHOLD_NS = 10_000_000L;
    private static final long TEMPLATE_S = 60;
    private static final int WRITE = 1;

    private LongRuns() {}

    /**
     * @param cliffS test-phase second at which the fresh drive falls into its garbage-collecting state
     */
    static HtmlReport.RunData run(String runId, String model, long capacityBytes, long cliffS) {
        SplittableRandom random = new SplittableRandom(runId.hashCode());
        // a minute of each state: precondition, fresh test, garbage-collecting test
        OfflineRunAnalysis analysis = new OfflineRunAnalysis(runId, AnalysisSettings.defaults(), true, false);
        analysis.phaseStarted(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0);
        long hostBytes = 0;
        long nandBytes = 0;
        long ios = 0;
        long nextSmartNs = 0;
        boolean inTest = false;
        for (long t = 0; t < 3 * TEMPLATE_S * S; ) {
            int state = (int) (t / (TEMPLATE_S * S));
            if (state >= 1 && !inTest) {
                analysis.phaseStarted(1, "random-write", PhaseKind.TEST, t);
                inTest = true;
            }
            boolean gc = state == 2;
            int iops = state == 0 ? 300 : gc ? 60 + random.nextInt(60) : 400 + random.nextInt(20);
            long latencyNs = gc ? gcLatencyNs(random) : 80_000 + random.nextInt(220_000);
            int sizeBytes = state == 0 ? 131_072 : 4096;
            analysis.io(WRITE, state == 0 ? 0 : 1, t, latencyNs, sizeBytes, 0);
            ios++;
            hostBytes += sizeBytes;
            nandBytes += gc ? sizeBytes * 11L : sizeBytes;
            if (t >= nextSmartNs) {
                analysis.smart(smart(runId, t, hostBytes, nandBytes));
                nextSmartNs += S;
            }
            t += S / iops;
        }
        analysis.finish(RunStatus.COMPLETED, null, 3 * TEMPLATE_S * S, ios, 0);
        long testStartNs = PRECONDITION_S * S;
        long endNs = testStartNs + TEST_S * S;
        long cliffNs = testStartNs + cliffS * S;
        Map<Long, WindowMetrics> windowAt = new HashMap<>();
        analysis.windows().forEach(t -> windowAt.put(t.getWindowStartNs(), t));
        Map<Long, WriteAmplification> waFrom = new HashMap<>();
        analysis.writeAmplification().forEach(t -> waFrom.put(t.getFromTimeNs() / S, t));
        List<WindowMetrics> windows = new ArrayList<>();
        List<WriteAmplification> wa = new ArrayList<>();
        for (long w = 0; w < endNs / S; w++) {
            long at = w * S;
            int state = at < testStartNs ? 0 : at < cliffNs ? 1 : 2;
            // the state's template second: one of its minute's whole windows, in turn
            long from = state * TEMPLATE_S + 2 + w % (TEMPLATE_S - 4);
            WindowMetrics window = windowAt.get(from * S);
            if (window != null) {
                windows.add(WindowMetrics.newBuilder(window)
                        .setWindowStartNs(at)
                        .setPhaseIndex(state == 0 ? 0 : 1)
                        .build());
            }
            WriteAmplification interval = waFrom.get(from);
            if (interval != null) {
                wa.add(WriteAmplification.newBuilder(interval)
                        .setFromTimeNs(at)
                        .setToTimeNs(at + interval.getToTimeNs() - interval.getFromTimeNs())
                        .build());
            }
        }
        RunSummary template = analysis.summary();
        RunSummary summary = RunSummary.newBuilder(template)
                .setDurationNs(endNs)
                .setPhases(List.of(
                        PhaseSummary.newBuilder(template.getPhases().get(0))
                                .setStartNs(0)
                                .setEndNs(testStartNs)
                                .build(),
                        PhaseSummary.newBuilder(template.getPhases().get(1))
                                .setStartNs(testStartNs)
                                .setEndNs(endNs)
                                .build()))
                .build();
        ScatterRaster scatter = HtmlReport.scatterRaster(summary);
        for (long w = 0; w < endNs / S; w++) {
            scatter.add(scatterWindow(runId, w * S, w * S >= cliffNs, random));
        }
        return new HtmlReport.RunData(started(runId, model, capacityBytes), summary, windows, wa, scatter.finish());
    }

    /** Garbage collection on: seven layers from 1 ms to seconds (seed 003's scatter), a third of I/Os >= 10 ms. */
    private static long gcLatencyNs(SplittableRandom random) {
        int layer = random.nextInt(21);
        if (layer < 14) {
            return 1_000_000L + random.nextInt(8_000_000);
        }
        return (long) (THRESHOLD_NS * Math.pow(10, (layer - 14) * 0.4 + random.nextDouble() * 0.3));
    }

    private static LatencyScatter scatterWindow(String runId, long startNs, boolean gc, SplittableRandom random) {
        int outliers = gc ? OUTLIERS_PER_GC_WINDOW - random.nextInt(300) : random.nextInt(3);
        int n = SAMPLES_PER_WINDOW + outliers;
        List<Long> offsets = new ArrayList<>(n);
        List<Long> latencies = new ArrayList<>(n);
        List<Integer> ops = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            offsets.add((long) random.nextInt((int) S));
            long latencyNs = i >= SAMPLES_PER_WINDOW
                    ? (long) (THRESHOLD_NS * Math.pow(10, random.nextDouble() * 2.7))
                    : gc ? 1_000_000L + random.nextInt(8_900_000) : 80_000 + random.nextInt(220_000);
            latencies.add(latencyNs);
            ops.add(WRITE);
        }
        long ioCount = gc ? 4 * (long) n : 30_000;
        return LatencyScatter.newBuilder()
                .setRunId(runId)
                .setWindowStartNs(startNs)
                .setWindowSizeNs(S)
                .setThresholdNs(THRESHOLD_NS)
                .setIoCount(ioCount)
                .setAtOrAboveThresholdCount(outliers)
                .setKeptAtOrAboveThresholdCount(outliers)
                .setCompletionOffsetsNs(offsets)
                .setLatenciesNs(latencies)
                .setOps(ops)
                .build();
    }

    private static SmartSample smart(String runId, long t, long hostBytes, long nandBytes) {
        return SmartSample.newBuilder()
                .setRunId(runId)
                .setTimeNs(t)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(hostBytes)
                .setNandBytesWritten(nandBytes)
                .build();
    }

    private static RunStarted started(String runId, String model, long capacityBytes) {
        AccessSpec seq = access(131_072, 0);
        AccessSpec random = access(4096, 100);
        List<PhaseSpec> phases = List.of(
                phase(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, seq, capacityBytes, PRECONDITION_S),
                phase(1, "random-write", PhaseKind.TEST, random, capacityBytes, TEST_S));
        return RunStarted.newBuilder()
                .setRunId(runId)
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(DeviceDescription.newBuilder()
                        .setModel(model)
                        .setCapacityBytes(capacityBytes)
                        .setLogicalBlockSizeBytes(512)
                        .build())
                .setHost(HostDescription.newBuilder()
                        .setIoEngine("simulator")
                        .setKernel("Linux 6.1.0-28-amd64")
                        .build())
                .setWorkload(WorkloadDescription.newBuilder()
                        .setName("seed003-qd32-random-write-5000s")
                        .setSpecJson("{}")
                        .setPhases(phases)
                        .build())
                .setSeed(3)
                .setWallClockStartEpochNs(0L)
                .setToolVersion(ReportRuns.TOOL_VERSION)
                .setLabels(Map.of("campaign", "qd32-5000s"))
                .build();
    }

    private static AccessSpec access(int sizeBytes, int percentRandom) {
        return AccessSpec.newBuilder()
                .setTransferSizeBytes(sizeBytes)
                .setPercentOfSpec(100)
                .setPercentRead(0)
                .setPercentRandom(percentRandom)
                .setAlignmentBytes(4096)
                .build();
    }

    private static PhaseSpec phase(
            int index, String name, PhaseKind kind, AccessSpec spec, long spanBytes, long durationS) {
        return PhaseSpec.newBuilder()
                .setIndex(index)
                .setName(name)
                .setKind(kind)
                .setAccessSpecs(List.of(spec))
                .setQueueDepth(32)
                .setWorkers(1)
                .setSpanOffsetBytes(0)
                .setSpanSizeBytes(spanBytes)
                .setDurationNs(durationS * S)
                .build();
    }
}
