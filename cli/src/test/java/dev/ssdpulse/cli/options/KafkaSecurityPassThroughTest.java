package dev.ssdpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.ssdpulse.cli.analytics.StreamsCommand;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.streams.app.AnalyticsApp;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * SASL and TLS settings given with --kafka-config FILE or -X key=value reach the producer, the consumer, the
 * admin client and every Kafka Streams client unchanged (values with spaces, quotes, '=' and ';' included).
 */
class KafkaSecurityPassThroughTest {
    private static final Map<String, String> SECURITY = security();

    @Command(name = "probe")
    static final class Probe {
        @Mixin
        KafkaOptions kafka;

        @Mixin
        AnalyticsOptions analytics;
    }

    private static Map<String, String> security() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("security.protocol", "SASL_SSL");
        m.put("sasl.mechanism", "SCRAM-SHA-512");
        m.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"bench user\" password=\"p=a;ss w\\\"ord\";");
        m.put("ssl.truststore.location", "/etc/kafka/secrets/trust store.jks");
        m.put("ssl.truststore.password", "trust=me;now");
        m.put("ssl.truststore.type", "PKCS12");
        m.put("ssl.keystore.location", "/etc/kafka/secrets/client.p12");
        m.put("ssl.keystore.password", "k3y#store");
        m.put("ssl.key.password", "k3y");
        m.put("ssl.endpoint.identification.algorithm", "https");
        m.put("sasl.login.connect.timeout.ms", "15000");
        return m;
    }

    private static Probe parse(String... args) {
        Probe probe = new Probe();
        // the CLI's converters ("1s" durations), as Main registers them
        new CommandLine(probe)
                .registerConverter(Duration.class, text -> Duration.ofNanos(Units.parseDurationNs(text)))
                .parseArgs(args);
        return probe;
    }

    @Test
    void settingsFromAKafkaConfigFileReachEveryClient(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Properties p = new Properties();
        p.putAll(SECURITY);
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "test client config");
        }
        assertEveryClientGets(
                parse("--bootstrap-servers", "broker-1:9093", "--kafka-config", file.toString()), SECURITY);
    }

    @Test
    void settingsFromDashXReachEveryClient() {
        List<String> args = new ArrayList<>(List.of("--bootstrap-servers", "broker-1:9093"));
        SECURITY.forEach((k, v) -> {
            args.add("-X");
            args.add(k + "=" + v);
        });
        assertEveryClientGets(parse(args.toArray(String[]::new)), SECURITY);
    }

    @Test
    void dashXWinsOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "security.protocol=SSL\nssl.truststore.location=/from/file.jks\n");
        Map<String, String> expected = new HashMap<>();
        expected.put("security.protocol", "SASL_SSL");
        expected.put("ssl.truststore.location", "/from/file.jks");
        expected.put("sasl.jaas.config", SECURITY.get("sasl.jaas.config"));
        expected.put("sasl.mechanism", "PLAIN");
        assertEveryClientGets(
                parse(
                        "--kafka-config",
                        file.toString(),
                        "-X",
                        "security.protocol=SASL_SSL",
                        "-X",
                        "sasl.mechanism=PLAIN",
                        "-X",
                        "sasl.jaas.config=" + SECURITY.get("sasl.jaas.config")),
                expected);
    }

    @Test
    void registryCredentialsFromDashXReachTheSchemaRegistry() throws Exception {
        AtomicReference<String> auth = new AtomicReference<>();
        HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        registry.createContext("/", ex -> {
            auth.set(ex.getRequestHeaders().getFirst("Authorization"));
            byte[] body = "[]".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        registry.start();
        try {
            Probe probe = parse(
                    "--schema-registry-url",
                    "http://127.0.0.1:" + registry.getAddress().getPort(),
                    "-X",
                    "basic.auth.credentials.source=USER_INFO",
                    "-X",
                    "basic.auth.user.info=bench:p=a:ss");
            try (var client = probe.kafka.registryClient()) {
                assertThat(client.listSubjects()).isEmpty();
            }
            assertThat(auth.get())
                    .isEqualTo("Basic "
                            + Base64.getEncoder().encodeToString("bench:p=a:ss".getBytes(StandardCharsets.UTF_8)));
        } finally {
            registry.stop(0);
        }
    }

    @Test
    void theHttpApiBindsToLoopbackUnlessToldOtherwise() {
        CommandLine streams = new CommandLine(new StreamsCommand());
        assertThat(streams.getCommandSpec().findOption("--http-bind").defaultValue())
                .isEqualTo("127.0.0.1");
    }

    private static void assertEveryClientGets(Probe probe, Map<String, String> expected) {
        Map<String, Object> client = probe.kafka.clientProperties();
        assertContains("client properties", client, expected);

        Map<String, Object> producer = new HashMap<>(RunProducers.config(client));
        producer.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        producer.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        assertParsed("producer", new ProducerConfig(producer), expected);

        Map<String, Object> consumer = new HashMap<>(RunRecords.consumerProperties(client));
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        assertParsed("consumer", new ConsumerConfig(consumer), expected);

        // TopicSetup hands the client properties to Admin.create as they are
        assertParsed("admin", new AdminClientConfig(client), expected);

        Properties streamsProps = AnalyticsApp.streamsProperties(probe.analytics.toConfig(probe.kafka));
        assertThat(streamsProps.getProperty("bootstrap.servers")).isEqualTo(client.get("bootstrap.servers"));
        StreamsConfig streams = new StreamsConfig(streamsProps);
        assertContains("streams main consumer", streams.getMainConsumerConfigs("g", "c", 0), expected);
        assertContains("streams restore consumer", streams.getRestoreConsumerConfigs("c"), expected);
        assertContains("streams global consumer", streams.getGlobalConsumerConfigs("c"), expected);
        assertContains("streams producer", streams.getProducerConfigs("c"), expected);
        assertContains("streams admin", streams.getAdminConfigs("c"), expected);
    }

    private static void assertParsed(String client, AbstractConfig config, Map<String, String> expected) {
        assertContains(client + " (originals)", config.originals(), expected);
        assertContains(client + " (parsed)", config.values(), expected);
    }

    private static void assertContains(String what, Map<String, ?> actual, Map<String, String> expected) {
        expected.forEach((k, v) -> {
            Object got = actual.get(k);
            String text = got instanceof Password password ? password.value() : String.valueOf(got);
            assertThat(text).as(what + ": " + k).isEqualTo(v);
        });
    }
}
