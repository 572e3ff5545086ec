package dev.ssdpulse.dist;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every compose file in docker/ is valid against the Compose Specification's JSON schema (vendored in
 * docker/compose-spec with its source), without a Docker engine; its Kafka image is the Kafka version the project
 * builds with.
 */
class ComposeFilesTest {
    private static final Path DOCKER = Path.of(System.getProperty("ssdpulse.sourceRoot"), "docker").normalize();
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
            List<Path> compose = files.filter(f -> f.getFileName().toString().matches(".*compose.*\\.ya?ml")).sorted().toList();
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
        List<String> kafkaImages = services.valueStream().map(s -> s.path("image").asString(""))
                .filter(image -> image.startsWith("apache/kafka:")).toList();
        assertThat(kafkaImages).allMatch(image -> image.equals("apache/kafka:" + System.getProperty("kafka.version")));
        if (file.getFileName().toString().equals("compose.yml")) {
            assertThat(kafkaImages).as("the deployment's three brokers").hasSize(3);
        }
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
        assertThat(composeSpec.validate(misspelt, InputFormat.YAML)).extracting(Error::getMessage)
                .anyMatch(m -> m.contains("enviroment"));
        assertThat(composeSpec.validate(wrongType, InputFormat.YAML)).isNotEmpty();
    }
}
