package dev.ssdpulse.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * How soon a live run's windows reach the dashboard: one real-time run ({@code simulate --realtime}) on a fresh
 * single-broker stack, analysed by one {@code ssdpulse streams} instance; both commands from the ssdpulse build
 * under test (its class path), the stack and this measuring client from this one, so two builds are measured the
 * same way. For every window of the run, the lag runs from its end on the wall clock (the run's start plus the
 * window's end) to
 * <ul>
 *   <li><b>stream</b>: its arrival on the run's event stream (GET /api/runs/ID/events, what the dashboard draws
 *       from), the window whole (its last direction's event);</li>
 *   <li><b>poll</b>: the first answer of GET /api/runs/ID/series that holds it, asked every 50 ms (an API client's
 *       view; the sampling adds up to 50 ms).</li>
 * </ul>
 * Both clocks are this machine's; the run's start is its RunStarted wall-clock start (µs). Windows of the test phase
 * only (the precondition runs unpaced first). Prints one line per run with p50, p99 and max of each.
 *
 * <p>Usage: {@code LiveLagBench LABEL CLASSPATH WORK_DIR DURATION_S RATE_IOPS}
 */
public final class LiveLagBench {
    private static final Pattern API_URL = Pattern.compile("dashboard and API: (http://\\S+)");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private LiveLagBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: LiveLagBench LABEL CLASSPATH WORK_DIR DURATION_S RATE_IOPS, got " + Arrays.toString(args));
        }
        String label = args[0];
        String classpath = args[1];
        Path work = Files.createDirectories(Path.of(args[2]));
        int durationS = Integer.parseInt(args[3]);
        int rateIops = Integer.parseInt(args[4]);
        String runId = "live-lag-" + label + "-" + System.currentTimeMillis();
        try (LocalStack stack = LocalStack.start(BrokerSettings.defaults(), 0)) {
            int port = LoopbackPorts.freePort();
            List<String> streamsArgs = List.of(
                    "streams",
                    "--bootstrap-servers",
                    stack.bootstrapServers(),
                    "--schema-registry-url",
                    stack.schemaRegistryUrl(),
                    "--application-id",
                    "live-lag-" + label,
                    "--state-dir",
                    work.resolve("state-" + runId).toString(),
                    "--http-port",
                    Integer.toString(port),
                    "--exit-after",
                    "20m");
            try (Child streams = Child.start(classpath, work.resolve(runId + "-streams.log"), 1024, streamsArgs)) {
                String base = streams.await(API_URL, Duration.ofMinutes(3));
                Child simulate = Child.start(
                        classpath,
                        work.resolve(runId + "-simulate.log"),
                        512,
                        List.of(
                                "simulate",
                                "--ssd",
                                "tiny-test",
                                "--workload",
                                "seed003-mixed-80-20",
                                "--set",
                                "durationS=" + durationS,
                                "--set",
                                "preconditionPercent=20",
                                "--set",
                                "qd=4",
                                "--rate-iops",
                                Integer.toString(rateIops),
                                "--realtime",
                                "--run-id",
                                runId,
                                "--quiet",
                                "--bootstrap-servers",
                                stack.bootstrapServers(),
                                "--schema-registry-url",
                                stack.schemaRegistryUrl()));
                try (simulate) {
                    measure(label, base, runId, simulate, durationS);
                }
            }
        }
    }

    private static void measure(String label, String base, String runId, Child simulate, int durationS)
            throws Exception {
        Map<Long, Long> streamed = new ConcurrentHashMap<>();
        Map<Long, Long> polled = new ConcurrentHashMap<>();
        // the run appears once the analytics have its first event
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        JsonNode detail = null;
        while (detail == null
                || detail.path("run").isNull()
                || detail.path("run").isMissingNode()) {
            if (System.nanoTime() > deadline || !simulate.alive()) {
                throw new IllegalStateException("run " + runId + " never appeared; simulate:\n" + simulate.tail());
            }
            detail = get(base + "api/runs/" + runId).orElse(null);
            Thread.sleep(50);
        }
        long startMs = runStartMs(detail.path("run"));
        Thread stream = new Thread(() -> stream(base, runId, streamed), "live-lag-stream");
        stream.setDaemon(true);
        stream.start();
        while (simulate.alive()) {
            get(base + "api/runs/" + runId + "/series").ifPresent(series -> {
                long now = System.currentTimeMillis();
                for (JsonNode points : series.path("ops")) {
                    for (JsonNode p : points) {
                        polled.putIfAbsent(Math.round(p.path("t").asDouble() * 1000), now);
                    }
                }
            });
            Thread.sleep(50);
        }
        Thread.sleep(3000); // the last windows close with the run's end
        // the test phase: its windows from the first to the last full one
        JsonNode phases = get(base + "api/runs/" + runId + "/phases").orElseThrow();
        double testStartS = 0;
        for (JsonNode p : phases.path("phases")) {
            if ("TEST".equals(p.path("kind").asText()) && !p.path("startS").isNull()) {
                testStartS = p.path("startS").asDouble();
            }
        }
        long fromMs = (long) Math.ceil(testStartS) * 1000;
        long toMs = fromMs + (durationS - 1) * 1000L;
        long[] streamLags = lags(streamed, startMs, fromMs, toMs);
        long[] pollLags = lags(polled, startMs, fromMs, toMs);
        System.out.printf(
                Locale.ROOT,
                "LiveLagBench %s: %d windows of the test phase; stream p50 %d ms, p99 %d ms, max %d ms; "
                        + "poll (50 ms) p50 %d ms, p99 %d ms, max %d ms; load %s%n",
                label,
                streamLags.length,
                WindowLags.percentile(streamLags, 0.5),
                WindowLags.percentile(streamLags, 0.99),
                streamLags[streamLags.length - 1],
                WindowLags.percentile(pollLags, 0.5),
                WindowLags.percentile(pollLags, 0.99),
                pollLags[pollLags.length - 1],
                Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /**
     * The run's wall-clock start, ms: its {@code wallClockStart} (the API writes it as an ISO-8601 instant), or in a
     * run recorded before that field its retired ns start; a run with neither ends the bench (every lag would be
     * measured from 1970).
     */
    static long runStartMs(JsonNode run) {
        if (run.path("wallClockStart").isTextual()) {
            return Instant.parse(run.path("wallClockStart").asText()).toEpochMilli();
        }
        if (run.path("wallClockStartEpochNs").isNumber()) {
            return run.path("wallClockStartEpochNs").asLong() / 1_000_000;
        }
        throw new IllegalStateException("run without a wall-clock start: " + run);
    }

    /** Lags of the windows starting in [fromMs, toMs] of run time; a window never seen fails the bench. */
    private static long[] lags(Map<Long, Long> seen, long runStartMs, long fromMs, long toMs) {
        List<Long> out = new ArrayList<>();
        for (long t = fromMs; t <= toMs; t += 1000) {
            Long at = seen.get(t);
            if (at == null) {
                throw new IllegalStateException("window at " + t / 1000 + " s never seen");
            }
            out.add(at - (runStartMs + t + 1000));
        }
        return out.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** Reads the run's event stream; a window counts once every direction of it is in (the latest event of its t). */
    private static void stream(String base, String runId, Map<Long, Long> seen) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + "api/runs/" + runId + "/events"))
                .build();
        try {
            HttpResponse<InputStream> resp = HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
                String event = null;
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ") && "window".equals(event)) {
                        JsonNode p = ApiClient.parse(line.substring(6));
                        seen.put(Math.round(p.path("t").asDouble() * 1000), System.currentTimeMillis());
                    }
                }
            }
        } catch (IOException e) {
            // the stream ends with the bench
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.Optional<JsonNode> get(String url) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200
                    ? java.util.Optional.of(ApiClient.parse(r.body()))
                    : java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }

    /** An ssdpulse command of the build under test, in a child JVM with that build's class path. */
    private static final class Child implements AutoCloseable {
        private final Process process;
        private final Path log;

        private Child(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        static Child start(String classpath, Path log, int heapMb, List<String> args) throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx" + heapMb + "m",
                    "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro",
                    "-cp",
                    classpath,
                    "dev.ssdpulse.cli.Main"));
            command.addAll(args);
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new Child(p, log);
        }

        boolean alive() {
            return process.isAlive();
        }

        String tail() {
            try {
                String all = Files.readString(log);
                return all.length() <= 4000 ? all : all.substring(all.length() - 4000);
            } catch (IOException e) {
                return "(no log: " + e + ")";
            }
        }

        String await(Pattern pattern, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                var m = pattern.matcher(tail());
                if (m.find()) {
                    return m.group(1);
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("exited before printing " + pattern + ":\n" + tail());
                }
                Thread.sleep(200);
            }
            throw new IllegalStateException("did not print " + pattern + " within " + timeout + ":\n" + tail());
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
