package dev.ssdpulse.streams.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.CollectingOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Manual check (not a test): the cost of a run's analysis state codec alone, {@link RunAnalysis#encode()} (what the
 * run processor's store writes at every commit) and {@link RunAnalysis#decode} (a restart, a new task), on the
 * state of a run in its measurement: a preconditioning phase and a test phase of a 70/30 random mix at 200 k IOPS
 * with the default analysis settings (1-s windows, SNIA and fio steady-state detectors, latency scatter). Usage:
 * StateCodecCostCheck [IOS] [REPEATS]; prints the median of 5 passes of REPEATS encodes and REPEATS decodes, in the
 * process's CPU time, the collector's included (a machine shared with other work stretches the wall-clock time,
 * not this).
 */
public final class StateCodecCostCheck {
    private StateCodecCostCheck() {}

    public static void main(String[] args) {
        int ios = args.length > 0 ? Integer.parseInt(args[0]) : 4_000_000;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        AnalysisSettings settings = AnalysisSettings.defaults();
        RunAnalysis run = new RunAnalysis("codec-check", settings, new CollectingOutput(false));
        SplittableRandom random = new SplittableRandom(1);
        long t = 0;
        run.phaseChanged(0, "precondition", PhaseKind.PRECONDITION_DEPENDENT, 0);
        for (int i = 0; i < ios; i++) {
            if (i == ios / 2) {
                run.phaseChanged(1, "test", PhaseKind.TEST, t);
            }
            t += 5_000;
            int op = random.nextInt(10) < 7 ? 0 : 1;
            long latencyNs =
                    50_000 + (long) (random.nextDouble() * random.nextDouble() * random.nextDouble() * 20_000_000);
            run.io(op, i < ios / 2 ? 0 : 1, t - random.nextInt(100_000), 4096, latencyNs, 0);
        }
        byte[] state = run.encode();
        // warm up both paths before timing
        for (int i = 0; i < repeats; i++) {
            state = run.encode();
            RunAnalysis.decode("codec-check", state, settings, new CollectingOutput(false));
        }
        double[] encodeNs = new double[5];
        double[] decodeNs = new double[5];
        OperatingSystemMXBean os = ManagementFactory.getPlatformMXBean(OperatingSystemMXBean.class);
        long sink = 0;
        for (int pass = 0; pass < 5; pass++) {
            long start = os.getProcessCpuTime();
            for (int i = 0; i < repeats; i++) {
                sink += run.encode().length;
            }
            encodeNs[pass] = (os.getProcessCpuTime() - start) / (double) repeats;
            start = os.getProcessCpuTime();
            for (int i = 0; i < repeats; i++) {
                sink += RunAnalysis.decode("codec-check", state, settings, new CollectingOutput(false))
                        .maxCompletionTimeNs();
            }
            decodeNs[pass] = (os.getProcessCpuTime() - start) / (double) repeats;
        }
        Arrays.sort(encodeNs);
        Arrays.sort(decodeNs);
        System.out.printf(
                Locale.ROOT,
                "state %d B: encode %.1f us, decode %.1f us of CPU (median of 5 passes of %d; %d)%n",
                state.length,
                encodeNs[2] / 1e3,
                decodeNs[2] / 1e3,
                repeats,
                sink % 10);
    }
}
