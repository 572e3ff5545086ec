package dev.ssdpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.Assertions;
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
        try (EmbeddedKafkaBroker broker =
                new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(dataDir))) {
            // the options of EmbeddedKafkaBroker.JVM_ARGS_PROPERTY reach the broker's command line (the build runs its
            // test brokers C1-only through it); a marker property makes the check independent of what the build sets
            String buildsOptions = System.getProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY);
            System.setProperty(
                    EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, "-XX:TieredStopAtLevel=1  -Dssdpulse.test.brokerMarker=42 ");
            try {
                broker.start();
            } finally {
                if (buildsOptions == null) {
                    System.clearProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY);
                } else {
                    System.setProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, buildsOptions);
                }
            }
            List<String> arguments =
                    commandLine(broker.processHandle().orElseThrow().pid());
            assertThat(arguments)
                    .contains(KafkaBrokerProcessMain.class.getName())
                    .contains("-cp");
            // the JVM options: what comes before the class path (which is too long to be worth printing)
            assertThat(arguments.subList(0, arguments.indexOf("-cp")))
                    .contains("-XX:TieredStopAtLevel=1", "-Dssdpulse.test.brokerMarker=42")
                    .doesNotContain("");
            System.out.printf(
                    "embedded broker first start (format + start): %d ms%n",
                    broker.lastStartDuration().toMillis());
            assertThat(Files.exists(dataDir.resolve("kafka-logs/meta.properties")))
                    .isTrue();

            try (Admin admin = admin(broker)) {
                admin.createTopics(List.of(new NewTopic("roundtrip", 2, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            produce(broker, "roundtrip", 100);
            assertThat(consumeValues(broker, "roundtrip", 100)).hasSize(100).contains("v0", "v99");

            ProcessHandle first = broker.processHandle().orElseThrow();
            String bootstrap = broker.bootstrapServers();
            broker.restart();
            System.out.printf(
                    "embedded broker restart on existing storage: %d ms%n",
                    broker.lastStartDuration().toMillis());
            assertThat(first.isAlive()).isFalse();
            assertThat(ProcessHandle.of(first.pid()).map(ProcessHandle::isAlive).orElse(false))
                    .isFalse();
            assertThat(broker.bootstrapServers()).as("ports reused when free").isEqualTo(bootstrap);

            try (Admin admin = admin(broker)) {
                Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
                assertThat(topics).contains("roundtrip");
            }
            assertThat(consumeValues(broker, "roundtrip", 100))
                    .as("records survive the restart")
                    .hasSize(100);

            ProcessHandle second = broker.processHandle().orElseThrow();
            broker.stop();
            assertThat(broker.isRunning()).isFalse();
            assertThat(second.isAlive()).isFalse();
            assertThat(ProcessHandle.of(second.pid())
                            .map(ProcessHandle::isAlive)
                            .orElse(false))
                    .isFalse();
            assertThat(Files.readString(broker.logFile())).contains("Transition from STARTING to STARTED");
        }
    }

    /**
     * close() of a broker in the user's directory is a controlled shutdown that keeps the data; of a broker in a
     * temporary directory, a kill (its data is deleted, a controlled shutdown would save nothing) and the directory
     * goes. The temporary broker's log is read through a descriptor opened before close(): Linux keeps a deleted
     * file readable through it, so what the broker wrote up to its end can still be checked.
     */
    @Test
    void closeStopsABrokerInTheUsersDirectoryAndKillsATemporaryOneAndDeletesItsData(@TempDir Path usersDir)
            throws Exception {
        String controlledShutdown = "Transition from STARTED to SHUTTING_DOWN";
        ProcessHandle kept;
        try (EmbeddedKafkaBroker broker =
                new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(usersDir))) {
            broker.start();
            kept = broker.processHandle().orElseThrow();
            broker.close();
            assertThat(kept.isAlive()).isFalse();
            assertThat(Files.readString(broker.logFile())).contains(controlledShutdown);
            assertThat(usersDir.resolve("kafka-logs/meta.properties")).exists();
        }

        EmbeddedKafkaBroker temporary = new EmbeddedKafkaBroker();
        Path temporaryDir = temporary.dataDir();
        try (temporary) {
            temporary.start();
            ProcessHandle killed = temporary.processHandle().orElseThrow();
            try (InputStream log = Files.newInputStream(temporary.logFile())) {
                temporary.close();
                assertThat(killed.isAlive()).isFalse();
                assertThat(temporaryDir).doesNotExist();
                String written = new String(log.readAllBytes(), StandardCharsets.UTF_8);
                assertThat(written)
                        .contains("Transition from STARTING to STARTED")
                        .doesNotContain(controlledShutdown);
            }
        }
    }

    /**
     * The broker looks for timed-out transactions every second (Kafka's default: every 10 s), so a producer that
     * vanished mid-transaction (a killed Streams instance) holds back read_committed readers (the other instances,
     * the dashboard's consumers) for its transaction timeout plus at most about a second. Three abandoned
     * transactions with a 1-s timeout, each followed by a plain record: every plain record must be readable within
     * 4.5 s of the transaction's start. With the default scan each trial passes with a chance of about 35 %, all
     * three with about 4 %.
     */
    @Test
    void aTransactionWhoseProducerVanishedIsAbortedWithinAboutASecondOfItsTimeout() throws Exception {
        String topic = "abandoned-transactions";
        List<KafkaProducer<String, String>> abandoned = new ArrayList<>();
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker().start();
                Admin admin = admin(broker);
                KafkaConsumer<String, String> reader = readCommitted(broker)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            TopicPartition partition = new TopicPartition(topic, 0);
            reader.assign(List.of(partition));
            reader.seekToBeginning(List.of(partition));
            try {
                for (int trial = 0; trial < 3; trial++) {
                    Properties p = new Properties();
                    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
                    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "vanishing-" + trial);
                    p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1000);
                    KafkaProducer<String, String> producer =
                            new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
                    abandoned.add(producer);
                    producer.initTransactions();
                    producer.beginTransaction();
                    long startNs = System.nanoTime();
                    producer.send(new ProducerRecord<>(topic, "open-" + trial)).get(30, TimeUnit.SECONDS);
                    String plain = "after-" + trial;
                    produce(broker, topic, plain);
                    List<String> seen = new ArrayList<>();
                    await(plain + " readable")
                            .atMost(Duration.ofSeconds(30))
                            .pollInSameThread()
                            .pollInterval(Duration.ofMillis(1))
                            .until(() -> {
                                reader.poll(Duration.ofMillis(50)).forEach(r -> seen.add(r.value()));
                                return seen.contains(plain);
                            });
                    long readableMs = (System.nanoTime() - startNs) / 1_000_000;
                    System.out.printf(
                            "abandoned transaction %d: the record after it readable after %d ms%n", trial, readableMs);
                    assertThat(seen).as("the abandoned transaction was aborted").doesNotContain("open-" + trial);
                    assertThat(readableMs)
                            .as("transaction timeout 1 s + scan every 1 s + margin")
                            .isLessThan(4_500);
                }
            } finally {
                // a forced close does not abort: the transactions were left to the broker, as by a killed process
                abandoned.forEach(producer -> producer.close(Duration.ZERO));
            }
        }
    }

    private static KafkaConsumer<String, String> readCommitted(EmbeddedKafkaBroker broker) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    private static void produce(EmbeddedKafkaBroker broker, String topic, String value) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, value));
            producer.flush();
        }
    }

    @Test
    void aBrokerThatCannotStartFailsFastWithTheTailOfItsLog(@TempDir Path otherDir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(BrokerSettings.defaults()
                        .withDataDir(otherDir)
                        .withPorts(taken.getLocalPort(), LoopbackPorts.freePort()))) {
            Assertions.assertThatThrownBy(broker::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("broker.log")
                    .hasMessageContaining(Integer.toString(taken.getLocalPort()));
            assertThat(broker.isRunning()).isFalse();
        }
    }

    /** The process's arguments as the kernel holds them (Linux: NUL-separated in /proc/PID/cmdline). */
    private static List<String> commandLine(long pid) throws IOException {
        String raw =
                new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")), StandardCharsets.UTF_8);
        return List.of(raw.split("\0"));
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static void produce(EmbeddedKafkaBroker broker, String topic, int count) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
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
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await(expected + " records on " + topic)
                    .atMost(Duration.ofSeconds(30))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                            values.add(r.value());
                        }
                        return values.size() >= expected;
                    });
        }
        return values;
    }
}
