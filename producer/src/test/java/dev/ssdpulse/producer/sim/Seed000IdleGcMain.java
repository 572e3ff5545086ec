package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import java.util.List;

/**
 * Benchmark main: seed 000 experiment 3 (idle GC) on the 2012 preset. Partition B = 24 GB at offset 0,
 * partition A fills the rest of the user space (0 GB OP) or all but 8 GB (8 GB OP); both are filled; then
 * 4 KiB random writes on B for 20 min, a pause, 2 MB sequential writes on B for 5 min, the same pause,
 * 4 KiB sequential writes on B for 5 min. Args: [scaleFactor] [preset] [idleGcIntervalNs idleGcTargetFreeBlocks].
 */
public final class Seed000IdleGcMain {
    public static void main(String[] args) {
        int factor = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        SsdConfig preset = new SsdPresets().builtIn(args.length > 1 ? args[1] : "sata-mlc-128gb-2012-marvell");
        if (args.length > 3) {
            var f = preset.ftl();
            preset = preset.withFtl(new FtlSpec(
                    f.victimSelector(),
                    f.dChoices(),
                    f.backgroundGcFreeBlocks(),
                    f.forcedGcFreeBlocks(),
                    Integer.parseInt(args[3]),
                    f.idleGcAfterNs(),
                    f.compressionRatio(),
                    f.wearLevellingEraseSpread(),
                    Long.parseLong(args[2])));
        }
        SsdConfig cfg = Experiments.scaled(preset, factor);
        long gb = 1_000_000_000L / factor;
        long minute = (long) (60e9 * 4 / Math.max(4, factor));
        long window = 10_000_000_000L * 4 / Math.max(4, factor);
        System.out.println(cfg.describe() + "; times scaled by " + (4.0 / Math.max(4, factor)));
        for (long opGb : new long[] {0, 8}) {
            for (long pauseMin : new long[] {0, 1, 5, 30}) {
                SimulatedDrive drive = new SimulatedDrive(cfg, 1);
                drive.fill(0, drive.capacityBytes() - opGb * gb);
                List<Experiments.PhaseResult> r = Experiments.seed000IdleGc(
                        drive, 24 * gb, 20 * minute, pauseMin * minute, 5 * minute, window, 5);
                System.out.printf(
                        "OP %d GB, pause %2d min: random %.1f MB/s (last minute); 2 MB seq first 10 s %.1f, first "
                                + "minute %.1f, mean %.1f MB/s;"
                                + " 4K seq first 10 s %.1f, mean %.1f MB/s; idle GC %d%n",
                        opGb,
                        pauseMin,
                        r.get(0)
                                .mean(
                                        r.get(0).mbPerSecond().length - 6,
                                        r.get(0).mbPerSecond().length),
                        r.get(1).mbPerSecond()[0],
                        r.get(1).mean(0, 6),
                        r.get(1).mean(0, r.get(1).mbPerSecond().length),
                        r.get(2).mbPerSecond()[0],
                        r.get(2).mean(0, r.get(2).mbPerSecond().length),
                        r.get(2).last().idleGcInvocations());
            }
        }
    }
}
