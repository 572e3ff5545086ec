package dev.ssdpulse.cli.simulate;

import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.producer.integrity.MemoryRunLog;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.integrity.Verification;
import dev.ssdpulse.producer.integrity.VerificationAvro;
import dev.ssdpulse.producer.integrity.VerificationReport;
import dev.ssdpulse.producer.pacing.RunTimePacer;
import dev.ssdpulse.producer.pacing.WallClock;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.ftl.power.PowerCut;
import dev.ssdpulse.producer.sim.run.SimulationObserver;
import dev.ssdpulse.producer.sim.run.WorkloadSimulation;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.NandGeometry;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Runs a workload on a simulated drive into a {@link RunOutput}: as fast as possible, or paced to a multiple
 * of real time; progress lines on {@code progressOut} every ~2 s of wall time. Used by {@code simulate} and
 * {@code demo}.
 */
public final class SimulatedRunDriver {
    private final SimulatedDrive drive;
    private final WorkloadSpec workloadSpec;
    private final ReplayTraces replays;
    private final long smartIntervalNs;
    private final double speed;
    private final PrintWriter progressOut;
    private final BooleanSupplier cancelled;
    private final Supplier<String> cancelReason;

    /** As the full constructor, a cancellation being Ctrl-C. */
    public SimulatedRunDriver(
            SimulatedDrive drive,
            WorkloadSpec workloadSpec,
            long smartIntervalNs,
            double speed,
            PrintWriter progressOut,
            BooleanSupplier cancelled) {
        this(drive, workloadSpec, ReplayTraces.NONE, smartIntervalNs, speed, progressOut, cancelled);
    }

    /** As the full constructor, a cancellation being Ctrl-C. */
    public SimulatedRunDriver(
            SimulatedDrive drive,
            WorkloadSpec workloadSpec,
            ReplayTraces replays,
            long smartIntervalNs,
            double speed,
            PrintWriter progressOut,
            BooleanSupplier cancelled) {
        this(
                drive,
                workloadSpec,
                replays,
                smartIntervalNs,
                speed,
                progressOut,
                cancelled,
                () -> "interrupted (Ctrl-C)");
    }

    /**
     * @param replays      the workload's traces, scanned and checked against the drive before the run (see
     *                     simulate); {@link ReplayTraces#NONE} where it has no REPLAY phase
     * @param speed        simulated seconds per wall second; 0 or less = as fast as possible
     * @param progressOut  where progress goes, or null for none
     * @param cancelled    true once the run is to stop: it ends ABORTED
     * @param cancelReason why it was stopped, recorded with the ABORTED status
     */
    public SimulatedRunDriver(
            SimulatedDrive drive,
            WorkloadSpec workloadSpec,
            ReplayTraces replays,
            long smartIntervalNs,
            double speed,
            PrintWriter progressOut,
            BooleanSupplier cancelled,
            Supplier<String> cancelReason) {
        this.drive = drive;
        this.workloadSpec = workloadSpec;
        this.replays = replays == ReplayTraces.NONE ? null : replays;
        this.smartIntervalNs = smartIntervalNs;
        this.speed = speed;
        this.progressOut = progressOut;
        this.cancelled = cancelled;
        this.cancelReason = cancelReason;
    }

    /** Runs to the end (or cancellation) and finishes the output; returns its exit code. */
    public int run(RunOutput output) {
        return run(output, null);
    }

    /**
     * As {@link #run(RunOutput)}; paced runs keep to the wall clock from {@code runStart} (the start their RunStarted
     * records, taken before the output connected to Kafka), so that run time t is the wall clock's start + t, as
     * a consumer of the run reads it. Null: from now.
     */
    public int run(RunOutput output, Instant runStart) {
        Progress progress = new Progress();
        // a run that cuts the power keeps its log to verify the drive's content against after the cut
        MemoryRunLog log = drive.recordsVersions() ? new MemoryRunLog() : null;
        SimulationObserver observer = new SimulationObserver() {
            @Override
            public void onIoCompleted(
                    int worker,
                    int phaseIndex,
                    byte op,
                    long offsetBytes,
                    int sizeBytes,
                    long submitTimeNs,
                    long latencyNs,
                    int queueDepth,
                    int status,
                    long writeSequence,
                    int ioFlags) {
                output.onIoCompleted(
                        worker,
                        phaseIndex,
                        op,
                        offsetBytes,
                        sizeBytes,
                        submitTimeNs,
                        latencyNs,
                        queueDepth,
                        status,
                        writeSequence,
                        ioFlags);
                if (log != null) {
                    log.onIoCompleted(
                            worker,
                            phaseIndex,
                            op,
                            offsetBytes,
                            sizeBytes,
                            submitTimeNs,
                            latencyNs,
                            queueDepth,
                            status,
                            writeSequence,
                            ioFlags);
                }
                progress.io(sizeBytes);
            }

            @Override
            public void onIoCompleted(
                    int worker,
                    int phaseIndex,
                    byte op,
                    long offsetBytes,
                    int sizeBytes,
                    long submitTimeNs,
                    long latencyNs,
                    int queueDepth,
                    int status) {
                output.onIoCompleted(
                        worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
                progress.io(sizeBytes);
            }

            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                output.phaseStarted(phase, timeNs);
                progress.phase(phase, timeNs);
            }

            @Override
            public void onSmartSample(SimSmartCounters c) {
                output.smart(smartSample(output.runId(), c));
            }

            @Override
            public void onReplayFinished(ReplayResult result) {
                output.replayFinished(result);
            }
        };
        WorkloadSimulation simulation;
        try {
            simulation = replays == null
                    ? WorkloadSimulation.prepare(drive, workloadSpec, smartIntervalNs, observer)
                    : WorkloadSimulation.prepare(drive, workloadSpec, replays, smartIntervalNs, observer);
            var run = simulation.run();
            int workers = maxWorkers(workloadSpec);
            BooleanSupplier stop = () -> {
                // asked after each step of the virtual clock: every completion up to now has been delivered
                long nowNs = run.nowNs();
                for (int w = 0; w < workers; w++) {
                    output.completedThrough(w, nowNs);
                }
                progress.maybePrint(nowNs);
                return cancelled.getAsBoolean();
            };
            if (speed > 0) {
                long startNanos = System.nanoTime();
                if (runStart != null) {
                    startNanos -= Math.max(
                            0, Duration.between(runStart, Instant.now()).toNanos());
                }
                RunTimePacer pacer =
                        new RunTimePacer(WallClock.system(), speed, WorkloadSimulation.PACED_STEP_NS, startNanos);
                // setup and the drive's preparation took wall time but no run time: the first paced phase starts
                // now rather than catch up in a burst, and the run's members of a group say where it moved to
                output.runTimeOriginMoved(pacer.startPhase(run.nowNs()));
                simulation.runPaced(pacer, stop);
            } else {
                simulation.runToCompletion(stop);
            }
            progress.done(run.nowNs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            output.finish(RunStatus.ABORTED, "interrupted", 0);
            return 130;
        } catch (RuntimeException e) {
            output.finish(RunStatus.FAILED, e.toString(), 0);
            throw e;
        }
        boolean aborted = cancelled.getAsBoolean();
        PowerCut cut = simulation.run().powerCut();
        if (cut != null) {
            output.verification(verification(output.runId(), log, cut));
        }
        return output.finish(
                aborted ? RunStatus.ABORTED : RunStatus.COMPLETED,
                aborted ? cancelReason.get() : null,
                simulation.run().nowNs());
    }

    /**
     * The run's writes checked against the drive's content after the cut by the verification core that checks a real
     * drive: the same classes, models and record, the content the simulated drive's.
     */
    WriteVerification verification(String runId, MemoryRunLog log, PowerCut cut) {
        long runHash = UnitStamp.runHash(runId);
        VerificationReport report;
        try {
            report = Verification.verify(
                    new Verification.Options(runHash, false, Verification.Listener.NONE), log, cut.forRun(runHash));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: no I/O happens
        }
        boolean plp = cut.powerLossProtection();
        WriteVerification v = VerificationAvro.of(
                report,
                new VerificationAvro.Context(
                        runId,
                        Instant.now(),
                        "simulated drive " + drive.config().name() + " (power cut at "
                                + String.format(Locale.ROOT, "%.6f", cut.cutNs() / 1e9) + " s of drive time)",
                        drive.capacityBytes(),
                        HostDescriptions.toolVersion(),
                        RunStatus.COMPLETED,
                        false,
                        0,
                        0L,
                        1L,
                        plp ? 0L : null,
                        plp ? 1L : null,
                        plp
                                ? "simulated: the cut is the drive's one unsafe shutdown; its power-loss protection ran"
                                : "simulated: the cut is the drive's one unsafe shutdown; no power-loss protection",
                        report.unitsChecked() * UnitStamp.UNIT_BYTES,
                        0));
        if (progressOut != null) {
            var account = cut.account();
            progressOut.printf(
                    "power cut (%s): %,d units written, %,d still in the write buffer; after it %,d hold their last"
                            + " write, %,d an older one (the map rolled back), %,d nothing%n",
                    plp ? "power-loss protection" : "no power-loss protection",
                    account.writtenUnits(),
                    account.bufferedUnits(),
                    account.latestUnits(),
                    account.olderUnits(),
                    account.nothingUnits());
            progressOut.flush();
        }
        return v;
    }

    public static int maxWorkers(WorkloadSpec workloadSpec) {
        return workloadSpec.schedule().stream()
                .mapToInt(p -> p.phase().workers())
                .max()
                .orElse(1);
    }

    public static RunStarted runStarted(
            String runId, SsdConfig config, SimulatedDrive drive, WorkloadSpec workloadSpec, long smartIntervalNs) {
        return RunStartTime.stamp(RunStarted.newBuilder(), Instant.ofEpochMilli(System.currentTimeMillis()))
                .setRunId(runId)
                .setRunName(workloadSpec.name() + " on " + config.name())
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(deviceDescription(config, drive))
                .setHost(HostDescriptions.current("simulator", true, null))
                .setWorkload(WorkloadAvro.toDescription(
                        workloadSpec, WorkloadSimulation.targetSizeBytes(workloadSpec, drive.capacityBytes())))
                .setSeed(workloadSpec.seed())
                .setToolVersion(HostDescriptions.toolVersion())
                .setSmartIntervalNs(smartIntervalNs)
                .build();
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
                .setRawAttributes(Map.of(
                        "forcedGcInvocations",
                        Long.toString(c.forcedGcInvocations()),
                        "idleGcInvocations",
                        Long.toString(c.idleGcInvocations()),
                        "hostBytesTrimmed",
                        Long.toString(c.hostBytesTrimmed())))
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
                .setGeometry(new NandGeometry(
                        g.channels(),
                        g.diesPerChannel(),
                        g.planesPerDie(),
                        g.blocksPerPlane(),
                        g.pagesPerBlock(),
                        g.pageSizeBytes()))
                .setPresetJson(new SsdPresets().toJson(config))
                .build();
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

        void io(int sizeBytes) {
            ios++;
            bytes += sizeBytes;
        }

        void phase(ScheduledPhase p, long timeNs) {
            phase = p.name();
            if (progressOut != null) {
                PrintWriter err = progressOut;
                err.printf(
                        "  [%8.1f s] phase %d '%s' (%s)%n",
                        timeNs / 1e9, p.index(), p.name(), p.phase().kind());
                err.flush();
            }
        }

        void maybePrint(long virtualNs) {
            long now = System.nanoTime();
            if (progressOut == null || now - lastPrintWall < 2_000_000_000L) {
                return;
            }
            double dt = (virtualNs - lastVirtualNs) / 1e9;
            PrintWriter err = progressOut;
            err.printf(
                    "  [%8.1f s simulated, %5.0f s wall] %-28s %,14d I/Os  %,10.0f IOPS  %8.1f MB/s%n",
                    virtualNs / 1e9,
                    (now - startWall) / 1e9,
                    phase,
                    ios,
                    dt > 0 ? (ios - lastIos) / dt : 0.0,
                    dt > 0 ? (bytes - lastBytes) / 1e6 / dt : 0.0);
            err.flush();
            lastPrintWall = now;
            lastVirtualNs = virtualNs;
            lastIos = ios;
            lastBytes = bytes;
        }

        void done(long virtualNs) {
            if (progressOut != null) {
                PrintWriter err = progressOut;
                err.printf(
                        "  done: %.1f s simulated in %.1f s wall, %,d I/Os%n",
                        virtualNs / 1e9, (System.nanoTime() - startWall) / 1e9, ios);
                err.flush();
            }
        }
    }
}
