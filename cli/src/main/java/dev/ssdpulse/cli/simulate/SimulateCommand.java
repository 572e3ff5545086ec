package dev.ssdpulse.cli.simulate;

import dev.ssdpulse.cli.UserInputException;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.options.WorkloadOptions;
import dev.ssdpulse.cli.report.SummaryRenderer;
import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.producer.io.IoOpCode;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.producer.sim.config.Capacity;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.simulate.SimulationObserver;
import dev.ssdpulse.producer.simulate.WorkloadSimulation;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.waf.SmartCounters;
import dev.ssdpulse.streams.window.WindowResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ssdpulse simulate}: a workload on a simulated SSD, streamed to Kafka as a run (the same events a
 * device run produces), or analysed in-process with {@code --offline}.
 */
@Command(name = "simulate", description = "Run a workload on a simulated SSD; stream the run to Kafka, or --offline.")
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--ssd", paramLabel = "PRESET|FILE", defaultValue = "sata-mlc-120gb-2012",
            description = "Simulated drive: a preset (${COMPLETION-CANDIDATES}) or a JSON file (default: ${DEFAULT-VALUE}).",
            completionCandidates = SsdPresetNames.class)
    String ssd;

    @Option(names = "--parity-reserve", paramLabel = "SIZE",
            description = "Override the drive's parity/OP reserve (e.g. 8GB, 0).")
    String parityReserve;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--offline", description = "Analyse in-process and print the summary; no Kafka needed.")
    boolean offline;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Summary format with --offline (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--series-csv", paramLabel = "FILE",
            description = "With --offline: write the per-window series (time, op, IOPS, MB/s, latency) as CSV.")
    Path seriesCsv;

    @Option(names = "--realtime", description = "Pace the simulation to wall-clock time (see --speed).")
    boolean realtime;

    @Option(names = "--speed", defaultValue = "1", paramLabel = "X",
            description = "With --realtime: simulated seconds per wall second (default: ${DEFAULT-VALUE}).")
    double speed;

    @Option(names = "--smart-interval", defaultValue = "1s", paramLabel = "DURATION",
            description = "Simulated time between SMART samples (default: ${DEFAULT-VALUE}).")
    Duration smartInterval;

    @Option(names = "--window", defaultValue = "1s", paramLabel = "DURATION",
            description = "With --offline: window length of the series (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(names = "--snia-round", defaultValue = "60s", paramLabel = "DURATION",
            description = "With --offline: SNIA steady-state round length (default: ${DEFAULT-VALUE}).")
    Duration sniaRound;

    @Option(names = "--run-id", paramLabel = "ID", description = "Run id (default: generated, sim-<date>-<time>-<hex>).")
    String runId;

    @Option(names = "--batch-ios", defaultValue = "512", paramLabel = "N",
            description = "I/Os per Kafka record (default: ${DEFAULT-VALUE}).")
    int batchIos;

    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    @Mixin
    KafkaOptions kafka;

    private final AtomicBoolean cancelled = new AtomicBoolean();

    @Override
    public Integer call() throws Exception {
        if (!"text".equals(format) && !"json".equals(format)) {
            throw new UserInputException("--format must be text or json, got '" + format + "'");
        }
        if (!offline && seriesCsv != null) {
            throw new UserInputException("--series-csv needs --offline (a streamed run's series is in Kafka)");
        }
        SsdConfig config = new SsdPresets().resolve(ssd);
        if (parityReserve != null) {
            config = config.withParityReserveBytes(dev.ssdpulse.producer.workload.Units.parseBytes(parityReserve)).validate();
        }
        WorkloadSpec spec = workload.load();
        String id = runId == null ? RunIds.newRunId("sim") : RunIds.validate(runId);
        SimulatedDrive drive = new SimulatedDrive(config, spec.seed());
        String device = config.name() + ", " + Capacity.format(drive.capacityBytes()) + " user, "
                + Capacity.format(config.rawFlashBytes()) + " raw flash";
        PrintWriter err = spec().commandLine().getErr();
        if (!quiet) {
            err.printf("simulating %s on %s (run %s)%n", spec.name(), device, id);
            err.flush();
        }
        return offline ? runOffline(id, config, drive, spec, device) : runStreamed(id, config, drive, spec);
    }

    private CommandSpec spec() {
        return spec;
    }

    private int runOffline(String id, SsdConfig config, SimulatedDrive drive, WorkloadSpec workloadSpec, String device)
            throws IOException {
        OfflineRunAnalysis analysis = new OfflineRunAnalysis(id, window.toNanos(), 2 * window.toNanos(),
                LatencyBins.iometer(), sniaRound.toNanos(), seriesCsv != null);
        Progress progress = new Progress();
        SimulationObserver observer = new SimulationObserver() {
            @Override
            public void onIoCompleted(int worker, int phaseIndex, byte op, long offsetBytes, int sizeBytes,
                                      long submitTimeNs, long latencyNs, int queueDepth, int status) {
                analysis.io(op, phaseIndex, submitTimeNs, latencyNs, sizeBytes, status);
                progress.io(op, sizeBytes);
            }

            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                analysis.phaseStarted(phase.index(), phase.name(), PhaseKind.valueOf(phase.phase().kind().name()), timeNs);
                progress.phase(phase, timeNs);
            }

            @Override
            public void onSmartSample(SimSmartCounters c) {
                analysis.smart(counters(c), SmartSource.SIMULATOR);
            }
        };
        WorkloadSimulation simulation = WorkloadSimulation.prepare(drive, workloadSpec, smartInterval.toNanos(), observer);
        runSimulation(simulation, progress);
        long durationNs = simulation.run().nowNs();
        RunStatus status = cancelled.get() ? RunStatus.ABORTED : RunStatus.COMPLETED;
        RunSummary summary = analysis.finish(status, cancelled.get() ? "interrupted" : null, durationNs,
                simulation.run().completedIos());
        SummaryRenderer.Context context = new SummaryRenderer.Context(device, workloadSpec.name(),
                analysis.writeAmplificationByPhase());
        PrintWriter out = spec.commandLine().getOut();
        if ("json".equals(format)) {
            out.println(SummaryRenderer.json(summary, context));
            out.flush();
        } else {
            SummaryRenderer.text(summary, context, out);
        }
        if (seriesCsv != null) {
            writeSeries(analysis, seriesCsv);
        }
        return status == RunStatus.COMPLETED ? 0 : 130;
    }

    private int runStreamed(String id, SsdConfig config, SimulatedDrive drive, WorkloadSpec workloadSpec)
            throws InterruptedException {
        Map<String, Object> props = kafka.clientProperties();
        TopicSetup.ensure(props, Topics.all());
        RunStarted started = RunStarted.newBuilder()
                .setRunId(id)
                .setRunName(workloadSpec.name() + " on " + config.name())
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(deviceDescription(config, drive))
                .setHost(HostDescriptions.current("simulator", true, null))
                .setWorkload(WorkloadAvro.toDescription(workloadSpec, drive.capacityBytes()))
                .setSeed(workloadSpec.seed())
                .setWallClockStartEpochNs(System.currentTimeMillis() * 1_000_000L)
                .setToolVersion(toolVersion())
                .setSmartIntervalNs(smartInterval.toNanos())
                .build();
        Progress progress = new Progress();
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(kafka.schemaRegistryUrl());
             var producer = RunProducers.create(props, registry)) {
            PublisherConfig publisherConfig = PublisherConfig.defaults(props, OverflowPolicy.BLOCK).withMaxBatchIos(batchIos);
            int maxWorkers = workloadSpec.schedule().stream().mapToInt(p -> p.phase().workers()).max().orElse(1);
            RunPublisher publisher = new RunPublisher(producer, publisherConfig, started, maxWorkers);
            SimulationObserver observer = new SimulationObserver() {
                @Override
                public void onIoCompleted(int worker, int phaseIndex, byte op, long offsetBytes, int sizeBytes,
                                          long submitTimeNs, long latencyNs, int queueDepth, int status) {
                    publisher.onIoCompleted(worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs,
                            queueDepth, status);
                    progress.io(op, sizeBytes);
                }

                @Override
                public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                    publisher.phaseChanged(new PhaseChanged(id, phase.index(), phase.name(),
                            PhaseKind.valueOf(phase.phase().kind().name()), timeNs));
                    progress.phase(phase, timeNs);
                }

                @Override
                public void onSmartSample(SimSmartCounters c) {
                    publisher.publishSmart(smartSample(id, c));
                }
            };
            CountDownLatch done = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                cancelled.set(true);
                try {
                    done.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "ssdpulse-simulate-ctrl-c");
            Runtime.getRuntime().addShutdownHook(hook);
            PublishReport report;
            try {
                WorkloadSimulation simulation = WorkloadSimulation.prepare(drive, workloadSpec, smartInterval.toNanos(),
                        observer);
                runSimulation(simulation, progress);
                boolean aborted = cancelled.get();
                report = publisher.finish(aborted ? RunStatus.ABORTED : RunStatus.COMPLETED,
                        aborted ? "interrupted (Ctrl-C)" : null, simulation.run().nowNs(), 120_000);
            } catch (RuntimeException e) {
                publisher.finish(RunStatus.FAILED, e.toString(), 0, 30_000);
                throw e;
            } finally {
                done.countDown();
                if (!cancelled.get()) {
                    Runtime.getRuntime().removeShutdownHook(hook);
                }
            }
            PrintWriter out = spec.commandLine().getOut();
            out.printf("run %s: %,d I/Os simulated, %,d published to %s, %,d not published%s%n", id,
                    report.ioCompleted(), report.ioPublished(), Topics.IO.name(), report.ioNotPublished(),
                    report.failure() == null ? "" : "; first error: " + report.failure());
            out.flush();
            return report.complete() ? (cancelled.get() ? 130 : 0) : 1;
        }
    }

    private void runSimulation(WorkloadSimulation simulation, Progress progress) {
        var run = simulation.run();
        java.util.function.BooleanSupplier stop = () -> {
            progress.maybePrint(run.nowNs());
            return cancelled.get();
        };
        if (realtime) {
            try {
                simulation.runPaced(speed, stop);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancelled.set(true);
            }
        } else {
            simulation.runToCompletion(stop);
        }
        progress.done(run.nowNs());
    }

    private static SmartCounters counters(SimSmartCounters c) {
        return new SmartCounters(c.timeNs(), c.hostBytesWritten(), c.nandBytesWritten(), c.nandBytesWrittenHost(),
                c.nandBytesWrittenGc(), c.nandBytesWrittenWearLevelling(), c.nandBytesWrittenMetadata(),
                (long) c.freeBlocks());
    }

    static SmartSample smartSample(String runId, SimSmartCounters c) {
        return SmartSample.newBuilder()
                .setRunId(runId)
                .setTimeNs(c.timeNs())
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(c.hostBytesWritten())
                .setHostBytesRead(c.hostBytesRead())
                .setNandBytesWritten(c.nandBytesWritten())
                .setNandBytesWrittenHost(c.nandBytesWrittenHost())
                .setNandBytesWrittenGc(c.nandBytesWrittenGc())
                .setNandBytesWrittenWearLeveling(c.nandBytesWrittenWearLevelling())
                .setNandBytesWrittenMetadata(c.nandBytesWrittenMetadata())
                .setEraseCount(c.eraseCount())
                .setFreeBlocks((long) c.freeBlocks())
                .setGcInvocations(c.gcInvocations())
                .setRawAttributes(Map.of("forcedGcInvocations", Long.toString(c.forcedGcInvocations()),
                        "idleGcInvocations", Long.toString(c.idleGcInvocations()),
                        "hostBytesTrimmed", Long.toString(c.hostBytesTrimmed())))
                .build();
    }

    static DeviceDescription deviceDescription(SsdConfig config, SimulatedDrive drive) {
        var g = config.geometry();
        return DeviceDescription.newBuilder()
                .setModel("ssdpulse simulator: " + config.name())
                .setCapacityBytes(drive.capacityBytes())
                .setLogicalBlockSizeBytes(4096)
                .setRawFlashBytes(config.rawFlashBytes())
                .setOverProvisioningRatio(config.physicalToLogical() - 1.0)
                .setParityReserveBytes(config.capacity().parityReserveBytes())
                .setGeometry(new dev.ssdpulse.schemas.avro.NandGeometry(g.channels(), g.diesPerChannel(),
                        g.planesPerDie(), g.blocksPerPlane(), g.pagesPerBlock(), g.pageSizeBytes()))
                .setPresetJson(new SsdPresets().toJson(config))
                .build();
    }

    private static String toolVersion() {
        String v = SimulateCommand.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    private void writeSeries(OfflineRunAnalysis analysis, Path file) throws IOException {
        StringBuilder csv = new StringBuilder("window_start_s,op,phase,io_count,iops,mb_per_s,latency_mean_us,latency_max_us\n");
        for (WindowResult w : analysis.windows()) {
            csv.append(String.format(java.util.Locale.ROOT, "%.3f,%s,%d,%d,%.1f,%.3f,%.1f,%.1f%n", w.windowStartNs() / 1e9,
                    IoOpCode.name((byte) w.op()), w.phaseIndex(), w.ioCount(), w.iops(), w.mbPerSec(),
                    w.latency().meanNs() / 1e3, w.latency().maxNs() / 1e3));
        }
        Files.writeString(file, csv);
    }

    /** Progress on stderr every ~2 s of wall time: simulated time, I/Os, IOPS and MB/s since the last line. */
    private final class Progress {
        private final long startWall = System.nanoTime();
        private long lastPrintWall = startWall;
        private long lastVirtualNs;
        private long ios;
        private long bytes;
        private long lastIos;
        private long lastBytes;
        private String phase = "";

        void io(byte op, int sizeBytes) {
            ios++;
            bytes += sizeBytes;
        }

        void phase(ScheduledPhase p, long timeNs) {
            phase = p.name();
            if (!quiet) {
                PrintWriter err = spec.commandLine().getErr();
                err.printf("  [%8.1f s] phase %d '%s' (%s)%n", timeNs / 1e9, p.index(), p.name(), p.phase().kind());
                err.flush();
            }
        }

        void maybePrint(long virtualNs) {
            long now = System.nanoTime();
            if (quiet || now - lastPrintWall < 2_000_000_000L) {
                return;
            }
            double dt = (virtualNs - lastVirtualNs) / 1e9;
            PrintWriter err = spec.commandLine().getErr();
            err.printf("  [%8.1f s simulated, %5.0f s wall] %-28s %,14d I/Os  %,10.0f IOPS  %8.1f MB/s%n",
                    virtualNs / 1e9, (now - startWall) / 1e9, phase, ios,
                    dt > 0 ? (ios - lastIos) / dt : 0.0, dt > 0 ? (bytes - lastBytes) / 1e6 / dt : 0.0);
            err.flush();
            lastPrintWall = now;
            lastVirtualNs = virtualNs;
            lastIos = ios;
            lastBytes = bytes;
        }

        void done(long virtualNs) {
            if (!quiet) {
                PrintWriter err = spec.commandLine().getErr();
                err.printf("  done: %.1f s simulated in %.1f s wall, %,d I/Os%n", virtualNs / 1e9,
                        (System.nanoTime() - startWall) / 1e9, ios);
                err.flush();
            }
        }
    }

    /** Completion candidates for --ssd. */
    static final class SsdPresetNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return SsdPresets.BUILT_IN.iterator();
        }
    }
}
