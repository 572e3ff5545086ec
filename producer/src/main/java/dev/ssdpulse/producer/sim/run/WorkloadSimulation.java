package dev.ssdpulse.producer.sim.run;

import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.pacing.RunTimePacer;
import dev.ssdpulse.producer.pacing.WallClock;
import dev.ssdpulse.producer.replay.ReplayGenerator;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.engine.PhaseListener;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.engine.SimulationRun;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.workload.DataPattern;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadGenerators;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WorkloadValidator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;

/**
 * A workload run on a simulated drive: the composition of the workload model (phases, request
 * generators) and the simulator (drive, discrete-event host).
 *
 * <p>Drive preparation at the start of a workload is applied to the drive directly, without I/O events:
 * PURGE is a no-op on the freshly created (secure-erased) drive, and a leading FILL writes static data
 * over its span with {@link SimulatedDrive#fill}, the state a sequential fill leaves once the drive has
 * finished it. Both are still reported as phases. A FILL later in the workload runs as real sequential
 * writes (one pass over its span); a PURGE later in the workload cannot be simulated on a used drive and
 * is refused. Every other phase becomes simulated I/O, or idle time for IDLE phases; a REPLAY phase issues its
 * trace's I/Os through the same host model (its queue depth caps them, recorded times are kept in virtual time),
 * so its load time compares with a real drive's. A POWER_CUT phase (the last) runs its I/O until the drive's power is
 * cut and ends the run there ({@link SimulationRun#powerCut()}); it needs a drive built to record unit versions
 * ({@link #recordsVersions}) and a workload with stamped writes ({@code verify: true}).
 *
 * <p>The workload's {@code targetSize} is the test region, from LBA 0 (seed 001's 160 GB test file on a
 * 240 GB drive): spans are resolved against it, not against the drive's capacity, so a test over "100 %"
 * stays inside the file. A target larger than the drive is refused. When the target is smaller than the
 * drive and no leading PURGE/FILL defines the start state, the target is laid down first as a sequential
 * untimed write of the whole region, as IOMeter and fio do when they create their test file; the rest of
 * the drive stays empty (unwritten flash is spare the FTL can use, as on a freshly formatted volume).
 */
public final class WorkloadSimulation {
    /**
     * Wall time between two advances of a paced run: events reach Kafka at most this late, and 100 wake-ups a second
     * cost nothing.
     */
    public static final long PACED_STEP_NS = 10_000_000L;

    /** The simulated drive maps 4 KiB units and takes any request: no alignment to check. */
    public static final int SIMULATED_ALIGNMENT_BYTES = 1;

    private final SimulatedDrive drive;
    private final SimulationRun run;
    private final Map<Integer, ScheduledPhase> phasesByIndex;

    private WorkloadSimulation(SimulatedDrive drive, SimulationRun run, Map<Integer, ScheduledPhase> phasesByIndex) {
        this.drive = drive;
        this.run = run;
        this.phasesByIndex = phasesByIndex;
    }

    /**
     * Prepares the drive (leading PURGE/FILL phases) and the simulated run of the remaining phases.
     *
     * @param smartIntervalNs virtual time between SMART samples
     * @throws IllegalArgumentException when the workload does not fit the drive or uses a phase the simulator
     *                                  cannot run
     */
    public static WorkloadSimulation prepare(
            SimulatedDrive drive, WorkloadSpec workload, long smartIntervalNs, SimulationObserver observer) {
        return prepare(drive, workload, ReplayTraces.scan(workload), smartIntervalNs, observer);
    }

    /** As {@link #prepare(SimulatedDrive, WorkloadSpec, long, SimulationObserver)}, its traces already scanned. */
    public static WorkloadSimulation prepare(
            SimulatedDrive drive,
            WorkloadSpec workload,
            ReplayTraces replays,
            long smartIntervalNs,
            SimulationObserver observer) {
        if (recordsVersions(workload)) {
            if (!workload.verify()) {
                throw new IllegalArgumentException("workload '" + workload.name() + "': a POWER_CUT phase checks the"
                        + " run's writes against the drive's content after the cut; set verify: true");
            }
            if (!drive.recordsVersions()) {
                throw new IllegalArgumentException("workload '" + workload.name() + "' cuts the power: build the"
                        + " drive to record unit versions (SimulatedDrive(config, seed, heap, true))");
            }
        }
        long capacityBytes = targetSizeBytes(workload, drive.capacityBytes());
        WorkloadValidator.validateForTarget(workload, capacityBytes, workload.name());
        replays.checkTarget(workload, capacityBytes, SIMULATED_ALIGNMENT_BYTES, "the simulated drive");
        Map<Integer, ReplayGenerator> replayGenerators = new HashMap<>();
        List<ScheduledPhase> schedule = workload.schedule();
        if (capacityBytes < drive.capacityBytes() && !startsWithPreparation(schedule)) {
            drive.fill(0, capacityBytes);
        }
        Map<Integer, ScheduledPhase> byIndex = new HashMap<>();
        List<SimPhase> simPhases = new ArrayList<>();
        boolean preparing = true;
        for (ScheduledPhase scheduled : schedule) {
            byIndex.put(scheduled.index(), scheduled);
            PhaseSpec phase = scheduled.phase();
            if (preparing && (phase.kind() == PhaseKind.PURGE || phase.kind() == PhaseKind.FILL)) {
                observer.onPhaseStarted(scheduled, 0L);
                if (phase.kind() == PhaseKind.FILL) {
                    long offset = phase.span().offsetBytes(capacityBytes);
                    long size = phase.span().sizeBytes(capacityBytes);
                    if (size > 0) {
                        drive.fill(offset, size, compressedFraction(phase.dataPattern()));
                    }
                }
                continue;
            }
            preparing = false;
            if (phase.kind() == PhaseKind.REPLAY) {
                ReplayGenerator g = replays.generator(scheduled, capacityBytes);
                replayGenerators.put(scheduled.index(), g);
                simPhases.add(SimPhase.io(
                        scheduled.index(),
                        List.of(g),
                        phase.queueDepth(),
                        phase.durationNs().orElse(0L),
                        0,
                        compressedFraction(phase.dataPattern())));
                continue;
            }
            simPhases.add(toSimPhase(scheduled, capacityBytes));
        }
        if (simPhases.isEmpty()) {
            throw new IllegalArgumentException("workload '" + workload.name()
                    + "' has only drive-preparation phases (PURGE/FILL): nothing to simulate");
        }
        PhaseListener phaseListener = new PhaseListener() {
            @Override
            public void onPhaseStarted(int phaseIndex, long timeNs) {
                observer.onPhaseStarted(byIndex.get(phaseIndex), timeNs);
            }

            @Override
            public void onPhaseEnded(int phaseIndex, long timeNs) {
                ReplayGenerator g = replayGenerators.remove(phaseIndex);
                if (g != null) {
                    g.close();
                    observer.onReplayFinished(g.result());
                }
            }
        };
        SimulationRun run = drive.newRun(simPhases, observer, observer::onSmartSample, smartIntervalNs, phaseListener);
        return new WorkloadSimulation(drive, run, byIndex);
    }

    /** Whether the workload cuts the power (a POWER_CUT phase): its drive must record unit versions. */
    public static boolean recordsVersions(WorkloadSpec workload) {
        return workload.schedule().stream().anyMatch(p -> p.phase().kind() == PhaseKind.POWER_CUT);
    }

    /**
     * The size the workload's spans are relative to on a drive of {@code driveCapacityBytes}: its
     * {@code targetSize} if set, else the whole drive.
     *
     * @throws IllegalArgumentException when the targetSize exceeds the drive (both sizes named)
     */
    public static long targetSizeBytes(WorkloadSpec workload, long driveCapacityBytes) {
        return targetSizeBytes(workload, driveCapacityBytes, "the drive");
    }

    private static long targetSizeBytes(WorkloadSpec workload, long driveCapacityBytes, String drive) {
        if (workload.targetSizeBytes().isEmpty()) {
            return driveCapacityBytes;
        }
        long target = workload.targetSizeBytes().getAsLong();
        if (target > driveCapacityBytes) {
            throw new IllegalArgumentException("workload '" + workload.name() + "' has a targetSize of "
                    + Units.describeBytes(target) + ", larger than " + drive + " ("
                    + Units.describeBytes(driveCapacityBytes) + " user capacity): set a smaller one (--set"
                    + " targetSize=SIZE where the workload has that variable) or choose a larger drive (--ssd)");
        }
        if (target == driveCapacityBytes) {
            return driveCapacityBytes;
        }
        // whole 4 KiB units: the simulator maps 4 KiB units
        return target / NandGeometry.MAPPING_UNIT_BYTES * NandGeometry.MAPPING_UNIT_BYTES;
    }

    /**
     * Checks that {@code workload} can run on a drive described by {@code config} (its target fits, every span lies
     * inside the target, every trace fits its span), without building the drive.
     *
     * @return the workload's REPLAY traces, scanned once (empty where it has no REPLAY phase)
     */
    public static ReplayTraces checkFits(WorkloadSpec workload, SsdConfig config) {
        long capacity = config.userUnits() * NandGeometry.MAPPING_UNIT_BYTES;
        WorkloadValidator.validateForTarget(
                workload,
                targetSizeBytes(workload, capacity, "drive " + config.name()),
                workload.name() + " on " + config.name());
        ReplayTraces replays = ReplayTraces.scan(workload);
        replays.checkTarget(
                workload,
                targetSizeBytes(workload, capacity),
                SIMULATED_ALIGNMENT_BYTES,
                "the simulated drive " + config.name());
        return replays;
    }

    /**
     * How far a data pattern compresses, as compressed / original size: 1.0 for incompressible data, 1/r
     * for data compressible r:1, 0 for zeros (the drive clamps it to the best its controller achieves).
     */
    public static double compressedFraction(DataPattern pattern) {
        return switch (pattern.kind()) {
            case INCOMPRESSIBLE -> 1.0;
            case COMPRESSIBLE -> pattern.compressionRatio() >= 1 ? 1.0 / pattern.compressionRatio() : 1.0;
            case ZEROS -> 0.0;
        };
    }

    private static boolean startsWithPreparation(List<ScheduledPhase> schedule) {
        PhaseKind first = schedule.isEmpty() ? null : schedule.get(0).phase().kind();
        return first == PhaseKind.PURGE || first == PhaseKind.FILL;
    }

    private static SimPhase toSimPhase(ScheduledPhase scheduled, long capacityBytes) {
        PhaseSpec phase = scheduled.phase();
        switch (phase.kind()) {
            case IDLE -> {
                long durationNs = phase.durationNs().orElse(0L);
                // A zero-length pause (seed 000 exp. 3 with pauseMin=0) is a phase of no time.
                return SimPhase.idle(scheduled.index(), Math.max(1L, durationNs));
            }
            case POWER_CUT -> {
                long durationNs = phase.durationNs().orElse(0L);
                if (phase.accessSpecs().isEmpty()) {
                    return SimPhase.idlePowerCut(scheduled.index(), Math.max(1L, durationNs));
                }
                List<RequestGenerator> workers = new ArrayList<>(phase.workers());
                for (int w = 0; w < phase.workers(); w++) {
                    workers.add(WorkloadGenerators.forPhase(phase, w, scheduled.seed(), capacityBytes));
                }
                return SimPhase.powerCut(
                        scheduled.index(),
                        workers,
                        phase.queueDepth(),
                        durationNs,
                        phase.totalBytes(capacityBytes).orElse(0L),
                        compressedFraction(phase.dataPattern()));
            }
            case PURGE ->
                throw new IllegalArgumentException("phase '" + scheduled.name()
                        + "': a PURGE after I/O phases cannot be simulated (the simulated drive is secure-erased only "
                        + "when it is created); start a new run instead");
            default -> {
                List<RequestGenerator> workers = new ArrayList<>(phase.workers());
                for (int w = 0; w < phase.workers(); w++) {
                    workers.add(WorkloadGenerators.forPhase(phase, w, scheduled.seed(), capacityBytes));
                }
                long durationNs = phase.durationNs().orElse(0L);
                OptionalLong budget = phase.totalBytes(capacityBytes);
                long byteBudget = budget.orElse(0L);
                if (phase.kind() == PhaseKind.FILL && durationNs == 0 && byteBudget == 0) {
                    byteBudget = phase.span().sizeBytes(capacityBytes);
                }
                return SimPhase.io(
                        scheduled.index(),
                        workers,
                        phase.queueDepth(),
                        durationNs,
                        byteBudget,
                        compressedFraction(phase.dataPattern()));
            }
        }
    }

    public SimulationRun run() {
        return run;
    }

    public ScheduledPhase phase(int phaseIndex) {
        return phasesByIndex.get(phaseIndex);
    }

    /** As fast as possible; {@code cancelled} is checked every few virtual milliseconds. */
    public void runToCompletion(BooleanSupplier cancelled) {
        long stepNs = 10_000_000L;
        long t = 0;
        while (!run.isFinished() && !cancelled.getAsBoolean()) {
            t += stepNs;
            run.runUntil(t);
        }
    }

    /**
     * Paced to wall-clock time: {@code speed} virtual seconds per wall second (1 = real time). Events are
     * delivered at most one step ({@value #PACED_STEP_NS} ns) of wall time after their virtual time comes due.
     */
    public void runPaced(double speed, BooleanSupplier cancelled) throws InterruptedException {
        runPaced(speed, cancelled, WallClock.system());
    }

    /** As {@link #runPaced(double, BooleanSupplier)} on the given clock (tests pace on a manual one). */
    public void runPaced(double speed, BooleanSupplier cancelled, WallClock clock) throws InterruptedException {
        runPaced(new RunTimePacer(clock, speed, PACED_STEP_NS), cancelled);
    }

    /**
     * Paced by {@code pacer} (e.g. one started at the run's recorded start, {@link RunTimePacer}'s start-time
     * constructor, with a slice of {@link #PACED_STEP_NS}, whose {@link RunTimePacer#startPhase} the caller called
     * with {@code run().nowNs()} so the run does not start in a catch-up burst).
     */
    public void runPaced(RunTimePacer pacer, BooleanSupplier cancelled) throws InterruptedException {
        while (!run.isFinished() && !cancelled.getAsBoolean()) {
            run.runUntil(pacer.runTimeNowNs());
            pacer.sleepSlice();
        }
    }
}
