package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.cli.reliability.WindowLags.RunWindow;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;

/**
 * The cluster load scenario, shared by {@code ClusterLoadIT} (small) and {@code ClusterLoadBench} (50 runs):
 * {@code producers} producer processes ({@link LoadProducerMain}, child JVMs) stream {@code runsPerProducer}
 * simulated runs each, all at once, into the given cluster, analysed by {@code instances} analytics instances
 * ({@code ssdpulse streams} child JVMs, one application id). Measures aggregate I/O events per second and the lag
 * of every window ({@link WindowLags}, {@link WindowAppendTimes}), then checks that every run's summary, read from
 * instance 0's HTTP API (forwarded to the owner where instance 0 does not own the run), equals its offline analysis.
 */
final class ClusterLoad {
    private static final Pattern API_URL = Pattern.compile("dashboard and API: (http://\\S+)");
    private static final long WINDOW_NS = LoadProducerMain.WINDOW_NS;

    /**
     * @param rateIops each run's test phase is rate-limited to about this (varied by a few % per run)
     * @param speed    simulated seconds per wall second ({@code simulate --realtime --speed}); 0 = unpaced
     */
    record Shape(int producers, int runsPerProducer, int durationS, long rateIops, double speed) {
        int runs() {
            return producers * runsPerProducer;
        }
    }

    /**
     * @param ioEventsPerSecond all runs' I/Os over the span from the first I/O any producer recorded to the last
     *                          window appended (every I/O through producer, brokers and analytics into the views)
     * @param lags              from the hand-over of a window's last I/O to its append
     * @param endLags           from a window's end on the wall clock (its run's start plus the window's end) to its
     *                          append: what a viewer waits after the second has passed (a producer behind real time
     *                          on a loaded machine adds its own delay here, not in {@code lags})
     */
    record Result(
            Shape shape,
            int instances,
            long ioCount,
            long spanMs,
            double ioEventsPerSecond,
            WindowLags lags,
            WindowLags endLags,
            long scenarioMs,
            String timeline) {
        String line() {
            return String.format(
                    Locale.ROOT,
                    "%d analytics instance(s): %d runs from %d producers, %,d I/Os in "
                            + "%.1f s = %,.0f I/O events/s; window lag over %d windows: p50 %d ms, p99 %d ms "
                            + "(min %d, max %d); from the window's end: p50 %d ms, p99 %d ms (max %d); "
                            + "scenario %.1f s (%s)",
                    instances,
                    shape.runs(),
                    shape.producers(),
                    ioCount,
                    spanMs / 1e3,
                    ioEventsPerSecond,
                    lags.windows(),
                    lags.p50Ms(),
                    lags.p99Ms(),
                    lags.minMs(),
                    lags.maxMs(),
                    endLags.p50Ms(),
                    endLags.p99Ms(),
                    endLags.maxMs(),
                    scenarioMs / 1e3,
                    timeline);
        }
    }

    private record ProducedRun(
            LoadRun run, long ioCount, long published, long firstIoWallMs, int exitCode, long startWallMs) {}

    /**
     * Kafka Streams' exactly_once_v2 default transaction timeout is 10 s: on the shared 2-core machine at load ~40
     * (three brokers, two analytics instances and five producers of this scenario beside other builds) a stream
     * thread stalled past it, the coordinator's timeout abort raced the thread's own commit, the broker answered
     * the EndTxn with UNKNOWN_SERVER_ERROR and the instance shut down. 60 s keeps a
     * starved machine from measuring that instead of the load; nothing in this scenario kills an instance, which is
     * what a shorter timeout would be for.
     */
    static final List<String> STREAMS_ARGS = streamsArgs();

    /** The settings above, plus those of the system property {@code clusterload.streams} (space-separated). */
    private static List<String> streamsArgs() {
        List<String> args = new ArrayList<>(List.of("-X", "transaction.timeout.ms=60000"));
        String extra = System.getProperty("clusterload.streams", "").trim();
        if (!extra.isEmpty()) {
            args.addAll(List.of(extra.split("\\s+")));
        }
        return List.copyOf(args);
    }

    private final LocalStack stack;
    private final Path workDir;
    private final Duration timeout;

    /** @param timeout for each wait of the scenario (instances up, producers done, windows and summaries in) */
    ClusterLoad(LocalStack stack, Path workDir, Duration timeout) {
        this.stack = stack;
        this.workDir = workDir;
        this.timeout = timeout;
    }

    /**
     * The measured runs alone; the producers start together with the analytics instances (what a test wants: the
     * JVM start-ups overlap), so the lags include the instances' start.
     */
    Result run(Shape shape, int instances) throws Exception {
        return run(shape, instances, null, false);
    }

    /**
     * @param warmup             runs streamed and checked first, through the same instances, so that the measured
     *                           runs meet warm JVMs (JIT) as a long-running deployment does; null for none
     * @param instancesUpFirst   the producers start once every instance serves its API and the group is stable
     */
    Result run(Shape shape, int instances, Shape warmup, boolean instancesUpFirst) throws Exception {
        long t0 = System.nanoTime();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String prefix = "load-" + instances + "i-" + suffix + "-";
        Path dir = Files.createDirectories(workDir.resolve(prefix + "files"));
        List<String> timeline = new ArrayList<>();
        List<ChildJvm> children = new ArrayList<>();
        try (WindowAppendTimes appendTimes =
                new WindowAppendTimes(stack.bootstrapServers(), stack.schemaRegistryUrl(), prefix, WINDOW_NS)) {
            String appId = "load-app-" + suffix;
            List<ChildJvm> streams = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                ChildJvm child = ChildJvm.streams(
                        dir.resolve("streams-" + i + ".log"),
                        stack,
                        appId,
                        dir.resolve("state-" + i),
                        LoopbackPorts.freePort(),
                        "20m",
                        STREAMS_ARGS);
                children.add(child);
                streams.add(child);
            }
            Callable<ApiClient> instancesUp = () -> {
                List<ApiClient> apis = new ArrayList<>();
                for (ChildJvm child : streams) {
                    apis.add(new ApiClient(child.awaitOutput(API_URL, timeout)));
                }
                awaitStableGroup(appId, instances);
                timeline.add(String.format(Locale.ROOT, "instances up %.1f s", (System.nanoTime() - t0) / 1e9));
                return apis.get(0);
            };
            Measured m;
            if (instancesUpFirst || warmup != null) {
                ApiClient api = instancesUp.call();
                if (warmup != null) {
                    long w0 = System.nanoTime();
                    stream(warmup, prefix + "w-", dir, () -> api, appendTimes, children, new ArrayList<>());
                    timeline.add(String.format(
                            Locale.ROOT, "warm-up %d runs %.1f s", warmup.runs(), (System.nanoTime() - w0) / 1e9));
                }
                m = stream(shape, prefix + "m-", dir, () -> api, appendTimes, children, timeline);
            } else {
                m = stream(shape, prefix + "m-", dir, instancesUp, appendTimes, children, timeline);
            }
            // SIGKILL: a clean exactly_once_v2 shutdown of the instances is not what this measures and took 30-120 s
            // on the loaded machine; their open transactions only hold back read_committed readers of the output
            // topics, which no other test has
            ChildJvm.killAll(children);
            timeline.add(String.format(Locale.ROOT, "all stopped %.1f s", (System.nanoTime() - t0) / 1e9));
            return new Result(
                    shape,
                    instances,
                    m.ioCount(),
                    m.spanMs(),
                    m.ioCount() * 1000.0 / Math.max(m.spanMs(), 1),
                    m.lags(),
                    m.endLags(),
                    (System.nanoTime() - t0) / 1_000_000,
                    String.join(", ", timeline));
        } finally {
            ChildJvm.closeAll(children);
        }
    }

    private record Measured(long ioCount, long spanMs, WindowLags lags, WindowLags endLags) {}

    /** Streams the shape's runs from its producer processes, measures them, checks every summary. */
    /** @param instancesUp called once the producers are launched: the API to read summaries from */
    private Measured stream(
            Shape shape,
            String prefix,
            Path dir,
            Callable<ApiClient> instancesUp,
            WindowAppendTimes appendTimes,
            List<ChildJvm> children,
            List<String> timeline)
            throws Exception {
        long t0 = System.nanoTime();
        List<LoadRun> runs = new ArrayList<>();
        List<ChildJvm> producers = new ArrayList<>();
        for (int p = 0; p < shape.producers(); p++) {
            Path results = dir.resolve(prefix + "producer-" + p + ".results");
            List<String> args = new ArrayList<>(List.of(
                    stack.bootstrapServers(),
                    stack.schemaRegistryUrl(),
                    results.toString(),
                    Double.toString(shape.speed())));
            for (int r = 0; r < shape.runsPerProducer(); r++) {
                int n = runs.size();
                // rates differ by up to 9 % so that no two runs have the same I/O count
                LoadRun run = new LoadRun(
                        prefix + "p" + p + "-r" + r,
                        1000 + n,
                        shape.rateIops() + (shape.rateIops() * (n % 10)) / 100,
                        shape.durationS());
                runs.add(run);
                args.add(run.arg());
            }
            ChildJvm producer = ChildJvm.start(
                    dir.resolve(prefix + "producer-" + p + ".log"), LoadProducerMain.class.getName(), 512, args);
            children.add(producer);
            producers.add(producer);
        }
        ApiClient api = instancesUp.call();
        for (ChildJvm producer : producers) {
            assertThat(producer.awaitExit(timeout)).as(producer.tail()).isZero();
        }
        timeline.add(String.format(Locale.ROOT, "runs: producers done +%.1f s", (System.nanoTime() - t0) / 1e9));
        Map<String, ProducedRun> produced = new HashMap<>();
        Map<RunWindow, Long> lastIoWallMs = new HashMap<>();
        for (int p = 0; p < shape.producers(); p++) {
            readResults(dir.resolve(prefix + "producer-" + p + ".results"), runs, produced, lastIoWallMs);
        }
        assertThat(produced.keySet()).as("runs reported by the producers").hasSize(runs.size());
        long ioCount = 0;
        long firstIoWallMs = Long.MAX_VALUE;
        for (ProducedRun r : produced.values()) {
            assertThat(r.exitCode()).as("exit code of run " + r.run().runId()).isZero();
            assertThat(r.published())
                    .as("I/Os published of run " + r.run().runId())
                    .isEqualTo(r.ioCount());
            ioCount += r.ioCount();
            firstIoWallMs = Math.min(firstIoWallMs, r.firstIoWallMs());
        }

        await("every window of the " + runs.size() + " runs in " + Topics.METRICS_1S.name())
                .atMost(timeout)
                .pollInterval(Duration.ofMillis(500))
                .until(() -> appendTimes.containsAll(lastIoWallMs.keySet()));
        timeline.add(String.format(Locale.ROOT, "windows in +%.1f s", (System.nanoTime() - t0) / 1e9));
        Map<RunWindow, Long> appended = appendTimes.appendWallMs();
        WindowLags lags = WindowLags.of(lastIoWallMs, appended);
        Map<RunWindow, Long> windowEndWallMs = new HashMap<>();
        lastIoWallMs
                .keySet()
                .forEach(w -> windowEndWallMs.put(
                        w, produced.get(w.runId()).startWallMs() + (w.index() + 1) * (WINDOW_NS / 1_000_000)));
        WindowLags endLags = WindowLags.of(windowEndWallMs, appended);
        writeLagsCsv(dir.resolve(prefix + "window-lags.csv"), lastIoWallMs, appended);
        long lastAppendMs =
                lastIoWallMs.keySet().stream().mapToLong(appended::get).max().orElseThrow();

        for (LoadRun run : runs) {
            JsonNode live = await("COMPLETED summary of run " + run.runId())
                    .atMost(timeout)
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(
                            () -> api.json("/api/runs/" + run.runId() + "/summary")
                                    .filter(s -> s.path("status").asText().equals("COMPLETED")),
                            Optional::isPresent)
                    .get();
            ProducedRun p = produced.get(run.runId());
            assertThat(live.path("ioCount").asLong()).as(run.runId() + " I/Os").isEqualTo(p.published());
            assertThat(live.path("lateIoCount").asLong())
                    .as(run.runId() + " late I/Os")
                    .isZero();
            assertThat(OfflineSummaries.withoutContext(live))
                    .as("summary of %s (from %s) = its offline analysis", run.runId(), api.baseUrl())
                    .isEqualTo(
                            OfflineSummaries.withoutContext(OfflineSummaries.of(run.runId(), LoadRun.SSD, run.spec())));
        }
        timeline.add(String.format(Locale.ROOT, "summaries checked +%.1f s", (System.nanoTime() - t0) / 1e9));
        return new Measured(ioCount, lastAppendMs - firstIoWallMs, lags, endLags);
    }

    /** Waits until every instance (all its stream threads) is in the application's group and the group is stable. */
    private void awaitStableGroup(String appId, int instances) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
            await("consumer group " + appId + " stable with " + instances + " member(s)")
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> {
                        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(appId))
                                .all()
                                .get(10, TimeUnit.SECONDS)
                                .get(appId);
                        // one member per stream thread: count the instances (their client ids before the thread)
                        long clients = group.members().stream()
                                .map(m -> m.clientId().replaceFirst("-StreamThread-\\d+-consumer$", ""))
                                .distinct()
                                .count();
                        return group.groupState() == GroupState.STABLE && clients == instances;
                    });
        }
    }

    /** Every window's times, for a look at how the lag evolves over the scenario. */
    private static void writeLagsCsv(Path file, Map<RunWindow, Long> lastIoWallMs, Map<RunWindow, Long> appended)
            throws IOException {
        List<String> rows = new ArrayList<>();
        lastIoWallMs.forEach((w, lastIo) -> rows.add(String.format(
                Locale.ROOT,
                "%s,%d,%d,%d,%d",
                w.runId(),
                w.index(),
                lastIo,
                appended.get(w),
                appended.get(w) - lastIo)));
        rows.sort(Comparator.comparing((String r) -> r.split(",")[2]));
        rows.add(0, "run_id,window_index,last_io_wall_ms,append_wall_ms,lag_ms");
        Files.write(file, rows);
    }

    private static void readResults(
            Path file, List<LoadRun> runs, Map<String, ProducedRun> produced, Map<RunWindow, Long> lastIoWallMs)
            throws IOException {
        Map<String, LoadRun> byId = new HashMap<>();
        runs.forEach(r -> byId.put(r.runId(), r));
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "run" ->
                    produced.put(
                            f[1],
                            new ProducedRun(
                                    byId.get(f[1]),
                                    Long.parseLong(f[2]),
                                    Long.parseLong(f[3]),
                                    Long.parseLong(f[4]),
                                    Integer.parseInt(f[5]),
                                    Long.parseLong(f[6])));
                case "window" -> lastIoWallMs.put(new RunWindow(f[1], Long.parseLong(f[2])), Long.parseLong(f[3]));
                default -> throw new IllegalStateException(file + ": unexpected line '" + line + "'");
            }
        }
    }
}
