package dev.ssdpulse.cli;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code ssdpulse stack} as a user runs it: a separate JVM, a plain Kafka client producing and consuming
 * through it, Ctrl-C (SIGINT) leaving no process behind, and a second start on the same data directory
 * keeping the topics and the schema ids.
 */
class StackCommandIT {
    private static final Pattern BOOTSTRAP = Pattern.compile("bootstrap servers : (\\S+)");
    private static final Pattern REGISTRY = Pattern.compile("schema registry\\s+: (\\S+)");

    @TempDir
    Path dataDir;

    @Test
    void stackServesPlainClientsStopsCleanlyOnCtrlCAndKeepsTopicsAndSchemaIdsAcrossRestarts() throws Exception {
        String schemaId;
        try (RunningStack first = RunningStack.start(dataDir)) {
            String topic = "stack-it";
            try (var admin = org.apache.kafka.clients.admin.Admin.create(Map.of("bootstrap.servers", first.bootstrap))) {
                admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1))).all().get();
            }
            try (var producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", first.bootstrap),
                    new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "k", "hello")).get();
            }
            assertThat(consumeOne(first.bootstrap, topic)).isEqualTo("hello");
            schemaId = post(first.registry + "/subjects/stack-it-value/versions",
                    "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"P\\\",\\\"fields\\\":[]}\"}");
            assertThat(schemaId).contains("\"id\"");
            first.interruptAndAwaitNoDescendants();
        }
        try (RunningStack second = RunningStack.start(dataDir)) {
            assertThat(consumeOne(second.bootstrap, "stack-it")).isEqualTo("hello");
            String again = post(second.registry + "/subjects/stack-it-value/versions",
                    "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"P\\\",\\\"fields\\\":[]}\"}");
            assertThat(again).isEqualTo(schemaId);
            second.interruptAndAwaitNoDescendants();
        }
    }

    private static String consumeOne(String bootstrap, String topic) {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "group.id", "g-" + System.nanoTime(),
                "auto.offset.reset", "earliest");
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<String> values = new ArrayList<>();
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("a record on " + topic).atMost(Duration.ofSeconds(60)).pollInSameThread()
                    .pollInterval(Duration.ofMillis(1)).until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                        return !values.isEmpty();
                    });
            return values.get(0);
        }
    }

    private static String post(String url, String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** {@code ssdpulse stack} in its own JVM, as the launcher runs it. */
    private static final class RunningStack implements AutoCloseable {
        final Process process;
        final String bootstrap;
        final String registry;
        final List<String> output = new ArrayList<>();

        private RunningStack(Process process, String bootstrap, String registry) {
            this.process = process;
            this.bootstrap = bootstrap;
            this.registry = registry;
        }

        static RunningStack start(Path dataDir) throws Exception {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process process = new ProcessBuilder(java, "-Xmx256m",
                    "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro",
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                    "stack", "--data-dir", dataDir.toString(), "--kafka-port", "0", "--registry-port", "0",
                    "--broker-heap-mb", "256")
                    .redirectErrorStream(true).start();
            BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String bootstrap = null;
            String registry = null;
            StringBuilder seen = new StringBuilder();
            // readLine blocks: a stack that hangs silently is caught by the test's time limit
            String line;
            while ((line = reader.readLine()) != null) {
                seen.append(line).append('\n');
                Matcher b = BOOTSTRAP.matcher(line);
                if (b.find()) {
                    bootstrap = b.group(1);
                }
                Matcher r = REGISTRY.matcher(line);
                if (r.find()) {
                    registry = r.group(1);
                }
                if (line.contains("Press Ctrl-C to stop.")) {
                    break;
                }
            }
            if (bootstrap == null || registry == null) {
                process.destroyForcibly();
                throw new AssertionError("stack did not come up:\n" + seen);
            }
            // Keep draining so the child never blocks on a full pipe.
            Thread drain = new Thread(() -> reader.lines().forEach(l -> { }));
            drain.setDaemon(true);
            drain.start();
            return new RunningStack(process, bootstrap, registry);
        }

        /** SIGINT, as Ctrl-C sends it; the stack and its broker JVM must both be gone afterwards. */
        void interruptAndAwaitNoDescendants() throws Exception {
            List<ProcessHandle> descendants = process.descendants().toList();
            assertThat(descendants).as("the broker runs as a child JVM").isNotEmpty();
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stack exits after SIGINT").isTrue();
            await("no orphan process of the stack").atMost(Duration.ofSeconds(30))
                    .until(() -> descendants.stream().noneMatch(ProcessHandle::isAlive));
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }
    }
}
