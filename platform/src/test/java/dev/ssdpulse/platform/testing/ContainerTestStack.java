package dev.ssdpulse.platform.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.LoggerFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.Slf4jLogConsumer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Kafka and a Confluent-API schema registry in containers on one network; the registry reaches Kafka through an
 * extra listener on the network alias "kafka".
 *
 * <p>Images: with system property ssdpulse.test.image (the ssdpulse image that docker/build-images.sh builds from
 * the distribution) that one image runs both: the broker as a declared substitute for apache/kafka (its
 * /etc/kafka/docker/run reads the same KAFKA_* variables) and the registry as {@code ssdpulse registry}. Without
 * it: apache/kafka (the client jars' version) and confluentinc/cp-schema-registry, or what
 * ssdpulse.test.kafkaImage and ssdpulse.test.registryImage name.
 */
final class ContainerTestStack implements TestStack, AutoCloseable {
    static final String DEFAULT_REGISTRY_IMAGE = "confluentinc/cp-schema-registry:8.0.0";

    private final Network network;
    private final KafkaContainer kafka;
    private final GenericContainer<?> registry;

    private final String description;

    ContainerTestStack(String ssdpulseImage) {
        network = Network.newNetwork();
        if (ssdpulseImage != null) {
            DockerImageName image = DockerImageName.parse(ssdpulseImage);
            kafka = new KafkaContainer(image.asCompatibleSubstituteFor("apache/kafka"))
                    .withNetwork(network)
                    .withNetworkAliases("kafka")
                    .withListener("kafka:19092")
                    .withStartupTimeout(Duration.ofMinutes(3));
            registry = new GenericContainer<>(image)
                    .withNetwork(network)
                    .withExposedPorts(8081)
                    .withCommand(
                            "registry", "--bootstrap-servers", "kafka:19092", "--bind", "0.0.0.0", "--port", "8081")
                    .dependsOn(kafka)
                    .waitingFor(Wait.forHttp("/subjects").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(2)));
            description = ssdpulseImage + " (kafka, registry)";
        } else {
            String kafkaImage = System.getProperty("ssdpulse.test.kafkaImage", "apache/kafka:" + kafkaClientVersion());
            String registryImage = System.getProperty("ssdpulse.test.registryImage", DEFAULT_REGISTRY_IMAGE);
            kafka = new KafkaContainer(DockerImageName.parse(kafkaImage))
                    .withNetwork(network)
                    .withNetworkAliases("kafka")
                    .withListener("kafka:19092");
            registry = new GenericContainer<>(DockerImageName.parse(registryImage))
                    .withNetwork(network)
                    .withExposedPorts(8081)
                    .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
                    .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:8081")
                    .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://kafka:19092")
                    .withEnv("SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR", "1")
                    .dependsOn(kafka)
                    .waitingFor(Wait.forHttp("/subjects").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(2)));
            description = kafkaImage + ", " + registryImage;
        }
        // the containers' output goes to the test log, so a container that does not come up says why
        kafka.withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("container.kafka")));
        registry.withLogConsumer(new Slf4jLogConsumer(LoggerFactory.getLogger("container.registry")));
        try {
            kafka.start();
            registry.start();
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The version of the kafka-clients jar, so the container broker matches the embedded one. */
    static String kafkaClientVersion() {
        Properties p = new Properties();
        try (InputStream in = KafkaProducer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            if (in == null) {
                throw new IllegalStateException("kafka/kafka-version.properties not found in kafka-clients");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    @Override
    public String bootstrapServers() {
        return kafka.getBootstrapServers();
    }

    @Override
    public String schemaRegistryUrl() {
        return "http://" + registry.getHost() + ":" + registry.getMappedPort(8081);
    }

    @Override
    public String backend() {
        return "testcontainers: " + description;
    }

    @Override
    public void close() {
        registry.stop();
        kafka.stop();
        network.close();
    }
}
