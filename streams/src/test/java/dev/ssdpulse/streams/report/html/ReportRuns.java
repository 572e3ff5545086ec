package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Runs shaped like the seed articles' (a fill leaving some flash free, then a 4 KiB random-write test that falls
 * off a cliff, with latency outliers and SMART samples), analysed by the real analysis core, for the HTML report's
 * tests.
 */
final class ReportRuns {
    static final long S = 1_000_000_000L;
    static final long GB = 1_000_000_000L;
    static final long CAPACITY_BYTES = 100 * GB;
    static final String MODEL = "report-test-drive";
    static final String TOOL_VERSION = "0.1.0-report-test";
    private static final int READ = 0;
    private static final int WRITE = 1;

    private ReportRuns() {}

    /**
     * @param freeFlashGb GB the fill leaves unwritten (-1: no fill, a secure-erased drive)
     * @param queueDepth  the test phase's queue depth (the run is faster at a deeper queue)
     * @param scheduler   the I/O scheduler the run records
     */
    static HtmlReport.RunData run(String runId, int freeFlashGb, int queueDepth, String scheduler) {
        return run(runId, freeFlashGb, queueDepth, scheduler, 0);
    }

    /**
     * How the run's drive counts its writes: exact bytes (the simulator's), or a real drive's counters, which move in
     * steps from a lifetime origin.
     *
     * @param unit      "B", or the unit both sides count in ("NAND page")
     * @param unitBytes bytes per count of that unit (1 for "B")
     * @param hostStep  the host counter's step, in unit (0: exact)
     * @param nandStep  the NAND counter's step, in unit
     */
    record Counters(SmartSource source, String unit, long unitBytes, long hostStep, long nandStep) {
        static final Counters EXACT = new Counters(SmartSource.SIMULATOR, "B", 1, 0, 0);
        /** Intel SATA: 241 Host_Writes_32MiB, 243 NAND_Writes_32MiB. */
        static final Counters STEPS_32_MIB = new Counters(SmartSource.SMARTCTL, "B", 1, 32L << 20, 32L << 20);
        /** Intel SATA: 241 Host_Writes_32MiB, 249 NAND_Writes_1GiB. */
        static final Counters NAND_STEP_1_GIB = new Counters(SmartSource.SMARTCTL, "B", 1, 32L << 20, 1L << 30);
        /** Crucial/Micron SATA: 247 host program pages, 247 + 248 NAND program pages (16 KiB pages, two counters). */
        static final Counters NAND_PAGES = new Counters(SmartSource.SMARTCTL, "NAND page", 16_384, 1, 2);

        private static final long HOST_ORIGIN_BYTES = 7_300_000_000_000L;
        private static final long NAND_ORIGIN_BYTES = 11_900_000_000_000L;

        SmartSample sample(String runId, long timeNs, long hostBytes, long nandBytes) {
            SmartSample.Builder b =
                    SmartSample.newBuilder().setRunId(runId).setTimeNs(timeNs).setSource(source);
            if (this == EXACT) {
                return b.setHostBytesWritten(hostBytes)
                        .setNandBytesWritten(nandBytes)
                        .build();
            }
            return b.setWaUnit(unit)
                    .setWaHostWrites(reading(HOST_ORIGIN_BYTES + hostBytes, hostStep))
                    .setWaHostResolution(hostStep)
                    .setWaNandWrites(reading(NAND_ORIGIN_BYTES + nandBytes, nandStep))
                    .setWaNandResolution(nandStep)
                    .build();
        }

        /** The counter as the drive shows it: whole steps of the count in unit, rounded down. */
        private long reading(long bytes, long step) {
            long count = bytes / unitBytes;
            return step <= 1 ? count : count / step * step;
        }
    }

    /** @param readPercent share of the test phase's I/Os that read (seed 001's test: 50) */
    static HtmlReport.RunData run(String runId, int freeFlashGb, int queueDepth, String scheduler, int readPercent) {
        return run(runId, freeFlashGb, queueDepth, scheduler, readPercent, Counters.EXACT);
    }

    /** @param counters how the drive counts host and NAND writes */
    static HtmlReport.RunData run(
            String runId, int freeFlashGb, int queueDepth, String scheduler, int readPercent, Counters counters) {
        AnalysisSettings settings =
                AnalysisSettings.defaults().withSteadyState(10 * S, List.of(FioCriterion.parse("iops:20%:20s")));
        OfflineRunAnalysis analysis = new OfflineRunAnalysis(runId, settings, true, true);
        SplittableRandom random = new SplittableRandom(runId.hashCode());
        // mid-window, as a real phase change is: the window across it belongs to neither phase whole
        long fillEndNs = 40 * S + 400_000_000L;
        long testEndNs = 240 * S;
        long cliffNs = 120 * S;
        analysis.phaseStarted(0, "fill", PhaseKind.FILL, 0);
        long hostBytes = 0;
        long nandBytes = 0;
        double spareFactor = freeFlashGb < 0 ? 0.05 : 1.0 / (1 + freeFlashGb);
        long nextSmartNs = 0;
        long ios = 0;
        boolean inTest = false;
        for (long t = 0; t < testEndNs; ) {
            boolean test = t >= fillEndNs;
            if (test && !inTest) {
                analysis.phaseStarted(1, "random-write", PhaseKind.TEST, fillEndNs);
                inTest = true;
            }
            int iops = !test ? 2_000 : (t < cliffNs ? 400 * queueDepth : 120 * queueDepth) + random.nextInt(20);
            long gapNs = S / iops;
            long latencyNs = 80_000 + random.nextInt(40_000);
            if (random.nextInt(400) == 0) {
                latencyNs = 12_000_000 + random.nextInt(30_000_000); // an outlier layer at 12-42 ms
            } else if (random.nextInt(8_000) == 0) {
                latencyNs = 110_000_000 + random.nextInt(50_000_000); // and a rarer one above 100 ms
            }
            int sizeBytes = test ? 4096 : 131_072;
            boolean read = test && random.nextInt(100) < readPercent;
            analysis.io(read ? READ : WRITE, test ? 1 : 0, t, latencyNs, sizeBytes, 0);
            ios++;
            if (!read) {
                hostBytes += sizeBytes;
                nandBytes += sizeBytes + (test && t >= cliffNs ? (long) (sizeBytes * 3 * spareFactor) : 0);
            }
            if (t >= nextSmartNs) {
                analysis.smart(counters.sample(runId, t, hostBytes, nandBytes));
                nextSmartNs += 5 * S;
            }
            t += gapNs;
        }
        analysis.smart(counters.sample(runId, testEndNs, hostBytes, nandBytes));
        analysis.finish(RunStatus.COMPLETED, null, testEndNs, ios, 0);
        ScatterRaster scatter = HtmlReport.scatterRaster(analysis.summary());
        analysis.scatters().forEach(scatter::add);
        return new HtmlReport.RunData(
                started(runId, freeFlashGb, queueDepth, scheduler),
                analysis.summary(),
                analysis.windows(),
                analysis.writeAmplification(),
                scatter.finish());
    }

    /** A trace replayed on a drive of the report's tests. */
    record Replay(String phaseName, String trace, boolean recordedTiming, double timeScale) {
        static final Replay APP = new Replay("app-start", "classpath:workloads/traces/app-load.iolog.gz", true, 1);
        static final Replay BOOT = new Replay("boot", "classpath:workloads/traces/boot.iolog.gz", true, 1);
        static final Replay APP_FAST = new Replay(APP.phaseName, APP.trace, false, 1);
    }

    /** I/Os of the replay runs' trace. */
    static final int REPLAY_IOS = 3_000;

    /**
     * Seed 003's load-time test on one drive: a REPLAY phase of {@link #REPLAY_IOS} 128 KiB reads issued 1.5 ms apart
     * as recorded, served one at a time in about {@code latencyUs} each by this drive, analysed by the real analysis core with the
     * producer's replay result ({@code lateIssues} of them issued late, a cut short replay when {@code issued} is
     * below the trace's count). The load time is the phase's, first submit to last completion.
     */
    static HtmlReport.RunData replay(String runId, String model, Replay replay, long latencyUs, long lateIssues) {
        return replay(runId, model, replay, latencyUs, lateIssues, REPLAY_IOS);
    }

    static HtmlReport.RunData replay(
            String runId, String model, Replay replay, long latencyUs, long lateIssues, int issued) {
        OfflineRunAnalysis analysis = new OfflineRunAnalysis(runId, AnalysisSettings.defaults(), true, true);
        SplittableRandom random = new SplittableRandom(runId.hashCode());
        analysis.phaseStarted(0, replay.phaseName(), PhaseKind.REPLAY, 0);
        // the drive serves one read at a time: a drive slower than the recorded rhythm falls behind
        long endNs = 0;
        for (int i = 0; i < issued; i++) {
            long submitNs = i * 1_500_000L;
            long doneNs = Math.max(submitNs, endNs) + latencyUs * 1_000 + random.nextInt(50_000);
            analysis.io(READ, 0, submitNs, doneNs - submitNs, 131_072, 0);
            endNs = doneNs;
        }
        analysis.replayFinished(ReplayPhaseResult.newBuilder()
                .setPhaseIndex(0)
                .setTrace(replay.trace())
                .setRecordedTiming(replay.recordedTiming())
                .setTimeScale(replay.timeScale())
                .setTraceIoCount(REPLAY_IOS)
                .setIssuedIoCount(issued)
                .setLateIssueCount(replay.recordedTiming() ? lateIssues : 0)
                .setLateThresholdNs(1_000_000L)
                .setIssueLagP50Ns(replay.recordedTiming() ? 20_000L : 0)
                .setIssueLagP99Ns(replay.recordedTiming() ? 2_500_000L : 0)
                .setIssueLagMaxNs(replay.recordedTiming() ? 9_000_000L : 0)
                .build());
        analysis.finish(RunStatus.COMPLETED, null, endNs, issued, 0);
        ScatterRaster scatter = HtmlReport.scatterRaster(analysis.summary());
        analysis.scatters().forEach(scatter::add);
        RunStarted started = started(runId, -1, 32, "none");
        started.getDevice().setModel(model);
        started.getWorkload().setPhases(List.of(phase(0, replay.phaseName(), PhaseKind.REPLAY, null, 32, 0, 2 * GB)));
        return new HtmlReport.RunData(
                started, analysis.summary(), analysis.windows(), analysis.writeAmplification(), scatter.finish());
    }

    private static RunStarted started(String runId, int freeFlashGb, int queueDepth, String scheduler) {
        AccessSpec seq = AccessSpec.newBuilder()
                .setTransferSizeBytes(131_072)
                .setPercentOfSpec(100)
                .setPercentRead(0)
                .setPercentRandom(0)
                .setAlignmentBytes(4096)
                .build();
        AccessSpec random = AccessSpec.newBuilder()
                .setTransferSizeBytes(4096)
                .setPercentOfSpec(100)
                .setPercentRead(0)
                .setPercentRandom(100)
                .setAlignmentBytes(4096)
                .build();
        List<PhaseSpec> phases = new ArrayList<>();
        phases.add(phase(
                0,
                "fill",
                freeFlashGb < 0 ? PhaseKind.PRECONDITION_INDEPENDENT : PhaseKind.FILL,
                seq,
                32,
                0,
                freeFlashGb < 0 ? 0 : CAPACITY_BYTES - freeFlashGb * GB));
        phases.add(phase(1, "random-write", PhaseKind.TEST, random, queueDepth, 0, 24 * GB));
        return RunStarted.newBuilder()
                .setRunId(runId)
                .setRunName(runId)
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(DeviceDescription.newBuilder()
                        .setModel(MODEL)
                        .setSerial("SN-" + runId)
                        .setFirmware("FW1.0")
                        .setCapacityBytes(CAPACITY_BYTES)
                        .setLogicalBlockSizeBytes(512)
                        .build())
                .setHost(HostDescription.newBuilder()
                        .setHostname("bench-host")
                        .setKernel("Linux 6.1.0-28-amd64")
                        .setIoEngine("simulator")
                        .setIoScheduler(scheduler)
                        .build())
                .setWorkload(WorkloadDescription.newBuilder()
                        .setName("report-test")
                        .setSpecJson("{}")
                        .setPhases(phases)
                        .build())
                .setSeed(1)
                .setWallClockStartEpochNs(0L)
                .setToolVersion(TOOL_VERSION)
                .setLabels(Map.of("campaign", "report"))
                .build();
    }

    private static PhaseSpec phase(
            int index, String name, PhaseKind kind, AccessSpec spec, int queueDepth, long offsetBytes, long sizeBytes) {
        return PhaseSpec.newBuilder()
                .setIndex(index)
                .setName(name)
                .setKind(kind)
                .setAccessSpecs(spec == null ? List.of() : List.of(spec))
                .setQueueDepth(queueDepth)
                .setWorkers(1)
                .setSpanOffsetBytes(offsetBytes)
                .setSpanSizeBytes(sizeBytes)
                .build();
    }
}
