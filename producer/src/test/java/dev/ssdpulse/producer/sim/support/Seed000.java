package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import java.util.List;
import java.util.Locale;

/**
 * Seed 000's experiments 1 and 2 on a preset shrunk by {@code blockDivisor x pageDivisor} with its channels, dies
 * and planes kept ({@link Experiments#shrunk}): the host's QD1 speed depends on how busy the planes are (a map
 * miss waits for the operation in progress on its plane), so the parallelism stays and capacities, span, free
 * space and the 20 minutes are divided by the factor, which keeps the host volume per byte of capacity.
 */
public final class Seed000 {
    /** Seed 000's measured WA: exp. 1 empty, 0, 4, 8, 16 GB free; exp. 2 rewrite after empty, 0, 8 GB free. */
    public static final double[] SEED_WA = Experiments.SEED000_WA;

    public static final String[] CASES = {
        "exp. 1 secure-erased",
        "exp. 1 0 GB free",
        "exp. 1 4 GB free",
        "exp. 1 8 GB free",
        "exp. 1 16 GB free",
        "exp. 2 rewrite, empty",
        "exp. 2 rewrite, 0 GB free",
        "exp. 2 rewrite, 8 GB free"
    };

    private static final long[] FREE_GB = {-1, 0, 4, 8, 16};

    private Seed000() {}

    /**
     * The eight figures, the compressed-fill case (a full drive whose fill compressed 1.0625:1, about 7 GB of flash
     * freed) and each exp. 1 case's MB/s per window (10 s of the full-size run, divided by the factor).
     */
    public record Figures(
            double[] writeAmplification,
            double compressedFillWa,
            double[][] exp1MbPerSecond,
            double[] exp1Ios,
            SimSmartCounters[] phases) {
        /** Ratio to the seed per figure. */
        public double ratio(int i) {
            return writeAmplification[i] / SEED_WA[i];
        }

        public double worstError() {
            double worst = 0;
            for (int i = 0; i < SEED_WA.length; i++) {
                worst = Math.max(worst, Math.abs(ratio(i) - 1));
            }
            return worst;
        }

        /** Root mean square of the log ratios: the fit's objective. */
        public double rmsLog() {
            double sum = 0;
            for (int i = 0; i < SEED_WA.length; i++) {
                sum += Math.log(ratio(i)) * Math.log(ratio(i));
            }
            return Math.sqrt(sum / SEED_WA.length);
        }

        public String line() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < SEED_WA.length; i++) {
                sb.append(String.format(Locale.ROOT, " %.2f (%.2f)", writeAmplification[i], ratio(i)));
            }
            return sb.append(String.format(
                            Locale.ROOT,
                            " | worst %.1f %% | rms log %.4f | compressed fill %.2f",
                            100 * worstError(),
                            rmsLog(),
                            compressedFillWa))
                    .toString();
        }
    }

    /**
     * The pause between exp. 2's random phase and its rewrite: the article gives none (the drive was idle while the
     * test was switched over); 10 minutes is long enough for the preset's idle GC to finish, and any longer pause
     * gives the same rewrite figures.
     */
    public static final double EXP2_PAUSE_SECONDS = 600;

    public static Figures run(SsdConfig preset, int blockDivisor, int pageDivisor, double minutes) {
        return run(preset, blockDivisor, pageDivisor, minutes, EXP2_PAUSE_SECONDS);
    }

    /**
     * As {@link #run(SsdConfig, int, int, double)} with an idle pause of {@code pauseSeconds} (full-size time)
     * between each exp. 2 case's random phase and its rewrite, in which the drive's idle GC may run.
     */
    public static Figures run(
            SsdConfig preset, int blockDivisor, int pageDivisor, double minutes, double pauseSeconds) {
        int factor = blockDivisor * pageDivisor;
        SsdConfig cfg = Experiments.shrunk(preset, blockDivisor, pageDivisor);
        long gb = 1_000_000_000L / factor;
        long span = 24 * gb;
        long duration = (long) (minutes * 60e9 / factor);
        long window = 10_000_000_000L / factor;
        double[] wa = new double[8];
        double[][] mbps = new double[5][];
        double[] ios = new double[5];
        SimSmartCounters[] phases = new SimSmartCounters[12];
        int[] seqIndex = {5, 6, -1, 7, -1};
        for (int i = 0; i < 5; i++) {
            SimulatedDrive drive = new SimulatedDrive(cfg, 1);
            var r = Experiments.seed000Random(drive, span, FREE_GB[i] < 0 ? -1 : FREE_GB[i] * gb, duration, window, 42);
            wa[i] = r.writeAmplification();
            mbps[i] = r.mbPerSecond();
            ios[i] = r.ios();
            if (seqIndex[i] >= 0) {
                Experiments.pause(drive, (long) (pauseSeconds * 1e9 / factor), window);
                var s = Experiments.seed000SequentialRewrite(drive, span, window);
                wa[seqIndex[i]] = s.writeAmplification();
                int k = 4 * (seqIndex[i] - 5);
                phases[k] = r.first();
                phases[k + 1] = r.last();
                phases[k + 2] = s.first();
                phases[k + 3] = s.last();
            }
        }
        double compressed = Experiments.seed000Random(
                        new SimulatedDrive(cfg, 1), span, 0, 1 / 1.0625, duration, window, 42)
                .writeAmplification();
        return new Figures(wa, compressed, mbps, ios, phases);
    }

    /**
     * Seed 000 exp. 3 on {@code preset} shrunk by {@code blockDivisor x pageDivisor}: partition A and B (24 GB) filled,
     * {@code opGb} left unwritten, 4 KiB random writes on B for 20 minutes, a pause of {@code pauseMinutes}, 2 MB
     * sequential writes on B for 5 minutes, the same pause, 4 KiB sequential writes on B for 5 minutes (QD1).
     *
     * @return the three write phases (MB/s per 10 s of full-size time)
     */
    public static List<Experiments.PhaseResult> exp3(
            SsdConfig preset, int blockDivisor, int pageDivisor, long opGb, double pauseMinutes) {
        int factor = blockDivisor * pageDivisor;
        SsdConfig cfg = Experiments.shrunk(preset, blockDivisor, pageDivisor);
        long gb = 1_000_000_000L / factor;
        long minute = 60_000_000_000L / factor;
        SimulatedDrive drive = new SimulatedDrive(cfg, 1);
        drive.fill(0, drive.capacityBytes() - opGb * gb);
        return Experiments.seed000IdleGc(
                drive, 24 * gb, 20 * minute, (long) (pauseMinutes * minute), 5 * minute, 10_000_000_000L / factor, 5);
    }
}
