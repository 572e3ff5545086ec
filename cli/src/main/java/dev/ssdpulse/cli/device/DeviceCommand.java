package dev.ssdpulse.cli.device;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.GroupOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.options.OfflineOptions;
import dev.ssdpulse.cli.options.RunLabelOptions;
import dev.ssdpulse.cli.options.WorkloadOptions;
import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.cli.smart.SmartDevice;
import dev.ssdpulse.producer.device.DeviceProgress;
import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.PhaseOutcome;
import dev.ssdpulse.producer.device.ShutdownCancellation;
import dev.ssdpulse.producer.device.WriteStamps;
import dev.ssdpulse.producer.device.engine.CpuList;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoEngineChoice;
import dev.ssdpulse.producer.device.engine.ThreadAffinity;
import dev.ssdpulse.producer.device.guard.PreparedTarget;
import dev.ssdpulse.producer.device.guard.TargetGuard;
import dev.ssdpulse.producer.device.guard.TargetSafetyException;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.device.hostinfo.IoSchedulerSwitch;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.smart.SmartPlan;
import dev.ssdpulse.producer.smart.SmartPoller;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WorkloadValidator;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse device --target PATH --workload NAME|FILE}: the workload on a real file or block device
 * with O_DIRECT, every I/O timed in ns, streamed to Kafka (or --offline). Writing to a block device that
 * is mounted, partitioned or carries a file system, or to an existing non-empty file, is refused unless
 * --allow-destroy-data; a workload whose targetSize or spans do not fit the target is refused before any I/O.
 */
@Command(
        name = "device",
        description = "Run a workload on a file or block device (O_DIRECT); stream it to Kafka, or --offline.")
public final class DeviceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--target",
            required = true,
            paramLabel = "PATH",
            description = "A file (created at --size, else at the workload's targetSize) or a block device. A workload"
                    + " that writes is refused on an existing non-empty file or a used device without"
                    + " --allow-destroy-data.")
    Path target;

    @Option(
            names = "--size",
            paramLabel = "SIZE",
            description =
                    "Size of a file target, e.g. 4GiB (needed to create a file when the workload has no targetSize;"
                            + " a file never grows).")
    String size;

    @Option(
            names = "--allow-destroy-data",
            description =
                    "Allow writing to a block device that is partitioned or carries a file system, or to an existing"
                            + " non-empty file. Its data is lost.")
    boolean allowDestroyData;

    @Option(
            names = "--buffered",
            description = "Go through the page cache instead of O_DIRECT (not a drive measurement).")
    boolean buffered;

    @Option(
            names = "--engine",
            defaultValue = "auto",
            paramLabel = IoEngineChoice.NAMES,
            description = "I/O engine: io_uring or libaio (Linux asynchronous I/O: one submitting thread per worker "
                    + "keeps the queue depth, like fio's engines of the same names), psync (blocking pread/pwrite, one "
                    + "thread per queue slot; 'sync' is an alias), null (no I/O: measures the tool). auto (default): "
                    + "libaio, else io_uring where the kernel allows it (containers often refuse it with EPERM), else "
                    + "psync; the choice is printed and recorded in the run's host facts (ioEngine).")
    String engineName;

    @Option(
            names = "--io-timeout",
            defaultValue = "60s",
            paramLabel = "DURATION",
            description = "With io_uring/libaio: fail the phase when outstanding I/Os see no completion for this long "
                    + "(a device that stopped responding), instead of waiting forever (default: ${DEFAULT-VALUE}).")
    Duration ioTimeout;

    @Option(
            names = "--submit-batch",
            defaultValue = "1",
            paramLabel = "N",
            description = "With io_uring/libaio: prepared I/Os handed to the kernel per system call, as fio's "
                    + "iodepth_batch_submit (default: ${DEFAULT-VALUE}, as fio: each I/O goes out as soon as it is "
                    + "prepared; with io_uring the request that takes the last free slot goes with the wait that "
                    + "follows, in one system call). Larger values save system calls at high queue depth; values "
                    + "above the queue depth act as the queue depth.")
    int submitBatch;

    @Option(
            names = "--cpus-allowed",
            paramLabel = "LIST",
            description = "Pin every I/O thread to these CPUs, fio's cpus_allowed syntax (1, 0-3, 0,2,4-7; each thread "
                    + "may run on any of them). Default: the scheduler places them. On few cores, pinning to the CPU "
                    + "that takes the disk's interrupts saves a cross-CPU wake-up per completion; to compare with fio, "
                    + "pin both alike.")
    String cpusAllowed;

    @Option(
            names = "--scheduler",
            paramLabel = "NAME",
            description =
                    "Set the I/O scheduler of the target's disk for the run (the kernel's names: none, mq-deadline, "
                            + "bfq, kyber; what the disk offers is in /sys/block/DISK/queue/scheduler) and restore the "
                            + "previous one afterwards; recorded in the run with the kernel, CPU and memory. Refused "
                            + "with the reason where"
                            + " it cannot be set (not offered, no block device under the target, /sys not writable).")
    String scheduler;

    @Mixin
    WorkloadOptions workload;

    @Option(
            names = "--smart-device",
            paramLabel = "DEV",
            description =
                    "The drive whose SMART counters to poll (default: the target, or the disk under a file target;"
                            + " give it where that disk cannot be found: LVM, md, overlay). `ssdpulse smart "
                            + "--target DEV`"
                            + " shows what it exposes.")
    Path smartDevice;

    @Option(
            names = "--smart-interval",
            defaultValue = "10s",
            paramLabel = "DURATION",
            description = "Interval of SMART polling via smartctl/nvme-cli when present (default: ${DEFAULT-VALUE}).")
    Duration smartInterval;

    @Option(
            names = "--overflow",
            paramLabel = "drop|block",
            description = "When Kafka falls behind: drop (count and report unpublished I/Os, never stall the I/O path; "
                    + "the default) or block (stall submission: loses nothing, disturbs timing; the default of a run "
                    + "with stamped writes, whose log must hold every acknowledged write).")
    String overflow;

    @Option(
            names = "--verify-writes",
            description = "Stamp every 4 KiB unit the run writes (as the workload's verify: true) so that `ssdpulse "
                    + "verify` can check the target against the run's log afterwards, e.g. after a power cut.")
    boolean verifyWrites;

    @Mixin
    OfflineOptions offline;

    @Mixin
    RunLabelOptions labels;

    @Mixin
    GroupOptions group;

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description = "Run id (default: generated, dev-<date>-<time>-<hex>).")
    String runId;

    @Option(names = "--batch-ios", defaultValue = "512", paramLabel = "N", description = "I/Os per Kafka record.")
    int batchIos;

    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        offline.validate();
        group.validate(offline.offline);
        SmartDevice.checkExplicit(smartDevice);
        if (submitBatch < 1) {
            throw new UserInputException("--submit-batch must be at least 1 (I/Os per submission), got " + submitBatch);
        }
        CpuList cpus = cpusAllowed();
        WorkloadSpec workloadSpec = workload.load();
        if (verifyWrites && !workloadSpec.verify()) {
            workloadSpec = workloadSpec.withVerify(true);
            WorkloadValidator.validate(workloadSpec, workloadSpec.name() + " (with --verify-writes)");
        }
        try {
            DeviceRunner.checkRunsOnADevice(workloadSpec);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        OverflowPolicy overflowPolicy = overflowPolicy(workloadSpec.verify());
        String id = runId == null ? RunIds.newRunId("dev") : RunIds.validate(runId);
        int maxQueueDepth = workloadSpec.schedule().stream()
                .mapToInt(p -> p.phase().queueDepth())
                .max()
                .orElse(1);
        // every option is checked before the guard touches the target (it may create and fill a file)
        IoEngineChoice choice;
        try {
            choice = IoEngineChoice.choose(engineName, maxQueueDepth);
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        // a REPLAY phase's trace is read once before the target is opened: whether it writes decides how
        ReplayTraces replays = ReplayTraces.scan(workloadSpec);
        boolean writes = TargetGuard.writesData(workloadSpec) || replays.writesData();
        PreparedTarget prepared;
        try {
            prepared = new TargetGuard()
                    .prepare(
                            target,
                            size == null ? OptionalLong.empty() : OptionalLong.of(Units.parseBytes(size)),
                            workloadSpec,
                            writes,
                            allowDestroyData);
        } catch (TargetSafetyException e) {
            throw new UserInputException(e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        prepared.notes().forEach(n -> err.println("note: " + n));
        boolean direct = !buffered;
        if (choice.note() != null) {
            err.println("note: " + choice.note());
        }
        IoSchedulerSwitch schedulerSwitch = null;
        try (IoEngine engine = choice.engine()) {
            engine.open(prepared, direct);
            if (scheduler != null) {
                String disk = new HostFactsCollector()
                        .collect(prepared.path(), direct, engine.name())
                        .blockDevice();
                try {
                    schedulerSwitch = IoSchedulerSwitch.set(Path.of("/sys"), disk, scheduler);
                } catch (IllegalArgumentException e) {
                    throw new UserInputException(e.getMessage(), e);
                }
                err.printf(
                        "I/O scheduler of %s: %s for this run (was %s; restored afterwards)%n",
                        schedulerSwitch.disk(), schedulerSwitch.active(), schedulerSwitch.previous());
            }
            HostFacts facts = new HostFactsCollector().collect(prepared.path(), direct, engine.name());
            String device =
                    (facts.model() == null ? prepared.path().toString() : facts.model() + " (" + prepared.path() + ")")
                            + ", " + Units.describeBytes(prepared.sizeBytes());
            DeviceRunner runner = new DeviceRunner(
                    engine,
                    new DeviceRunOptions(
                            prepared.sizeBytes(),
                            prepared.blockDevice(),
                            allowDestroyData,
                            DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                            ioTimeout.toNanos(),
                            submitBatch,
                            cpus,
                            workloadSpec.verify() ? WriteStamps.forRun(id, workloadSpec.seed()) : null));
            if (!quiet) {
                err.printf(
                        "running %s on %s, %s, engine %s%s, scheduler %s%s (run %s)%n",
                        workloadSpec.name(),
                        device,
                        direct ? "O_DIRECT" : "buffered",
                        engine.name(),
                        engine.asynchronous() ? " (submit batch " + submitBatch + ")" : "",
                        facts.ioScheduler(),
                        cpus == null ? "" : ", I/O threads on CPUs " + cpus,
                        id);
                if (workloadSpec.verify()) {
                    err.printf(
                            "writes stamped for `ssdpulse verify --run %s --target %s`%s%n",
                            id,
                            prepared.path(),
                            offline.offline
                                    ? "; with --offline no log leaves this machine, so nothing can be verified"
                                    : "");
                }
                err.flush();
            }
            if (offline.offline) {
                return run(
                        offline.output(id, device, workloadSpec.name(), out),
                        runner,
                        workloadSpec,
                        replays,
                        facts,
                        prepared,
                        schedulerSwitch);
            }
            RunStarted started = group.apply(
                    labels.apply(RunStartTime.stamp(
                                    RunStarted.newBuilder(), Instant.ofEpochMilli(System.currentTimeMillis()))
                            .setRunId(id)
                            .setRunName(workloadSpec.name() + " on " + device)
                            .setProducerKind(ProducerKind.DEVICE)
                            .setDevice(facts.toDeviceDescription(
                                    prepared.path(), prepared.blockDevice(), prepared.sizeBytes()))
                            .setHost(hostWithIoSettings(facts, engine.asynchronous(), submitBatch, cpus))
                            .setWorkload(WorkloadAvro.toDescription(workloadSpec, prepared.sizeBytes()))
                            .setSeed(workloadSpec.seed())
                            .setToolVersion(HostDescriptions.toolVersion())
                            .setSmartIntervalNs(smartInterval.toNanos())
                            .build()),
                    prepared.path().getFileName().toString());
            int maxWorkers = workloadSpec.schedule().stream()
                    .mapToInt(p -> p.phase().workers())
                    .max()
                    .orElse(1);
            try (StreamedRunOutput output = new StreamedRunOutput(
                    kafka.clientProperties(), started, maxWorkers, overflowPolicy, batchIos, out)) {
                return run(output, runner, workloadSpec, replays, facts, prepared, schedulerSwitch);
            }
        } finally {
            restoreScheduler(schedulerSwitch); // already done after the run; here for a failure before it
        }
    }

    /** The host facts plus the settings that shape this run's I/O path (submit batch, pinning). */
    static HostDescription hostWithIoSettings(HostFacts facts, boolean asynchronous, int submitBatch, CpuList cpus) {
        HostDescription host = facts.toHostDescription();
        host.setSubmitBatch(asynchronous ? submitBatch : null);
        host.setCpusAllowed(cpus == null ? null : cpus.toString());
        return host;
    }

    /** {@code --cpus-allowed}, checked against the CPUs this process may use, or null when not given. */
    CpuList cpusAllowed() {
        if (cpusAllowed == null) {
            return null;
        }
        CpuList cpus;
        try {
            cpus = CpuList.parse(cpusAllowed);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("--cpus-allowed: " + e.getMessage(), e);
        }
        BitSet available;
        try {
            available = ThreadAffinity.allowedCpus();
        } catch (IOException e) {
            throw new UserInputException("--cpus-allowed cannot be used here: " + e.getMessage(), e);
        }
        String missing = cpus.missingFrom(available);
        if (!missing.isEmpty()) {
            throw new UserInputException("--cpus-allowed " + cpus + ": CPU(s) " + missing + " not available to this "
                    + "process (it may run on " + CpuList.format(available) + ")");
        }
        return cpus;
    }

    /**
     * The publisher's policy chosen by {@code --overflow}: drop (the default) never stalls the I/O path; a run with
     * stamped writes blocks by default, since a write missing from its log cannot be checked after a power cut.
     */
    OverflowPolicy overflowPolicy(boolean stampedWrites) {
        if (overflow == null) {
            return stampedWrites ? OverflowPolicy.BLOCK : OverflowPolicy.DROP_AND_COUNT;
        }
        return switch (overflow) {
            case "drop" -> OverflowPolicy.DROP_AND_COUNT;
            case "block" -> OverflowPolicy.BLOCK;
            default -> throw new UserInputException("--overflow must be drop or block, got '" + overflow + "'");
        };
    }

    private void restoreScheduler(IoSchedulerSwitch schedulerSwitch) {
        if (schedulerSwitch != null) {
            String problem = schedulerSwitch.restore();
            if (problem != null) {
                spec.commandLine().getErr().println("warning: " + problem);
                spec.commandLine().getErr().flush();
            }
        }
    }

    private int run(
            RunOutput output,
            DeviceRunner runner,
            WorkloadSpec workloadSpec,
            ReplayTraces replays,
            HostFacts facts,
            PreparedTarget prepared,
            IoSchedulerSwitch schedulerSwitch) {
        PrintWriter err = spec.commandLine().getErr();
        long startNs = System.nanoTime();
        SmartPoller smart = null;
        Path device = SmartDevice.of(prepared.path(), prepared.blockDevice(), facts.blockDevice(), smartDevice);
        if (device != null) {
            smart = new SmartPoller(
                    device,
                    smartInterval,
                    () -> System.nanoTime() - startNs,
                    reading -> output.smart(reading.toAvro(output.runId())));
            if (!quiet) {
                SmartPlan plan = smart.plan();
                err.println(
                        plan.hasTool()
                                ? "SMART: polling " + device + " with " + String.join(" and ", plan.commands())
                                : "note: " + smart.availability().reason());
            }
            smart.start();
        } else if (!quiet) {
            err.println("note: WA unavailable: no drive to poll for SMART: " + SmartDevice.whyNone(prepared.path()));
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        DeviceRunListener listener = new DeviceRunListener() {
            long phaseCpuStartNs;

            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                phaseCpuStartNs = os.getProcessCpuTime();
                output.phaseStarted(phase, timeNs);
                if (!quiet) {
                    err.printf(
                            "  [%8.1f s] phase %d '%s' (%s)%n",
                            timeNs / 1e9,
                            phase.index(),
                            phase.name(),
                            phase.phase().kind());
                    err.flush();
                }
            }

            /**
             * One line per I/O phase with the process's CPU time per I/O over the phase (user + system, all threads:
             * I/O, recording, analysis or publishing, GC, JIT), read from getProcessCpuTime (the kernel's per-process
             * accounting; its resolution is a scheduler tick on some kernels, so short phases read coarsely).
             */
            @Override
            public void onPhaseEnded(ScheduledPhase phase, PhaseOutcome o) {
                long cpuNs = os.getProcessCpuTime() - phaseCpuStartNs;
                if (o.replay() != null) {
                    output.replayFinished(o.replay());
                }
                if (!quiet && o.ios() > 0) {
                    long bytes = o.bytesRead() + o.bytesWritten() + o.bytesTrimmed();
                    long ns = Math.max(1, o.endNs() - o.startNs());
                    err.printf(
                            Locale.ROOT,
                            "  phase %d '%s' ended (%s): %d I/Os, %.0f IOPS, %d errors, process CPU"
                                    + " %.2f us/IO, %.1f MB/s%s%n",
                            phase.index(),
                            phase.name(),
                            o.endReason(),
                            o.ios(),
                            o.iops(),
                            o.errors(),
                            cpuNs / 1e3 / o.ios(),
                            bytes * 1e3 / ns,
                            o.note() == null ? "" : "; " + o.note());
                    err.flush();
                }
            }

            @Override
            public void onProgress(DeviceProgress p) {
                if (!quiet) {
                    err.printf(
                            "  [%8.1f s] %-28s %,14d I/Os  %,10.0f IOPS  %8.1f MB/s  %d errors%n",
                            p.elapsedNs() / 1e9,
                            p.phaseName(),
                            p.totalIos(),
                            p.intervalIops(),
                            p.intervalMBps(),
                            p.errors());
                    err.flush();
                }
            }

            @Override
            public void onNotice(String notice) {
                err.println("note: " + notice);
                err.flush();
            }
        };
        try (ShutdownCancellation ctrlC = ShutdownCancellation.install(runner, Duration.ofSeconds(60))) {
            DeviceRunResult result;
            try {
                result = runner.run(workloadSpec, replays, output, listener);
            } catch (RuntimeException e) {
                output.finish(RunStatus.FAILED, e.getMessage(), System.nanoTime() - startNs);
                throw e;
            } finally {
                if (smart != null) {
                    smart.close();
                    if (!quiet && smart.hasTool()) {
                        String lastError = smart.lastError();
                        err.println("SMART: " + smart.readingsDelivered() + " readings"
                                + (lastError == null ? "" : "; last failed poll: " + lastError));
                        if (!smart.availability().available()) {
                            err.println("note: " + smart.availability().reason());
                        }
                    }
                }
                restoreScheduler(schedulerSwitch); // before the summary, and before a Ctrl-C lets the JVM exit
            }
            RunStatus status = switch (result.status()) {
                case COMPLETED -> RunStatus.COMPLETED;
                case ABORTED -> RunStatus.ABORTED;
                case FAILED -> RunStatus.FAILED;
            };
            return output.finish(status, result.reason(), result.elapsedNs());
        }
    }
}
