package dev.ssdpulse.cli.simulate;

import dev.ssdpulse.cli.options.GroupOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.options.OfflineOptions;
import dev.ssdpulse.cli.options.RunLabelOptions;
import dev.ssdpulse.cli.options.WorkloadOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.producer.device.ShutdownCancellation;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.sim.config.Capacity;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingPlan;
import dev.ssdpulse.producer.sim.run.WorkloadSimulation;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse simulate}: a workload on a simulated SSD, streamed to Kafka as a run (the same events a
 * device run produces), or analysed in-process with {@code --offline}.
 */
@Command(name = "simulate", description = "Run a workload on a simulated SSD; stream the run to Kafka, or --offline.")
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--ssd",
            paramLabel = "PRESET|FILE",
            defaultValue = "sata-mlc-120gb-2012",
            description =
                    "Simulated drive: a preset (${COMPLETION-CANDIDATES}) or a JSON file (default: ${DEFAULT-VALUE}).",
            completionCandidates = SsdPresetNames.class)
    String ssd;

    @Option(
            names = "--parity-reserve",
            paramLabel = "SIZE",
            description = "Override the drive's parity/OP reserve (e.g. 8GB, 0).")
    String parityReserve;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    OfflineOptions offline;

    @Mixin
    RunLabelOptions labels;

    @Mixin
    GroupOptions group;

    @Option(names = "--realtime", description = "Pace the simulation to wall-clock time (see --speed).")
    boolean realtime;

    @Option(
            names = "--speed",
            defaultValue = "1",
            paramLabel = "X",
            description = "With --realtime: simulated seconds per wall second (default: ${DEFAULT-VALUE}).")
    double speed;

    @Option(
            names = "--smart-interval",
            defaultValue = "1s",
            paramLabel = "DURATION",
            description = "Simulated time between SMART samples (default: ${DEFAULT-VALUE}).")
    Duration smartInterval;

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description = "Run id (default: generated, sim-<date>-<time>-<hex>).")
    String runId;

    @Option(
            names = "--batch-ios",
            defaultValue = "512",
            paramLabel = "N",
            description = "I/Os per Kafka record (default: ${DEFAULT-VALUE}).")
    int batchIos;

    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    @Mixin
    KafkaOptions kafka;

    private final AtomicBoolean cancelled = new AtomicBoolean();

    @Override
    public Integer call() throws Exception {
        offline.validate();
        group.validate(offline.offline);
        SsdConfig config = new SsdPresets().resolve(ssd);
        if (parityReserve != null) {
            config = config.withParityReserveBytes(Units.parseBytes(parityReserve))
                    .validate();
        }
        WorkloadSpec workloadSpec = workload.load();
        // the workload's spans and REPLAY traces are checked against the drive before its memory is taken
        ReplayTraces replays = WorkloadSimulation.checkFits(workloadSpec, config);
        String id = runId == null ? RunIds.newRunId("sim") : RunIds.validate(runId);
        // a run that cuts the power records what each unit holds (40 bytes per unit it writes)
        SimulatedDrive drive = new SimulatedDrive(
                config,
                workloadSpec.seed(),
                MappingPlan.longLivedHeapBytes(),
                WorkloadSimulation.recordsVersions(workloadSpec));
        String device = config.name() + ", " + Capacity.format(drive.capacityBytes()) + " user, "
                + Capacity.format(config.rawFlashBytes()) + " raw flash";
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!quiet) {
            err.printf("simulating %s on %s (run %s)%n", workloadSpec.name(), device, id);
            err.flush();
        }
        if (offline.offline) {
            return run(offline.output(id, device, workloadSpec.name(), out), drive, workloadSpec, replays);
        }
        RunStarted started = group.apply(
                labels.apply(SimulatedRunDriver.runStarted(id, config, drive, workloadSpec, smartInterval.toNanos())),
                config.name());
        int maxWorkers = SimulatedRunDriver.maxWorkers(workloadSpec);
        // The simulator's clock is virtual: waiting for Kafka changes no measured time, so nothing is dropped.
        try (StreamedRunOutput output = new StreamedRunOutput(
                kafka.clientProperties(), started, maxWorkers, OverflowPolicy.BLOCK, batchIos, out)) {
            return run(output, drive, workloadSpec, replays, RunStartTime.of(started));
        }
    }

    private int run(RunOutput output, SimulatedDrive drive, WorkloadSpec workloadSpec, ReplayTraces replays) {
        return run(output, drive, workloadSpec, replays, null);
    }

    private int run(
            RunOutput output, SimulatedDrive drive, WorkloadSpec workloadSpec, ReplayTraces replays, Instant runStart) {
        SimulatedRunDriver driver = new SimulatedRunDriver(
                drive,
                workloadSpec,
                replays,
                smartInterval.toNanos(),
                realtime ? speed : 0,
                quiet ? null : spec.commandLine().getErr(),
                cancelled::get);
        try (ShutdownCancellation ctrlC =
                ShutdownCancellation.install(() -> cancelled.set(true), Duration.ofSeconds(60))) {
            return driver.run(output, runStart);
        }
    }

    /** Completion candidates for --ssd. */
    static final class SsdPresetNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return SsdPresets.BUILT_IN.iterator();
        }
    }
}
