package dev.ssdpulse.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `ssdpulse stack --data-dir X` semantics: a second stack on the same directory keeps topics, records and schema ids.
 */
class LocalStackIT {
    private static final String SCHEMA_BODY = "{\"schema\":\"{\\\"type\\\":\\\"record\\\",\\\"name\\\":\\\"R\\\","
            + "\\\"fields\\\":[{\\\"name\\\":\\\"a\\\",\\\"type\\\":\\\"int\\\"}]}\"}";
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dataDir;

    @Test
    void restartingOnTheSameDataDirectoryKeepsTopicsRecordsAndSchemaIds() throws Exception {
        List<NewTopic> topics = List.of(
                new NewTopic("ssdpulse.test-a.v1", 3, (short) 1), new NewTopic("ssdpulse.test-b.v1", 1, (short) 1));
        String firstId;
        ProcessHandle firstBroker;
        try (LocalStack stack = LocalStack.start(dataDir)) {
            System.out.printf(
                    "LocalStack first start (format + broker + registry): %d ms%n",
                    stack.startDuration().toMillis());
            assertThat(stack.createTopics(topics))
                    .containsExactlyInAnyOrder("ssdpulse.test-a.v1", "ssdpulse.test-b.v1");
            assertThat(stack.createTopics(topics)).as("idempotent").isEmpty();
            firstId = register(stack.schemaRegistryUrl(), "ssdpulse.test-a.v1-value");
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
            try (KafkaProducer<String, String> producer =
                    new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("ssdpulse.test-b.v1", "run-1", "hello"))
                        .get(30, TimeUnit.SECONDS);
            }
            firstBroker = stack.broker().processHandle().orElseThrow();
        }
        assertThat(firstBroker.isAlive()).as("broker process gone after close").isFalse();

        try (LocalStack stack = LocalStack.start(dataDir)) {
            System.out.printf(
                    "LocalStack restart (existing storage + _schemas replay): %d ms%n",
                    stack.startDuration().toMillis());
            try (Admin admin = Admin.create(
                    Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
                assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS))
                        .contains("ssdpulse.test-a.v1", "ssdpulse.test-b.v1", "_schemas");
            }
            assertThat(register(stack.schemaRegistryUrl(), "ssdpulse.test-a.v1-value"))
                    .isEqualTo(firstId);
            assertThat(readOne(stack.bootstrapServers(), "ssdpulse.test-b.v1")).isEqualTo("hello");
        }
    }

    private String register(String registryUrl, String subject) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(registryUrl + "/subjects/" + subject + "/versions"))
                        .POST(HttpRequest.BodyPublishers.ofString(SCHEMA_BODY))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private static String readOne(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            List<String> values = new ArrayList<>();
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("a record on " + topic)
                    .atMost(Duration.ofSeconds(30))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                        return !values.isEmpty();
                    });
            return values.get(0);
        }
    }
}
