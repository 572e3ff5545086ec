package dev.ssdpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs its own broker (not the shared test stack) because it stops and restarts it and checks the
 * process is gone.
 */
class EmbeddedKafkaBrokerIT {

    @TempDir
    Path dataDir;

    @Test
    void roundTripsRecordsKeepsTopicsOverRestartAndLeavesNoProcess() throws Exception {
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(dataDir))) {
            // the options of EmbeddedKafkaBroker.JVM_ARGS_PROPERTY reach the broker's command line (the build runs its
            // test brokers C1-only through it); a marker property makes the check independent of what the build sets
            String buildsOptions = System.getProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY);
            System.setProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, "-XX:TieredStopAtLevel=1  -Dssdpulse.test.brokerMarker=42 ");
            try {
                broker.start();
            } finally {
                if (buildsOptions == null) {
                    System.clearProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY);
                } else {
                    System.setProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, buildsOptions);
                }
            }
            List<String> arguments = commandLine(broker.processHandle().orElseThrow().pid());
            assertThat(arguments).contains(KafkaBrokerProcessMain.class.getName()).contains("-cp");
            // the JVM options: what comes before the class path (which is too long to be worth printing)
            assertThat(arguments.subList(0, arguments.indexOf("-cp")))
                    .contains("-XX:TieredStopAtLevel=1", "-Dssdpulse.test.brokerMarker=42").doesNotContain("");
            System.out.printf("embedded broker first start (format + start): %d ms%n", broker.lastStartDuration().toMillis());
            assertThat(Files.exists(dataDir.resolve("kafka-logs/meta.properties"))).isTrue();

            try (Admin admin = admin(broker)) {
                admin.createTopics(List.of(new NewTopic("roundtrip", 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            produce(broker, "roundtrip", 100);
            assertThat(consumeValues(broker, "roundtrip", 100)).hasSize(100).contains("v0", "v99");

            ProcessHandle first = broker.processHandle().orElseThrow();
            String bootstrap = broker.bootstrapServers();
            broker.restart();
            System.out.printf("embedded broker restart on existing storage: %d ms%n", broker.lastStartDuration().toMillis());
            assertThat(first.isAlive()).isFalse();
            assertThat(ProcessHandle.of(first.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(broker.bootstrapServers()).as("ports reused when free").isEqualTo(bootstrap);

            try (Admin admin = admin(broker)) {
                Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
                assertThat(topics).contains("roundtrip");
            }
            assertThat(consumeValues(broker, "roundtrip", 100)).as("records survive the restart").hasSize(100);

            ProcessHandle second = broker.processHandle().orElseThrow();
            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            assertThat(second.isAlive()).isFalse();
            assertThat(ProcessHandle.of(second.pid()).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(Files.readString(broker.logFile())).contains("Transition from STARTING to STARTED");
        }
    }

    @Test
    void aBrokerThatCannotStartFailsFastWithTheTailOfItsLog(@TempDir Path otherDir) throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(otherDir)
                     .withPorts(taken.getLocalPort(), LoopbackPorts.freePort()))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(broker::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("broker.log")
                    .hasMessageContaining(Integer.toString(taken.getLocalPort()));
            assertThat(broker.isRunning()).isFalse();
        }
    }

    /** The process's arguments as the kernel holds them (Linux: NUL-separated in /proc/PID/cmdline). */
    private static List<String> commandLine(long pid) throws java.io.IOException {
        String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), java.nio.charset.StandardCharsets.UTF_8);
        return List.of(raw.split("\0"));
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static void produce(EmbeddedKafkaBroker broker, String topic, int count) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
        }
    }

    private static List<String> consumeValues(EmbeddedKafkaBroker broker, String topic, int expected) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "g-" + System.nanoTime());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await(expected + " records on " + topic).atMost(Duration.ofSeconds(30)).pollInSameThread()
                    .pollInterval(Duration.ofMillis(1)).until(() -> {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                            values.add(r.value());
                        }
                        return values.size() >= expected;
                    });
        }
        return values;
    }
}
