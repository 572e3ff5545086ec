package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Consumers in other languages against the distribution's own stack and analytics: the Python examples
 * (Confluent's Python client, Debian's python3-confluent-kafka) decode every output topic and the catalogue of a
 * simulated run; the JavaScript example (kafkajs and @kafkajs/confluent-schema-registry on their defaults) decodes
 * the catalogue; a run written by Confluent's Python serializer is analysed by ssdpulse exactly; the Java consumer
 * of docs/consumers.md compiles and prints per-second IOPS. Each example says what it needs when it is missing.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ExamplesIT {
    private static final Path SOURCE_ROOT =
            Path.of(System.getProperty("ssdpulse.sourceRoot")).normalize();
    private static final Path PYTHON_EXAMPLES = SOURCE_ROOT.resolve("examples/python");
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Path JAVASCRIPT_EXAMPLES = SOURCE_ROOT.resolve("examples/javascript");
    private static final Path NODE = Path.of("/usr/bin/node");
    private static final String SIMULATED_RUN = "py-consume";
    private static final ObjectMapper JSON = new ObjectMapper();

    static UnpackedDistribution dist;
    static Script stack;
    static Script analytics;
    static String bootstrap;
    static String registry;

    @BeforeAll
    static void startTheStackAndTheAnalyticsAndStreamARun() throws Exception {
        Process check = new ProcessBuilder(PYTHON.toString(), "-c", "import confluent_kafka.avro, avro, requests")
                .redirectErrorStream(true)
                .start();
        String why = new String(check.getInputStream().readAllBytes());
        assertThat(check.waitFor())
                .as("Debian's python3-confluent-kafka, python3-avro and python3-requests " + "(.ci/run installs them): "
                        + why)
                .isZero();

        assertThat(JAVASCRIPT_EXAMPLES.resolve("node_modules/kafkajs"))
                .as("the JavaScript example's packages: `npm ci` in examples/javascript (.ci/run does)")
                .isDirectory();

        dist = UnpackedDistribution.get();
        stack = dist.run("stack", "--ephemeral", "--kafka-port", "0", "--registry-port", "0");
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> stack.stdout().contains("ssdpulse stack is up")
                        || !stack.handle().isAlive());
        String[] addresses = UnpackedDistribution.bootstrapAndRegistry(stack.stdout());
        bootstrap = addresses[0];
        registry = addresses[1];
        Path state = Files.createTempDirectory(dist.machine, "streams-state-");
        analytics = dist.run(
                "streams",
                "--bootstrap-servers",
                bootstrap,
                "--schema-registry-url",
                registry,
                "--http-port",
                "0",
                "--state-dir",
                state.toString(),
                "--exit-after",
                "15m");
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> analytics.stdout().contains("ssdpulse analytics running")
                        || !analytics.handle().isAlive());
        assertThat(analytics.stdout()).as(analytics.stderr()).contains("ssdpulse analytics running");

        try (Script simulate = ssdpulse(
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed001-tweakers-continuous",
                "--duration",
                "8s",
                "--set",
                "targetSize=100MB",
                "--run-id",
                SIMULATED_RUN,
                "--quiet")) {
            assertThat(simulate.awaitExit(120)).as(simulate.stderr()).isZero();
        }
    }

    @AfterAll
    static void stop() {
        if (analytics != null) {
            analytics.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void pythonConsumersPrintPerSecondIopsAndDecodeEveryTopicOfARun() throws Exception {
        JsonNode report = summaryFromReport(SIMULATED_RUN);

        try (Script iops = python(
                "iops_consumer.py",
                "--bootstrap-servers",
                bootstrap,
                "--schema-registry-url",
                registry,
                "--run",
                SIMULATED_RUN,
                "--until-summary",
                "--timeout-s",
                "120")) {
            assertThat(iops.awaitExit(180)).as(iops.stderr()).isZero();
            assertThat(iops.stdout())
                    .containsPattern(SIMULATED_RUN + " WRITE phase=\\d+ t=\\d+s IOPS=\\d+ MB/s=")
                    .contains("summary " + SIMULATED_RUN + " COMPLETED: "
                            + report.path("ioCount").asLong() + " I/Os");
        }

        List<JsonNode> records = new ArrayList<>();
        try (Script dump = python(
                "dump_topics.py",
                "--bootstrap-servers",
                bootstrap,
                "--schema-registry-url",
                registry,
                "--run",
                SIMULATED_RUN)) {
            assertThat(dump.awaitExit(180)).as(dump.stderr()).isZero();
            for (String line : dump.stdout().split("\n")) {
                records.add(JSON.readTree(line));
            }
        }
        JsonNode last = records.remove(records.size() - 1);
        JsonNode counts = last.path("counts");
        for (String topic : List.of(
                "ssdpulse.runs.v1",
                "ssdpulse.io.v1",
                "ssdpulse.smart.v1",
                "ssdpulse.metrics-1s.v1",
                "ssdpulse.latency.v1",
                "ssdpulse.waf.v1",
                "ssdpulse.steady-state.v1")) {
            assertThat(counts.path(topic).asInt())
                    .as(topic + " records decoded")
                    .isPositive();
        }
        assertThat(counts.path("ssdpulse.run-summary.v1").asInt()).isEqualTo(1);
        // no field of any topic is beyond 2^53: the ns start is retired, its replacement is a timestamp
        assertThat(last.path("unsafeIntegers")).isEmpty();

        JsonNode started = only(records, "ssdpulse.runs.v1").path("value");
        Instant start = Instant.parse(started.path("wallClockStart").asText().replace("+00:00", "Z"));
        assertThat(start).isBetween(Instant.now().minus(Duration.ofMinutes(10)), Instant.now());
        assertThat(started.path("wallClockStartEpochNs").isNull()).isTrue();

        JsonNode summary = only(records, "ssdpulse.run-summary.v1").path("value");
        assertThat(summary.path("ioCount").asLong())
                .isEqualTo(report.path("ioCount").asLong())
                .isPositive();
        assertThat(summary.path("durationNs").asLong())
                .isEqualTo(report.path("durationNs").asLong());
        JsonNode writes = summary.path("ops").get(0);
        JsonNode reportWrites = report.path("ops").get(0);
        assertThat(writes.path("op").asText()).isEqualTo(reportWrites.path("op").asText());
        assertThat(writes.path("latency").path("maxNs").asLong())
                .isEqualTo(reportWrites.path("latencyNs").path("max").asLong());
        assertThat(writes.path("latency").path("minNs").asLong())
                .isEqualTo(reportWrites.path("latencyNs").path("min").asLong());
    }

    @Test
    void theJavaScriptConsumerDecodesTheCatalogueWithTheLibrariesDefaults() throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        try (Script catalogue = node(
                JAVASCRIPT_EXAMPLES.resolve("catalogue_consumer.js"),
                "--bootstrap-servers",
                bootstrap,
                "--schema-registry-url",
                registry,
                "--run",
                SIMULATED_RUN,
                "--timeout-s",
                "120")) {
            assertThat(catalogue.awaitExit(180)).as(catalogue.stderr()).isZero();
            for (String line : catalogue.stdout().split("\n")) {
                lines.add(JSON.readTree(line));
            }
        }
        // every run of the catalogue decoded (a record that did not would have failed the consumer), this one shown
        assertThat(lines.get(lines.size() - 1).path("count").asInt()).isPositive();
        JsonNode run = lines.get(0);
        assertThat(run.path("key").asText()).isEqualTo(SIMULATED_RUN);
        JsonNode value = run.path("value");
        assertThat(value.path("runId").asText()).isEqualTo(SIMULATED_RUN);
        assertThat(value.path("wallClockStartEpochNs").isNull()).isTrue();
        // avsc without logical types: timestamp-micros is a number of µs, exact in a double
        long startMicros = value.path("wallClockStart").asLong();
        Instant start = Instant.ofEpochSecond(startMicros / 1_000_000L, startMicros % 1_000_000L * 1_000L);
        assertThat(start).isBetween(Instant.now().minus(Duration.ofMinutes(10)), Instant.now());
        assertThat(value.path("device").path("capacityBytes").asLong()).isPositive();
    }

    @Test
    void eachExampleSaysWhatItNeedsWhenItIsMissing() throws Exception {
        // Python without Debian's dist-packages on its path: as a python3 that is not Debian's
        try (Script dump = Script.start(
                dist.machine,
                Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8"),
                List.of(
                        PYTHON.toString(),
                        "-S",
                        PYTHON_EXAMPLES.resolve("dump_topics.py").toString()))) {
            assertThat(dump.awaitExit(60)).isNotZero();
            assertThat(dump.stderr())
                    .contains("need Debian's python3 (/usr/bin/python3)")
                    .contains("apt-get install python3-confluent-kafka python3-avro python3-requests");
        }
        // the JavaScript example without its packages
        Path bare = Files.createTempDirectory(dist.machine, "js-without-packages-");
        Path script =
                Files.copy(JAVASCRIPT_EXAMPLES.resolve("catalogue_consumer.js"), bare.resolve("catalogue_consumer.js"));
        try (Script catalogue = node(script)) {
            assertThat(catalogue.awaitExit(60)).isEqualTo(2);
            assertThat(catalogue.stderr())
                    .contains("needs Node.js 18 or later")
                    .contains("run `npm ci` in examples/javascript");
        }
    }

    @Test
    void aRunWrittenWithConfluentsPythonSerializerIsAnalysedExactly() throws Exception {
        String runId = "py-import";
        List<long[]> ios = syntheticIos(5_000, new Random(42));
        Path csv = Files.createTempFile(dist.machine, "ios-", ".csv");
        StringBuilder text = new StringBuilder("submit_time_ns,op,offset_bytes,size_bytes,latency_ns,status\n");
        for (long[] io : ios) {
            text.append(io[0])
                    .append(',')
                    .append(io[1] == 0 ? "READ" : "WRITE")
                    .append(',')
                    .append(io[2])
                    .append(',')
                    .append(io[3])
                    .append(',')
                    .append(io[4])
                    .append(',')
                    .append(io[5])
                    .append('\n');
        }
        Files.writeString(csv, text);

        try (Script importer = python(
                "import_run.py",
                "--bootstrap-servers",
                bootstrap,
                "--schema-registry-url",
                registry,
                "--run-id",
                runId,
                "--device-model",
                "Example SSD",
                "--batch-ios",
                "700",
                csv.toString())) {
            assertThat(importer.awaitExit(120)).as(importer.stderr()).isZero();
            assertThat(importer.stdout()).contains("run py-import: 5000 I/Os in 8 batches");
        }
        try (Script verify = ssdpulse("runs", "verify", "--run", runId, "--timeout", "60s")) {
            assertThat(verify.awaitExit(120))
                    .as(verify.stdout() + verify.stderr())
                    .isZero();
        }
        JsonNode live = summaryFromReport(runId);
        JsonNode replayed;
        try (Script replay = ssdpulse("replay", "--run", runId, "--format", "json", "--timeout", "3m")) {
            assertThat(replay.awaitExit(240)).as(replay.stderr()).isZero();
            replayed = JSON.readTree(replay.stdout().substring(replay.stdout().indexOf('{')));
        }

        for (JsonNode summary : List.of(live, replayed)) {
            assertThat(summary.path("ioCount").asLong()).isEqualTo(ios.size());
            assertThat(summary.path("status").asText()).isEqualTo("COMPLETED");
            Map<String, JsonNode> byOp = new TreeMap<>();
            summary.path("ops").forEach(op -> byOp.put(op.path("op").asText(), op));
            assertThat(byOp).containsOnlyKeys("READ", "WRITE");
            for (int op = 0; op < 2; op++) {
                int code = op;
                List<long[]> mine = ios.stream().filter(io -> io[1] == code).toList();
                List<long[]> ok = mine.stream().filter(io -> io[5] == 0).toList();
                JsonNode s = byOp.get(code == 0 ? "READ" : "WRITE");
                assertThat(s.path("ioCount").asLong()).as("I/Os of op %d", code).isEqualTo(mine.size());
                assertThat(s.path("errorCount").asLong()).isEqualTo(mine.size() - ok.size());
                // the summary's bytes count every completed I/O, failed ones included (errorCount says how many failed)
                assertThat(s.path("bytes").asLong())
                        .isEqualTo(mine.stream().mapToLong(io -> io[3]).sum());
                JsonNode latency = s.path("latencyNs");
                assertThat(latency.path("min").asLong())
                        .isEqualTo(mine.stream().mapToLong(io -> io[4]).min().orElseThrow());
                assertThat(latency.path("max").asLong())
                        .isEqualTo(mine.stream().mapToLong(io -> io[4]).max().orElseThrow());
                for (String[] threshold : new String[][] {{"10ms", "10000000"}, {"30ms", "30000000"}}) {
                    long atOrAbove = mine.stream()
                            .filter(io -> io[4] >= Long.parseLong(threshold[1]))
                            .count();
                    assertThat(s.path("countAtOrAbove").path(threshold[0]).asLong())
                            .as(threshold[0])
                            .isEqualTo(atOrAbove);
                }
            }
        }
        assertThat(replayed.path("ops")).isEqualTo(live.path("ops"));
    }

    @Test
    void theDocumentedJavaConsumerCompilesAndPrintsPerSecondIops() throws Exception {
        String page = Files.readString(SOURCE_ROOT.resolve("docs/consumers.md"));
        Matcher m = Pattern.compile(
                        "## A minimal Java consumer of per-second IOPS\\s+```java\\n(.*?)```", Pattern.DOTALL)
                .matcher(page);
        assertThat(m.find()).as("the Java consumer of docs/consumers.md").isTrue();
        String snippet = m.group(1);
        assertThat(snippet).contains("\"localhost:9092\"").contains("\"http://localhost:8081\"");
        String source = """
                import dev.ssdpulse.schemas.avro.WindowMetrics;
                import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
                import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
                import dev.ssdpulse.schemas.topics.Topics;
                import org.apache.kafka.clients.consumer.KafkaConsumer;
                import org.apache.kafka.common.serialization.StringDeserializer;
                import java.time.Duration;
                import java.util.List;
                import java.util.Map;

                public class DocumentedIopsConsumer {
                    public static void main(String[] args) throws Exception {
                %s
                    }
                }
                """.formatted(snippet.replace("\"localhost:9092\"", "\"" + bootstrap + "\"")
                .replace("\"http://localhost:8081\"", "\"" + registry + "\""));
        Path src = Files.createDirectories(dist.machine.resolve("documented-consumer/src"));
        Path classes = Files.createDirectories(dist.machine.resolve("documented-consumer/classes"));
        Files.writeString(src.resolve("DocumentedIopsConsumer.java"), source);
        String classpath = dist.home.resolve("lib") + "/*";
        // the compiler API does not expand a classpath wildcard as the java launcher does
        String jars;
        try (var lib = Files.list(dist.home.resolve("lib"))) {
            jars = String.join(":", lib.map(Path::toString).sorted().toList());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        boolean compiled = javac.getTask(
                        diagnostics,
                        null,
                        null,
                        List.of("-classpath", jars, "-d", classes.toString(), "-Xlint:none"),
                        null,
                        javac.getStandardFileManager(null, null, null)
                                .getJavaFileObjects(src.resolve("DocumentedIopsConsumer.java")))
                .call();
        assertThat(compiled).as(diagnostics.toString()).isTrue();

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        try (Script consumer = Script.start(
                dist.machine,
                dist.onlyJava,
                List.of(
                        java.toString(),
                        "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro",
                        "-cp",
                        classes + ":" + classpath,
                        "DocumentedIopsConsumer"))) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> consumer.stdout().contains(SIMULATED_RUN + " WRITE t=")
                            || !consumer.handle().isAlive());
            assertThat(consumer.stdout())
                    .as(consumer.stderr())
                    .containsPattern(SIMULATED_RUN + " WRITE t=\\d+s IOPS=\\d+ MB/s=[\\d.]+ p99=\\d+us");
        }
    }

    /** I/Os as {submitNs, op (0 read, 1 write), offset, size, latencyNs, status}; a few slow ones and two errors. */
    private static List<long[]> syntheticIos(int count, Random random) {
        List<long[]> ios = new ArrayList<>();
        long submitNs = 1_000L;
        for (int i = 0; i < count; i++) {
            long op = random.nextInt(10) < 7 ? 0 : 1;
            long size = random.nextBoolean() ? 4096 : 65_536;
            long offset = random.nextInt(1 << 18) * 4096L;
            long latencyNs =
                    i % 500 == 7 ? 10_000_000L + random.nextInt(40_000_000) : 20_000L + random.nextInt(2_000_000);
            long status = i == 1234 || i == 4321 ? 5 : 0;
            ios.add(new long[] {submitNs, op, offset, size, latencyNs, status});
            submitNs += 50_000L + random.nextInt(200_000);
        }
        return ios;
    }

    private static JsonNode summaryFromReport(String runId) throws Exception {
        JsonNode[] summary = new JsonNode[1];
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    try (Script report = ssdpulse("report", "--run", runId, "--format", "json")) {
                        if (report.awaitExit(60) != 0) {
                            return false;
                        }
                        summary[0] = JSON.readTree(report.stdout());
                        return true;
                    }
                });
        return summary[0];
    }

    private static JsonNode only(List<JsonNode> records, String topic) {
        List<JsonNode> matching = records.stream()
                .filter(r -> r.path("topic").asText().equals(topic))
                .toList();
        assertThat(matching).as(topic).hasSize(1);
        return matching.get(0);
    }

    private static Script ssdpulse(String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-servers", bootstrap, "--schema-registry-url", registry));
        return dist.run(all.toArray(String[]::new));
    }

    private static Script node(Path script, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(NODE.toString(), script.toString()));
        command.addAll(List.of(args));
        return Script.start(dist.machine, Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8"), command);
    }

    private static Script python(String script, String... args) throws IOException {
        List<String> command = new ArrayList<>(
                List.of(PYTHON.toString(), PYTHON_EXAMPLES.resolve(script).toString()));
        command.addAll(List.of(args));
        return Script.start(dist.machine, Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8"), command);
    }
}
