package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every compose file in docker/ is valid against the Compose Specification's JSON schema (vendored in
 * docker/compose-spec with its source), without a Docker engine; its Kafka image is the Kafka version the project
 * builds with; compose.yml has the deployment's shape (a quorum of three brokers, replication 3, min ISR 2, the
 * registry, two analytics instances).
 */
class ComposeFilesTest {
    private static final Path DOCKER =
            Path.of(System.getProperty("ssdpulse.sourceRoot"), "docker").normalize();
    private static Schema composeSpec;

    @BeforeAll
    static void loadTheSpecification() throws IOException {
        Path spec = DOCKER.resolve("compose-spec/compose-spec.json");
        // its $id is relative ("compose_spec.json"): the file's own URI is the base it resolves against
        try (InputStream in = Files.newInputStream(spec)) {
            composeSpec = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(SchemaLocation.of(spec.toUri().toString()), in, InputFormat.JSON);
        }
    }

    static Stream<Path> composeFiles() throws IOException {
        try (Stream<Path> files = Files.list(DOCKER)) {
            List<Path> compose = files.filter(f -> f.getFileName().toString().matches(".*compose.*\\.ya?ml"))
                    .sorted()
                    .toList();
            assertThat(compose).as("compose files in " + DOCKER).isNotEmpty();
            return compose.stream();
        }
    }

    @ParameterizedTest
    @MethodSource("composeFiles")
    void isValidAgainstTheComposeSpecification(Path file) throws IOException {
        List<Error> errors = composeSpec.validate(Files.readString(file), InputFormat.YAML);
        assertThat(errors).as(file + " against the Compose Specification").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("composeFiles")
    void runsTheKafkaVersionTheProjectBuildsWith(Path file) throws IOException {
        JsonNode services = new YAMLMapper().readTree(file.toFile()).path("services");
        List<String> kafkaImages = services.valueStream()
                .map(s -> s.path("image").asString(""))
                .filter(image -> image.startsWith("apache/kafka:"))
                .toList();
        assertThat(kafkaImages).allMatch(image -> image.equals("apache/kafka:" + System.getProperty("kafka.version")));
        if (file.getFileName().toString().equals("compose.yml")) {
            assertThat(kafkaImages).as("the deployment's three brokers").hasSize(3);
        }
    }

    /**
     * The deployment's shape, as `stack --brokers 3` runs it locally: three brokers that are each broker and
     * controller of one quorum, replication 3 with min ISR 2, the Confluent registry, and two analytics instances
     * that reach every broker.
     */
    @Test
    void theDeploymentIsAQuorumOfThreeReplicatingThreeTimesWithARegistryAndTwoAnalyticsInstances() throws IOException {
        JsonNode services = new YAMLMapper()
                .readTree(DOCKER.resolve("compose.yml").toFile())
                .path("services");
        List<String> brokers = services.propertyStream()
                .filter(e -> e.getValue().path("image").asString("").startsWith("apache/kafka:"))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        assertThat(brokers).containsExactly("kafka-1", "kafka-2", "kafka-3");

        Set<String> clusterIds = new HashSet<>();
        Set<String> quorums = new HashSet<>();
        List<String> internalListeners = new ArrayList<>();
        for (String broker : brokers) {
            JsonNode env = services.path(broker).path("environment");
            String nodeId = env.path("KAFKA_NODE_ID").asString();
            assertThat(env.path("KAFKA_PROCESS_ROLES").asString()).as(broker).isEqualTo("broker,controller");
            clusterIds.add(env.path("CLUSTER_ID").asString());
            String voters = env.path("KAFKA_CONTROLLER_QUORUM_VOTERS").asString();
            quorums.add(voters);
            String controllerPort = listenerPort(env.path("KAFKA_LISTENERS").asString(), "CONTROLLER");
            assertThat(List.of(voters.split(",")))
                    .as(broker + " is a voter at its own controller listener")
                    .contains(nodeId + "@" + broker + ":" + controllerPort);
            assertThat(env.path("KAFKA_DEFAULT_REPLICATION_FACTOR").asString())
                    .as(broker)
                    .isEqualTo("3");
            assertThat(env.path("KAFKA_MIN_INSYNC_REPLICAS").asString())
                    .as(broker)
                    .isEqualTo("2");
            assertThat(env.path("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR").asString())
                    .as(broker)
                    .isEqualTo("3");
            assertThat(env.path("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR")
                            .asString())
                    .as(broker)
                    .isEqualTo("3");
            assertThat(env.path("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR").asString())
                    .as(broker)
                    .isEqualTo("2");
            internalListeners.add(broker + ":"
                    + listenerPort(
                            env.path("KAFKA_LISTENERS").asString(),
                            env.path("KAFKA_INTER_BROKER_LISTENER_NAME").asString()));
        }
        assertThat(clusterIds).as("one cluster id").hasSize(1);
        assertThat(quorums).as("one quorum, named alike on every broker").hasSize(1);
        assertThat(quorums.iterator().next().split(",")).as("a quorum of three").hasSize(3);

        JsonNode registry = services.path("schema-registry");
        assertThat(registry.path("image").asString()).startsWith("confluentinc/cp-schema-registry:");
        assertThat(registry.path("environment")
                        .path("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS")
                        .asString())
                .contains(internalListeners);
        assertThat(registry.path("environment")
                        .path("SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR")
                        .asString())
                .isEqualTo("3");

        List<List<String>> analytics = services.valueStream()
                .map(s ->
                        s.path("command").valueStream().map(JsonNode::asString).toList())
                .filter(command -> !command.isEmpty() && command.get(0).equals("streams"))
                .toList();
        assertThat(analytics).as("two analytics instances").hasSize(2).allSatisfy(command -> {
            assertThat(List.of(command.get(command.indexOf("--bootstrap-servers") + 1)
                            .split(",")))
                    .as("every broker")
                    .containsExactlyInAnyOrderElementsOf(internalListeners);
            assertThat(command).contains("replication.factor=3");
        });
        assertThat(analytics.stream()
                        .map(c -> c.stream()
                                .filter(a -> a.startsWith("application.server="))
                                .toList()))
                .as("each advertises its own endpoint")
                .doesNotHaveDuplicates();
    }

    /** The port of the named listener in a KAFKA_LISTENERS value such as "INTERNAL://:19093,CONTROLLER://:9093". */
    private static String listenerPort(String listeners, String name) {
        return Stream.of(listeners.split(","))
                .filter(l -> l.startsWith(name + "://"))
                .map(l -> l.substring(l.lastIndexOf(':') + 1))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " listener in " + listeners));
    }

    @Test
    void theValidatorRejectsWhatTheSpecificationDoesNot() {
        String misspelt = """
                name: broken
                services:
                  kafka:
                    image: apache/kafka:4.4.0
                    enviroment:
                      KAFKA_NODE_ID: 1
                """;
        String wrongType = """
                services:
                  kafka:
                    image: apache/kafka:4.4.0
                    ports: "9092:9092"
                """;
        assertThat(composeSpec.validate(misspelt, InputFormat.YAML))
                .extracting(Error::getMessage)
                .anyMatch(m -> m.contains("enviroment"));
        assertThat(composeSpec.validate(wrongType, InputFormat.YAML)).isNotEmpty();
    }
}
