package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.sim.config.CacheSpec;
import dev.ssdpulse.producer.sim.config.CapacitySpec;
import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.engine.SimulationRun;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.ArrayList;
import java.util.List;

/** The seeds' experiments, parameterised by drive and scale so tests and benchmark mains share them. */
public final class Experiments {
    private Experiments() {}

    /** Seed 000's measured WA: exp. 1 empty, 0, 4, 8, 16 GB free; exp. 2 rewrite after empty, 0, 8 GB free. */
    public static final double[] SEED000_WA = {1.39, 4.54, 2.54, 1.96, 1.53, 1.09, 1.78, 1.24};

    /** Result of one write phase: WA over the phase and MB/s per window. */
    public record PhaseResult(
            double writeAmplification,
            double[] mbPerSecond,
            long ios,
            double meanLatencyUs,
            long maxLatencyNs,
            SimSmartCounters first,
            SimSmartCounters last) {
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
    public static PhaseResult seed000Random(
            SimulatedDrive drive, long spanBytes, long freeBytes, long durationNs, long windowNs, long seed) {
        return seed000Random(drive, spanBytes, freeBytes, 1.0, durationNs, windowNs, seed);
    }

    /** As above, the fill's data compressing to {@code fillCompressedFraction} (seed 000's compressed-fill case). */
    public static PhaseResult seed000Random(
            SimulatedDrive drive,
            long spanBytes,
            long freeBytes,
            double fillCompressedFraction,
            long durationNs,
            long windowNs,
            long seed) {
        if (freeBytes >= 0) {
            drive.fill(0, drive.capacityBytes() - freeBytes, fillCompressedFraction);
        }
        return runPhase(drive, List.of(RandomGenerator.writes4k(0, spanBytes, seed)), 1, durationNs, windowNs);
    }

    /** Per cent of the NAND bytes written between {@code a} and {@code b} that are metadata (or parity). */
    public static double share(SimSmartCounters a, SimSmartCounters b, boolean metadata) {
        long part = metadata
                ? b.nandBytesWrittenMetadata() - a.nandBytesWrittenMetadata()
                : b.nandBytesWrittenParity() - a.nandBytesWrittenParity();
        return 100.0 * part / (b.nandBytesWritten() - a.nandBytesWritten());
    }

    /** Seed 000 experiment 2: sequential rewrite of the span (128 KiB requests, QD1) once, after experiment 1. */
    public static PhaseResult seed000SequentialRewrite(SimulatedDrive drive, long spanBytes, long windowNs) {
        RequestGenerator seq =
                new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 128 * 1024, 0, spanBytes / (128 * 1024));
        return runPhase(drive, List.of(seq), 1, 0, windowNs);
    }

    public static PhaseResult runPhase(
            SimulatedDrive drive, List<RequestGenerator> workers, int queueDepth, long durationNs, long windowNs) {
        return runPhase(drive, workers, queueDepth, durationNs, windowNs, 1.0);
    }

    /** @param compressedFraction how far the written data compresses (1.0 incompressible) */
    public static PhaseResult runPhase(
            SimulatedDrive drive,
            List<RequestGenerator> workers,
            int queueDepth,
            long durationNs,
            long windowNs,
            double compressedFraction) {
        RunRecorder rec = new RunRecorder(windowNs);
        SimulationRun run = drive.newRun(
                List.of(SimPhase.io(0, workers, queueDepth, durationNs, 0, compressedFraction)),
                rec,
                rec,
                windowNs,
                null);
        run.runToCompletion();
        SimSmartCounters first = rec.first();
        SimSmartCounters last = rec.last();
        int windows = (int) Math.max(1, (durationNs > 0 ? durationNs : rec.lastCompletionNs) / windowNs);
        double meanLatUs =
                rec.ios == 0 ? 0 : (rec.readLatencySumNs + rec.writeLatencySumNs) / (double) rec.ios / 1000.0;
        return new PhaseResult(
                last.writeAmplificationSince(first),
                rec.mbPerSecond(windows),
                rec.ios,
                meanLatUs,
                rec.maxLatencyNs,
                first,
                last);
    }

    /** Seed 000 experiment 3: random phase, optional idle pause, 2 MB sequential, optional pause, 4 KiB sequential. */
    public static List<PhaseResult> seed000IdleGc(
            SimulatedDrive drive, long spanBytes, long randomNs, long pauseNs, long seqNs, long windowNs, long seed) {
        List<PhaseResult> out = new ArrayList<>();
        out.add(runPhase(drive, List.of(RandomGenerator.writes4k(0, spanBytes, seed)), 1, randomNs, windowNs));
        pause(drive, pauseNs, windowNs);
        out.add(runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 2 * 1024 * 1024, 0, Long.MAX_VALUE)),
                1,
                seqNs,
                windowNs));
        pause(drive, pauseNs, windowNs);
        out.add(runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 0, spanBytes, 4096, 0, Long.MAX_VALUE)),
                1,
                seqNs,
                windowNs));
        return out;
    }

    /** An idle phase of {@code pauseNs} (nothing if 0): the drive's idle GC may run. */
    public static void pause(SimulatedDrive drive, long pauseNs, long windowNs) {
        if (pauseNs > 0) {
            drive.newRun(
                            List.of(SimPhase.idle(0, pauseNs)),
                            (w, p, op, o, s, t, l, q, st) -> {},
                            x -> {},
                            windowNs,
                            null)
                    .runToCompletion();
        }
    }

    /**
     * A small drive whose planes behave like the preset's: {@code channels} channels (dies per channel and planes
     * per die kept), {@code blocksPerPlane} blocks of at most {@code maxPagesPerBlock} pages per plane. What a plane
     * sees is kept: its share of the GC start and urgent watermarks (free blocks per plane) and of the write buffer,
     * NAND timing, and the victims' granularity as long as the preset's blocks are no larger than the cap. Capacities,
     * reserves and the map cache shrink with the flash, the stretch between the start and stop watermarks keeps its
     * share of the flash, and what the watermarks take beyond their share is given back from the bad-block reserve.
     * Time: the host writes (planes / preset planes) as fast, and GC's on/off cycle is shorter by
     * {@link #cycleScale}.
     */
    public static SsdConfig planeScaled(SsdConfig c, int channels, int blocksPerPlane, int maxPagesPerBlock) {
        var g = c.geometry();
        var geometry = new NandGeometry(
                Math.min(channels, g.channels()),
                g.diesPerChannel(),
                g.planesPerDie(),
                blocksPerPlane,
                Math.min(maxPagesPerBlock, g.pagesPerBlock()),
                g.pageSizeBytes());
        double flash = (double) geometry.rawBytes() / g.rawBytes();
        double planes = (double) geometry.planes() / g.planes();
        var f = c.ftl();
        int urgent = (int) Math.round(f.forcedGcFreeBlocks() * planes);
        int start = (int) Math.round(f.backgroundGcFreeBlocks() * planes);
        int stop = start
                + (int) Math.round((f.backgroundGcStopFreeBlocks() - f.backgroundGcFreeBlocks())
                        * (double) geometry.blocks()
                        / g.blocks());
        var cap = c.capacity();
        double extraShare = (double) stop / geometry.blocks() - (double) f.backgroundGcStopFreeBlocks() / g.blocks();
        double reserve = Math.max(0, cap.badBlockReserveFraction() - extraShare);
        var m = c.metadata();
        var metadata = new MetadataSpec(
                m.parityStripeDataPages(),
                m.mapSegmentBytes(),
                m.mapSegmentBytes() == 0 ? 0 : Math.max(m.mapSegmentBytes(), (long) (m.mapCacheBytes() * flash)));
        return new SsdConfig(
                c.name(),
                c.description(),
                geometry,
                new CapacitySpec(
                        (long) (cap.userCapacityBytes() * flash) / 4096 * 4096,
                        (long) (cap.parityReserveBytes() * flash),
                        reserve),
                c.timing(),
                c.host(),
                new FtlSpec(
                        f.victimSelector(),
                        f.dChoices(),
                        start,
                        urgent,
                        Math.max(start, (int) (f.idleGcTargetFreeBlocks() * (double) geometry.blocks() / g.blocks())),
                        f.idleGcAfterNs(),
                        f.compressionRatio(),
                        f.wearLevellingEraseSpread(),
                        f.idleGcIntervalNs(),
                        stop,
                        f.idleGcUrgentIntervalNs(),
                        f.idleGcMaxCopyRatio()),
                new CacheSpec((long) (c.cache().writeBufferBytes() * planes)),
                metadata,
                c.power());
    }

    /**
     * How much shorter GC's on/off cycle is on {@code small} than on {@code preset}: the stretch between the
     * start and stop watermarks holds (small flash / preset flash) the bytes and the host fills it
     * (small planes / preset planes) as fast.
     */
    public static double cycleScale(SsdConfig preset, SsdConfig small) {
        double flash = (double) small.geometry().rawBytes() / preset.geometry().rawBytes();
        double planes = (double) small.geometry().planes() / preset.geometry().planes();
        return flash / planes;
    }

    /**
     * Shrinks a preset by {@code blockDivisor} x {@code pageDivisor}, keeping its channels, dies and planes (so
     * its parallelism, and the latency layers that come from it): blocks per plane / blockDivisor, pages per
     * block / pageDivisor, capacities, reserves and the map cache / (their product). The start and urgent GC
     * thresholds (free blocks) keep their count per plane, which is a larger share of the smaller planes, and the
     * stretch between start and stop keeps its share of the flash; what the thresholds take beyond their share
     * is given back from the bad-block reserve, as in {@link #scaled}, and the idle target is divided too. Meant for
     * runs whose times are divided by the factor: idle GC starts after its delay / factor and cleans a victim per
     * plane every interval / pageDivisor (a plane has 1/blockDivisor the blocks), so it gets as far in a pause as at
     * full size.
     */
    public static SsdConfig shrunk(SsdConfig c, int blockDivisor, int pageDivisor) {
        int factor = blockDivisor * pageDivisor;
        if (factor == 1) {
            return c;
        }
        var g = c.geometry();
        var geometry = new NandGeometry(
                g.channels(),
                g.diesPerChannel(),
                g.planesPerDie(),
                g.blocksPerPlane() / blockDivisor,
                g.pagesPerBlock() / pageDivisor,
                g.pageSizeBytes());
        var cap = c.capacity();
        var f = c.ftl();
        // the GC-off stretch (stop - start) keeps its share of the flash
        int stop = f.backgroundGcFreeBlocks() + (f.backgroundGcStopFreeBlocks() - f.backgroundGcFreeBlocks()) / factor;
        double extraShare = (double) stop / geometry.blocks() - (double) f.backgroundGcStopFreeBlocks() / g.blocks();
        double reserve = Math.max(0, cap.badBlockReserveFraction() - extraShare);
        var m = c.metadata();
        var metadata = new MetadataSpec(
                m.parityStripeDataPages(),
                m.mapSegmentBytes(),
                m.mapSegmentBytes() == 0 ? 0 : Math.max(m.mapSegmentBytes(), m.mapCacheBytes() / factor));
        return c.withMetadata(metadata)
                .withGeometry(geometry)
                .withCapacity(
                        new CapacitySpec(cap.userCapacityBytes() / factor, cap.parityReserveBytes() / factor, reserve))
                .withFtl(new FtlSpec(
                        f.victimSelector(),
                        f.dChoices(),
                        f.backgroundGcFreeBlocks(),
                        f.forcedGcFreeBlocks(),
                        Math.max(f.backgroundGcFreeBlocks(), f.idleGcTargetFreeBlocks() / factor),
                        // times are divided by the factor; idle GC cleans a victim per plane per interval, and a
                        // plane has 1/blockDivisor the victims to clean, so the interval is divided by pageDivisor
                        f.idleGcAfterNs() / factor,
                        f.compressionRatio(),
                        f.wearLevellingEraseSpread(),
                        f.idleGcIntervalNs() / pageDivisor,
                        stop,
                        f.idleGcUrgentIntervalNs() < 0 ? -1 : f.idleGcUrgentIntervalNs() / pageDivisor,
                        f.idleGcMaxCopyRatio()));
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
        var geometry = new NandGeometry(
                channels,
                g.diesPerChannel(),
                g.planesPerDie(),
                g.blocksPerPlane() / blockFactor,
                g.pagesPerBlock(),
                g.pageSizeBytes());
        var cap = c.capacity();
        var f = c.ftl();
        int forced = 2 * geometry.planes();
        int bg = forced * f.backgroundGcFreeBlocks() / f.forcedGcFreeBlocks();
        // the GC-off stretch (stop - start) keeps its share of the flash
        int stop = bg
                + (int) ((long) (f.backgroundGcStopFreeBlocks() - f.backgroundGcFreeBlocks())
                        * geometry.blocks()
                        / g.blocks());
        int idle = Math.max(bg, f.idleGcTargetFreeBlocks() / factor);
        // the GC thresholds take a larger share of a small drive: give that share back from the reserve
        double extraShare = (double) stop / geometry.blocks() - (double) f.backgroundGcStopFreeBlocks() / g.blocks();
        double reserve = Math.max(0, cap.badBlockReserveFraction() - extraShare);
        // the map cache covers the same share of the (smaller) logical space
        var m = c.metadata();
        var metadata = new MetadataSpec(
                m.parityStripeDataPages(),
                m.mapSegmentBytes(),
                m.mapSegmentBytes() == 0 ? 0 : Math.max(m.mapSegmentBytes(), m.mapCacheBytes() / factor));
        return c.withMetadata(metadata)
                .withGeometry(geometry)
                .withCapacity(
                        new CapacitySpec(cap.userCapacityBytes() / factor, cap.parityReserveBytes() / factor, reserve))
                .withFtl(new FtlSpec(
                        f.victimSelector(),
                        f.dChoices(),
                        bg,
                        forced,
                        idle,
                        f.idleGcAfterNs(),
                        f.compressionRatio(),
                        f.wearLevellingEraseSpread(),
                        // a quarter of the planes over 1/factor of the blocks in 4/factor of the time: the same
                        // interval frees the
                        // same share of the drive per phase
                        f.idleGcIntervalNs(),
                        stop,
                        f.idleGcUrgentIntervalNs(),
                        f.idleGcMaxCopyRatio()));
    }
}
