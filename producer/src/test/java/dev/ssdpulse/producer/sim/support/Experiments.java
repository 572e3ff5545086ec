package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.io.IoOpCode;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.engine.SimulationRun;
import dev.ssdpulse.producer.sim.host.SimPhase;

import java.util.ArrayList;
import java.util.List;

/** The seeds' experiments, parameterised by drive and scale so tests and benchmark mains share them. */
public final class Experiments {
    private Experiments() {
    }

    /** Result of one write phase: WA over the phase and MB/s per window. */
    public record PhaseResult(double writeAmplification, double[] mbPerSecond, long ios, double meanLatencyUs, long maxLatencyNs,
                              dev.ssdpulse.producer.sim.engine.SimSmartCounters first, dev.ssdpulse.producer.sim.engine.SimSmartCounters last) {
        public double mean(int from, int to) {
            double s = 0;
            for (int i = from; i < to; i++) {
                s += mbPerSecond[i];
            }
            return s / (to - from);
        }
    }

    /**
     * Seed 000 experiment 1: fills [span, user - free) with static data (and the span itself unless the drive
     * is "empty"), then 4 KiB random writes, QD1, over [0, span) for {@code durationNs}.
     *
     * @param freeBytes unwritten user space at the start, or -1 for a secure-erased drive
     */
    public static PhaseResult seed000Random(SimulatedDrive drive, long spanBytes, long freeBytes, long durationNs, long windowNs, long seed) {
        return seed000Random(drive, spanBytes, freeBytes, 1.0, durationNs, windowNs, seed);
    }

    /** As above, the fill's data compressing to {@code fillCompressedFraction} (seed 000's compressed-fill case). */
    public static PhaseResult seed000Random(SimulatedDrive drive, long spanBytes, long freeBytes, double fillCompressedFraction, long durationNs,
                                           long windowNs, long seed) {
        if (freeBytes >= 0) {
            drive.fill(0, drive.capacityBytes() - freeBytes, fillCompressedFraction);
        }
        return runPhase(drive, List.of(RandomGenerator.writes4k(0, spanBytes, seed)), 1, durationNs, windowNs);
    }

    /** Seed 000 experiment 2: sequential rewrite of the span (128 KiB requests, QD1) once, after experiment 1. */
    public static PhaseResult seed000SequentialRewrite(SimulatedDrive drive, long spanBytes, long windowNs) {
        RequestGenerator seq = new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 128 * 1024, 0, spanBytes / (128 * 1024));
        return runPhase(drive, List.of(seq), 1, 0, windowNs);
    }

    public static PhaseResult runPhase(SimulatedDrive drive, List<RequestGenerator> workers, int queueDepth, long durationNs, long windowNs) {
        return runPhase(drive, workers, queueDepth, durationNs, windowNs, 1.0);
    }

    /** @param compressedFraction how far the written data compresses (1.0 incompressible) */
    public static PhaseResult runPhase(SimulatedDrive drive, List<RequestGenerator> workers, int queueDepth, long durationNs, long windowNs,
                                       double compressedFraction) {
        RunRecorder rec = new RunRecorder(windowNs);
        SimulationRun run = drive.newRun(List.of(SimPhase.io(0, workers, queueDepth, durationNs, 0, compressedFraction)), rec, rec, windowNs, null);
        run.runToCompletion();
        SimSmartCounters first = rec.first();
        SimSmartCounters last = rec.last();
        int windows = (int) Math.max(1, (durationNs > 0 ? durationNs : rec.lastCompletionNs) / windowNs);
        double meanLatUs = rec.ios == 0 ? 0 : (rec.readLatencySumNs + rec.writeLatencySumNs) / (double) rec.ios / 1000.0;
        return new PhaseResult(last.writeAmplificationSince(first), rec.mbPerSecond(windows), rec.ios, meanLatUs, rec.maxLatencyNs, first, last);
    }

    /** Seed 000 experiment 3: random phase, optional idle pause, 2 MB sequential, optional pause, 4 KiB sequential. */
    public static List<PhaseResult> seed000IdleGc(SimulatedDrive drive, long spanBytes, long randomNs, long pauseNs, long seqNs,
                                                  long windowNs, long seed) {
        List<PhaseResult> out = new ArrayList<>();
        out.add(runPhase(drive, List.of(RandomGenerator.writes4k(0, spanBytes, seed)), 1, randomNs, windowNs));
        pause(drive, pauseNs, windowNs);
        out.add(runPhase(drive, List.of(new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 2 * 1024 * 1024, 0, Long.MAX_VALUE)), 1, seqNs, windowNs));
        pause(drive, pauseNs, windowNs);
        out.add(runPhase(drive, List.of(new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 4096, 0, Long.MAX_VALUE)), 1, seqNs, windowNs));
        return out;
    }

    private static void pause(SimulatedDrive drive, long pauseNs, long windowNs) {
        if (pauseNs > 0) {
            drive.newRun(List.of(SimPhase.idle(0, pauseNs)), (w, p, op, o, s, t, l, q, st) -> { }, x -> { }, windowNs, null)
                    .runToCompletion();
        }
    }

    /**
     * Scales a preset down by {@code factor} (a power of two >= 4): a quarter of the channels and
     * blocksPerPlane / (factor / 4), capacities and reserves divided by factor, GC thresholds re-derived
     * from the smaller plane count so they hold the same (tiny) share of the flash.
     */
    public static SsdConfig scaled(SsdConfig c, int factor) {
        if (factor == 1) {
            return c;
        }
        var g = c.geometry();
        int channels = Math.max(1, g.channels() / 4);
        int blockFactor = factor * channels / g.channels();
        var geometry = new dev.ssdpulse.producer.sim.nand.NandGeometry(channels, g.diesPerChannel(), g.planesPerDie(),
                g.blocksPerPlane() / blockFactor, g.pagesPerBlock(), g.pageSizeBytes());
        var cap = c.capacity();
        var f = c.ftl();
        int forced = 2 * geometry.planes();
        int bg = forced * f.backgroundGcFreeBlocks() / f.forcedGcFreeBlocks();
        int idle = Math.max(bg, f.idleGcTargetFreeBlocks() / factor);
        // the GC thresholds take a larger share of a small drive: give that share back from the reserve
        double extraShare = (double) bg / geometry.blocks() - (double) f.backgroundGcFreeBlocks() / g.blocks();
        double reserve = Math.max(0, cap.badBlockReserveFraction() - extraShare);
        return c.withGeometry(geometry).withCapacity(new dev.ssdpulse.producer.sim.config.CapacitySpec(
                cap.userCapacityBytes() / factor, cap.parityReserveBytes() / factor, reserve))
                .withFtl(new dev.ssdpulse.producer.sim.config.FtlSpec(f.victimSelector(), f.dChoices(), bg, forced, idle,
                        f.idleGcAfterNs(), f.compressionRatio(), f.wearLevellingEraseSpread()));
    }
}
