package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.CapacitySpec;
import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.config.VictimPolicy;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import java.util.Locale;

/**
 * The fit behind the 2012 preset's metadata numbers: runs seed 000's eight WA cases (exp. 1 empty, 0, 4, 8,
 * 16 GB free; exp. 2 rewrite after empty, 0, 8 GB free) at a scale for each candidate
 * (mapSegmentBytes, badBlockReserveFraction, parityStripeDataPages[, dChoices]) given as args
 * "seg:reserve:parity ..." or "preset" (the preset as shipped), and prints each figure, its ratio to the
 * seed, the worst ratio, the rms of the log ratios, and the compressed-fill case (exp. 1, ~0 GB free, the
 * fill compressing 1.0625:1). Args: factor minutes candidates...
 */
public final class Seed000FitMain {
    static final double[] SEED = Experiments.SEED000_WA;

    public static void main(String[] args) {
        int factor = Integer.parseInt(args[0]);
        double minutes = Double.parseDouble(args[1]);
        SsdConfig base = new SsdPresets().builtIn("sata-mlc-120gb-2012");
        for (int a = 2; a < args.length; a++) {
            String[] p = args[a].equals("preset") ? null : args[a].split(":");
            SsdConfig c = p == null
                    ? base
                    : base.withMetadata(new MetadataSpec(
                                    Integer.parseInt(p[2]),
                                    Integer.parseInt(p[0]),
                                    base.metadata().mapCacheBytes()))
                            .withCapacity(new CapacitySpec(
                                    base.capacity().userCapacityBytes(),
                                    base.capacity().parityReserveBytes(),
                                    Double.parseDouble(p[1])));
            if (p != null && p.length > 3 && Integer.parseInt(p[3]) > 0) {
                var f = c.ftl();
                c = c.withFtl(new FtlSpec(
                        VictimPolicy.D_CHOICES,
                        Integer.parseInt(p[3]),
                        f.backgroundGcFreeBlocks(),
                        f.forcedGcFreeBlocks(),
                        f.idleGcTargetFreeBlocks(),
                        f.idleGcAfterNs(),
                        f.compressionRatio(),
                        f.wearLevellingEraseSpread(),
                        f.idleGcIntervalNs()));
            }
            double[] wa = Experiments.seed000EightFigures(Experiments.scaled(c, factor), factor, minutes, null);
            double worst = 0;
            double sumSq = 0;
            StringBuilder sb = new StringBuilder(args[a]).append(" |");
            for (int i = 0; i < wa.length; i++) {
                double r = wa[i] / SEED[i];
                worst = Math.max(worst, Math.abs(r - 1));
                sumSq += Math.log(r) * Math.log(r);
                sb.append(String.format(Locale.ROOT, " %.2f (%.2f)", wa[i], r));
            }
            long gb = 1_000_000_000L / factor;
            double compressed = Experiments.seed000Random(
                            new SimulatedDrive(Experiments.scaled(c, factor), 1),
                            24 * gb,
                            0,
                            1 / 1.0625,
                            (long) (minutes * 60e9 * 4 / Math.max(4, factor)),
                            10_000_000_000L / factor,
                            42)
                    .writeAmplification();
            System.out.println(sb.append(String.format(
                    Locale.ROOT,
                    " | worst %.1f %% | rms log %.4f | compressed fill %.2f",
                    worst * 100,
                    Math.sqrt(sumSq / wa.length),
                    compressed)));
        }
    }
}
