package dev.ssdpulse.producer.sim;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.Seed000;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark main: seed 000 experiment 3 (idle GC) on the Marvell-class preset, shrunk by blockDivisor x
 * pageDivisor ({@link Seed000#exp3}): for 0 and 8 GB OP and pauses of 0, 1, 5, 30 minutes, the MB/s of the 2 MB
 * sequential phase's first minute (the seed's figure) and mean, and of the 4 KiB sequential phase. Args:
 * blockDivisor pageDivisor [idleGcIntervalNs [idleGcUrgentIntervalNs [idleGcMaxCopyRatio]]] (full-size values, to try
 * other idle-GC pacing; -1 = no urgent mode, 0 = no cost limit). Also prints the free blocks when the random phase
 * ends and when the 2 MB phase begins, and each phase's WA.
 */
public final class Seed000IdleGcMain {
    public static void main(String[] args) {
        int blockDivisor = Integer.parseInt(args[0]);
        int pageDivisor = Integer.parseInt(args[1]);
        SsdConfig preset = new SsdPresets().builtIn("sata-mlc-128gb-2012-marvell");
        if (args.length > 2) {
            var f = preset.ftl();
            preset = preset.withFtl(f.withIdleGcPacing(
                    Long.parseLong(args[2]),
                    args.length > 3 ? Long.parseLong(args[3]) : f.idleGcUrgentIntervalNs(),
                    args.length > 4 ? Double.parseDouble(args[4]) : f.idleGcMaxCopyRatio()));
        }
        for (long opGb : new long[] {0, 8}) {
            for (double pause : new double[] {0, 1, 5, 30}) {
                List<Experiments.PhaseResult> r = Seed000.exp3(preset, blockDivisor, pageDivisor, opGb, pause);
                var random = r.get(0);
                var seq2m = r.get(1);
                var seq4k = r.get(2);
                System.out.printf(
                        Locale.ROOT,
                        "OP %d GB, pause %2.0f min: random last minute %.1f MB/s;"
                                + " 2 MB seq first minute %.1f, mean %.1f MB/s;"
                                + " 4K seq first minute %.1f, mean %.1f MB/s; idle GC victims %d;"
                                + " free blocks after random %d, before 2 MB %d; WA random %.2f, 2 MB %.2f%n",
                        opGb,
                        pause,
                        random.mean(random.mbPerSecond().length - 6, random.mbPerSecond().length),
                        seq2m.mean(0, 6),
                        seq2m.mean(0, seq2m.mbPerSecond().length),
                        seq4k.mean(0, 6),
                        seq4k.mean(0, seq4k.mbPerSecond().length),
                        seq4k.last().idleGcInvocations(),
                        random.last().freeBlocks(),
                        seq2m.first().freeBlocks(),
                        random.writeAmplification(),
                        seq2m.writeAmplification());
            }
        }
    }
}
