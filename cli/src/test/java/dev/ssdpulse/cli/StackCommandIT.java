package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker;
import dev.ssdpulse.platform.testing.TestJvmOptions;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.schemas.topics.Topics;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
            try (var admin = Admin.create(Map.of("bootstrap.servers", first.bootstrap))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)))
                        .all()
                        .get();
            }
            try (var producer = new KafkaProducer<>(
                    Map.<String, Object>of("bootstrap.servers", first.bootstrap),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "k", "hello")).get();
            }
            assertThat(consumeOne(first.bootstrap, topic)).isEqualTo("hello");
            schemaId = post(
                    first.registry + "/subjects/stack-it-value/versions",
                    "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"P\\\",\\\"fields\\\":[]}\"}");
            assertThat(schemaId).contains("\"id\"");
            first.interruptAndAwaitNoDescendants();
        }
        try (RunningStack second = RunningStack.start(dataDir)) {
            assertThat(consumeOne(second.bootstrap, "stack-it")).isEqualTo("hello");
            String again = post(
                    second.registry + "/subjects/stack-it-value/versions",
                    "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"P\\\",\\\"fields\\\":[]}\"}");
            assertThat(again).isEqualTo(schemaId);
            second.interruptAndAwaitNoDescendants();
        }
    }

    @Test
    void threeBrokersFormAQuorumOfThreeWithEveryTopicReplicatedThreeTimesAndStopTogether() throws Exception {
        try (RunningStack stack = RunningStack.start(dataDir, "--brokers", "3")) {
            assertThat(stack.bootstrap.split(",")).as("every broker listed").hasSize(3);
            assertThat(stack.output)
                    .anyMatch(l -> l.contains("kafka cluster     : 3 brokers, KRaft quorum of 3;"
                            + " topics with 3 replicas, min.insync.replicas 2"));
            try (var admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrap))) {
                assertThat(admin.describeMetadataQuorum()
                                .quorumInfo()
                                .get(30, TimeUnit.SECONDS)
                                .voters())
                        .hasSize(3);
                String runs = Topics.RUNS.name();
                var described = admin.describeTopics(List.of(runs, "_schemas"))
                        .allTopicNames()
                        .get(30, TimeUnit.SECONDS);
                assertThat(described.values())
                        .allSatisfy(topic -> assertThat(topic.partitions())
                                .allSatisfy(p -> assertThat(p.replicas()).hasSize(3)));
                var resource = new ConfigResource(ConfigResource.Type.TOPIC, runs);
                assertThat(admin.describeConfigs(List.of(resource))
                                .all()
                                .get(30, TimeUnit.SECONDS)
                                .get(resource)
                                .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)
                                .value())
                        .isEqualTo("2");

                // a topic created without settings, as Kafka Streams creates its internal ones: the brokers' defaults
                admin.createTopics(List.of(new NewTopic("stack-it-3", Optional.of(1), Optional.empty())))
                        .all()
                        .get(30, TimeUnit.SECONDS);
                // createTopics returns once the controller has the topic; the broker the admin asks next may not
                // have its metadata yet (UnknownTopicOrPartitionException), so the first look is retried
                var own = new ConfigResource(ConfigResource.Type.TOPIC, "stack-it-3");
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> {
                    assertThat(admin.describeTopics(List.of("stack-it-3"))
                                    .allTopicNames()
                                    .get(30, TimeUnit.SECONDS)
                                    .get("stack-it-3")
                                    .partitions()
                                    .get(0)
                                    .replicas())
                            .hasSize(3);
                    assertThat(admin.describeConfigs(List.of(own))
                                    .all()
                                    .get(30, TimeUnit.SECONDS)
                                    .get(own)
                                    .get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)
                                    .value())
                            .isEqualTo("2");
                });
            }
            // ssdpulse's producer settings: acks=all, idempotent
            Map<String, Object> producerProps = new HashMap<>(RunProducers.defaults());
            producerProps.put("bootstrap.servers", stack.bootstrap);
            try (var producer = new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("stack-it-3", "k", "replicated"))
                        .get(30, TimeUnit.SECONDS);
            }
            assertThat(consumeOne(stack.bootstrap, "stack-it-3")).isEqualTo("replicated");
            // the stack starts no other processes than its broker JVMs
            assertThat(stack.process.children().count())
                    .as("one JVM per broker")
                    .isEqualTo(3);
            stack.interruptAndAwaitNoDescendants();
        }
    }

    private static String consumeOne(String bootstrap, String topic) {
        Map<String, Object> props = Map.of(
                "bootstrap.servers", bootstrap, "group.id", "g-" + System.nanoTime(), "auto.offset.reset", "earliest");
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<String> values = new ArrayList<>();
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("a record on " + topic)
                    .atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                        return !values.isEmpty();
                    });
            return values.get(0);
        }
    }

    private static String post(String url, String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url))
                                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** {@code ssdpulse stack} in its own JVM, as the launcher runs it. */
    static final class RunningStack implements AutoCloseable {
        final Process process;
        final String bootstrap;
        final String registry;
        /** The lines printed until "Press Ctrl-C to stop." */
        final List<String> output;

        private RunningStack(Process process, String bootstrap, String registry, List<String> output) {
            this.process = process;
            this.bootstrap = bootstrap;
            this.registry = registry;
            this.output = List.copyOf(output);
        }

        static RunningStack start(Path dataDir, String... extraArgs) throws Exception {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            // env --default-signal=INT: a shell without job control starts background commands with SIGINT
            // ignored, and that is inherited down to this child, whose JVM then installs no handler (as under
            // nohup) and never sees the Ctrl-C this test sends; a build started with `.ci/run &` from a script
            // failed all three stack tests that way
            List<String> command = new ArrayList<>(List.of(
                    "env",
                    "--default-signal=INT",
                    java,
                    "-Xmx256m",
                    "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro",
                    // the brokers the stack starts get the build's test broker options, as in-process ones do
                    "-D" + EmbeddedKafkaBroker.JVM_ARGS_PROPERTY + "="
                            + System.getProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, ""),
                    "-cp",
                    System.getProperty("java.class.path")));
            // and the stack's own JVM the build's options for the short-lived JVMs tests start (C1 only), after `java`
            command.addAll(command.indexOf(java) + 1, TestJvmOptions.forChildJvms());
            command.addAll(List.of(
                    Main.class.getName(),
                    "stack",
                    "--data-dir",
                    dataDir.toString(),
                    "--kafka-port",
                    "0",
                    "--registry-port",
                    "0",
                    "--broker-heap-mb",
                    "256"));
            command.addAll(List.of(extraArgs));
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String bootstrap = null;
            String registry = null;
            StringBuilder seen = new StringBuilder();
            List<String> lines = new ArrayList<>();
            // readLine blocks: a stack that hangs silently is caught by the test's time limit
            String line;
            while ((line = reader.readLine()) != null) {
                seen.append(line).append('\n');
                lines.add(line);
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
            Thread drain = new Thread(() -> reader.lines().forEach(l -> {}));
            drain.setDaemon(true);
            drain.start();
            return new RunningStack(process, bootstrap, registry, lines);
        }

        /** SIGINT, as Ctrl-C sends it; the stack and its broker JVM must both be gone afterwards. */
        void interruptAndAwaitNoDescendants() throws Exception {
            List<ProcessHandle> descendants = process.descendants().toList();
            assertThat(descendants).as("the broker runs as a child JVM").isNotEmpty();
            new ProcessBuilder("kill", "-INT", Long.toString(process.pid()))
                    .start()
                    .waitFor();
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("stack exits after SIGINT")
                    .isTrue();
            await("no orphan process of the stack")
                    .atMost(Duration.ofSeconds(30))
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
