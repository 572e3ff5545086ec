package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.CapacitySpec;
import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.HostSpec;
import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.support.Seed000;
import java.util.Locale;

/**
 * The fit behind the 2012 SandForce preset's fitted numbers: seed 000's eight WA figures (exp. 1 empty, 0, 4, 8,
 * 16 GB free; exp. 2 rewrite after empty, 0, 8 GB free) and the compressed-fill case for each candidate
 * "commandOverheadNs:badBlockReserveFraction:mapSegmentBytes[:pauseSeconds[:idleGcTargetFreeBlocks]]" (or "preset",
 * the preset as shipped; the pause is idle time between exp. 2's random phase and its rewrite, 600 s unless
 * given), on the preset
 * shrunk by blockDivisor x pageDivisor ({@link Seed000}). Prints each figure, its ratio to the seed, the worst
 * error and the rms of the log ratios (the objective), and with "mbps" each exp. 1 case's MB/s per 10 s (full-size
 * time). Args: blockDivisor pageDivisor minutes [mbps] candidates...
 */
public final class Seed000FitMain {
    public static void main(String[] args) {
        int blockDivisor = Integer.parseInt(args[0]);
        int pageDivisor = Integer.parseInt(args[1]);
        double minutes = Double.parseDouble(args[2]);
        SsdConfig base = new SsdPresets().builtIn("sata-mlc-120gb-2012");
        boolean mbps = false;
        for (int a = 3; a < args.length; a++) {
            if (args[a].equals("mbps")) {
                mbps = true;
                continue;
            }
            SsdConfig c = candidate(base, args[a]);
            String[] p = args[a].split(":");
            double pauseS = p.length > 3 ? Double.parseDouble(p[3]) : Seed000.EXP2_PAUSE_SECONDS;
            Seed000.Figures f = Seed000.run(c, blockDivisor, pageDivisor, minutes, pauseS);
            System.out.println(args[a] + " |" + f.line());
            if (mbps) {
                for (int i = 0; i < 5; i++) {
                    StringBuilder sb = new StringBuilder(String.format(
                            Locale.ROOT, "  %s, %,.0f I/Os, MB/s per 10 s:", Seed000.CASES[i], f.exp1Ios()[i]));
                    for (double v : f.exp1MbPerSecond()[i]) {
                        sb.append(String.format(Locale.ROOT, " %.1f", v));
                    }
                    System.out.println(sb);
                }
            }
        }
    }

    static SsdConfig candidate(SsdConfig base, String spec) {
        if (spec.equals("preset")) {
            return base;
        }
        String[] p = spec.split(":");
        var f = base.ftl();
        var ftl = p.length > 4
                ? new FtlSpec(
                        f.victimSelector(),
                        f.dChoices(),
                        f.backgroundGcFreeBlocks(),
                        f.forcedGcFreeBlocks(),
                        Integer.parseInt(p[4]),
                        f.idleGcAfterNs(),
                        f.compressionRatio(),
                        f.wearLevellingEraseSpread(),
                        f.idleGcIntervalNs(),
                        f.backgroundGcStopFreeBlocks())
                : f;
        return new SsdConfig(
                base.name(),
                base.description(),
                base.geometry(),
                new CapacitySpec(
                        base.capacity().userCapacityBytes(),
                        base.capacity().parityReserveBytes(),
                        Double.parseDouble(p[1])),
                base.timing(),
                new HostSpec(base.host().linkMBps(), Long.parseLong(p[0])),
                ftl,
                base.cache(),
                new MetadataSpec(
                        base.metadata().parityStripeDataPages(),
                        Integer.parseInt(p[2]),
                        base.metadata().mapCacheBytes()),
                base.power());
    }
}
