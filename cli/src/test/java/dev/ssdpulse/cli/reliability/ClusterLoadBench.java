package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.platform.LocalStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The cluster load at full size, what {@code bench/cluster-load.sh} runs: for each round, 1 then 2
 * analytics instances (alternating, 2 first on even rounds), each on a freshly started three-broker cluster so that
 * neither inherits the other's topics, state or warm JIT; prints one line per scenario and a table at the end.
 * Every run's summary is checked against its offline analysis (a mismatch ends the bench with the assertion).
 * Before the measured runs, each producer streams WARMUP_RUNS unpaced 10-s runs through the same instances (checked
 * too, not measured), so the figures are those of warm JVMs, as in a deployment that has been up for a while.
 * <p>Usage: {@code ClusterLoadBench WORK_DIR ROUNDS PRODUCERS RUNS_PER_PRODUCER DURATION_S RATE_IOPS SPEED WARMUP_RUNS
 * [INSTANCES]}, INSTANCES a comma-separated list of instance counts measured in that order each round (default: 1
 * and 2, alternating which first). The system property {@code clusterload.streams} adds {@code ssdpulse streams}
 * settings (e.g. {@code "-X commit.interval.ms=1000"}).
 */
public final class ClusterLoadBench {
    private ClusterLoadBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 8 && args.length != 9) {
            throw new IllegalArgumentException("usage: ClusterLoadBench WORK_DIR ROUNDS PRODUCERS RUNS_PER_PRODUCER "
                    + "DURATION_S RATE_IOPS SPEED WARMUP_RUNS (SPEED 0 = unpaced), got " + args.length
                    + " argument(s)");
        }
        Path workDir = Files.createDirectories(Path.of(args[0]));
        int rounds = Integer.parseInt(args[1]);
        ClusterLoad.Shape shape = new ClusterLoad.Shape(
                Integer.parseInt(args[2]),
                Integer.parseInt(args[3]),
                Integer.parseInt(args[4]),
                Long.parseLong(args[5]),
                Double.parseDouble(args[6]));
        int warmupRuns = Integer.parseInt(args[7]);
        ClusterLoad.Shape warmup =
                warmupRuns == 0 ? null : new ClusterLoad.Shape(shape.producers(), warmupRuns, 10, shape.rateIops(), 0);
        List<String> lines = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            int[] order = args.length == 9
                    ? java.util.Arrays.stream(args[8].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray()
                    : round % 2 == 1 ? new int[] {1, 2} : new int[] {2, 1};
            for (int instances : order) {
                String load = Files.readString(Path.of("/proc/loadavg")).trim();
                try (LocalStack stack = ThreeBrokerCluster.start()) {
                    ClusterLoad.Result result =
                            new ClusterLoad(stack, workDir, Duration.ofMinutes(10)).run(shape, instances, warmup, true);
                    String line = "round " + round + ", load " + load + ": " + result.line()
                            + "; every summary = its offline analysis";
                    System.out.println("ClusterLoadBench: " + line);
                    lines.add(line);
                }
            }
        }
        System.out.println();
        lines.forEach(System.out::println);
    }
}
