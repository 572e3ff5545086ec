package dev.ssdpulse.platform.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secured stack on a real broker: the users' files work, what the plan forbids is refused by Kafka and by the
 * registry; a restart keeps the credentials and the certificate.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SecureLocalStackIT {
    private static final Schema SCHEMA = new Schema.Parser().parse(
            "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}");

    @TempDir
    Path dataDir;

    @Test
    void usersGetWhatThePlanGivesAndNothingElse() throws Exception {
        String certificateSerial;
        String producerFile;
        try (LocalStack stack = LocalStack.start(BrokerSettings.defaults().withDataDir(dataDir), 1, 0, true)) {
            System.out.printf("secured LocalStack first start (certificates, format with SCRAM users, ACLs): %d ms%n",
                    stack.startDuration().toMillis());
            assertThat(stack.schemaRegistryUrl()).startsWith("https://127.0.0.1:");
            stack.createTopics(TopicCreation.catalogue(1, (short) 1, 1));
            Path secure = dataDir.resolve(SecureStack.DIRECTORY);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secure))).isEqualTo("rwx------");
            for (StackUser user : StackUser.values()) {
                Path file = stack.clientFiles().get(user);
                assertThat(file).isEqualTo(secure.resolve(user.propertiesFileName()));
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            }
            producerFile = Files.readString(stack.clientFiles().get(StackUser.PRODUCER));

            Map<String, Object> producer = load(stack.clientFiles().get(StackUser.PRODUCER));
            send(producer, Topics.IO.name());

            Map<String, Object> reader = load(stack.clientFiles().get(StackUser.READER));
            assertThatThrownBy(() -> send(reader, Topics.IO.name())).hasCauseInstanceOf(TopicAuthorizationException.class);

            Map<String, Object> wrongPassword = new HashMap<>(producer);
            wrongPassword.put("sasl.jaas.config", ClientPropertiesFiles.scramJaas("producer", "not-the-password"));
            assertThatThrownBy(() -> send(wrongPassword, Topics.IO.name()))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);

            try (var producerRegistry = HttpSchemaRegistryClient.fromConfig(producer);
                 var readerRegistry = HttpSchemaRegistryClient.fromConfig(reader)) {
                int id = producerRegistry.register("test-value", SCHEMA);
                assertThat(readerRegistry.getById(id)).isEqualTo(SCHEMA);
                assertThatThrownBy(() -> readerRegistry.register("other-value", SCHEMA))
                        .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                            assertThat(e.httpStatus()).isEqualTo(403);
                            assertThat(e.getMessage()).contains("user 'reader' may read the registry but not POST");
                        });
                Map<String, Object> noAuth = new HashMap<>(producer);
                noAuth.remove("basic.auth.user.info");
                noAuth.remove("basic.auth.credentials.source");
                try (var unauthenticated = HttpSchemaRegistryClient.fromConfig(noAuth)) {
                    assertThatThrownBy(unauthenticated::listSubjects)
                            .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                                assertThat(e.httpStatus()).isEqualTo(401);
                                assertThat(e.errorCode()).isEqualTo(40101);
                                assertThat(e.getMessage()).contains("requires HTTP basic auth");
                            });
                }
            }
            certificateSerial = stack.security().orElseThrow().certificates()
                    .serverCertificate(load(stack.clientFiles().get(StackUser.ADMIN)).get("ssl.truststore.password").toString())
                    .getSerialNumber().toString();
        }

        try (LocalStack stack = LocalStack.start(BrokerSettings.defaults().withDataDir(dataDir), 1, 0, true)) {
            System.out.printf("secured LocalStack restart: %d ms%n", stack.startDuration().toMillis());
            Map<String, Object> producer = load(stack.clientFiles().get(StackUser.PRODUCER));
            send(producer, Topics.IO.name());
            assertThat(producer.get("sasl.jaas.config").toString()).as("same password after a restart")
                    .isEqualTo(load(producerFile).get("sasl.jaas.config"));
            assertThat(stack.security().orElseThrow().certificates()
                    .serverCertificate(producer.get("ssl.truststore.password").toString()).getSerialNumber().toString())
                    .as("same certificate after a restart").isEqualTo(certificateSerial);
        }
        assertThatThrownBy(() -> LocalStack.start(BrokerSettings.defaults().withDataDir(dataDir), 1, 0, false))
                .hasMessageContaining("holds a secured Kafka cluster");
    }

    private static void send(Map<String, Object> props, String topic) throws Exception {
        Map<String, Object> p = new HashMap<>(props);
        p.put("max.block.ms", 10_000);
        p.put("delivery.timeout.ms", 10_000);
        p.put("request.timeout.ms", 5_000);
        try (var producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "run-1", "x")).get(15, TimeUnit.SECONDS);
        }
    }

    private static Map<String, Object> load(Path file) throws Exception {
        return load(Files.readString(file));
    }

    private static Map<String, Object> load(String text) throws Exception {
        Properties p = new Properties();
        try (Reader r = new java.io.StringReader(text)) {
            p.load(r);
        }
        Map<String, Object> m = new HashMap<>();
        p.forEach((k, v) -> m.put((String) k, v));
        return m;
    }
}
