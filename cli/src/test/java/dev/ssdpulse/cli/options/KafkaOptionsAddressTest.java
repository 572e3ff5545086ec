package dev.ssdpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Where the cluster and the registry are: the option, else the client properties (-X, then --kafka-config: a
 * secured stack's client file names both), else the environment, else loopback's defaults.
 */
class KafkaOptionsAddressTest {
    @Command(name = "probe")
    static final class Probe {
        @Mixin
        KafkaOptions kafka;
    }

    @TempDir
    Path dir;

    private static KafkaOptions parse(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.kafka;
    }

    @Test
    void aClientFileSuppliesTheAddressesUnlessAnOptionOrOverrideIsGiven() throws Exception {
        Path file = dir.resolve("producer.properties");
        Files.writeString(file, "bootstrap.servers=127.0.0.1:19093\nschema.registry.url=https://127.0.0.1:18081\n");

        KafkaOptions fromFile = parse("--kafka-config", file.toString());
        assertThat(fromFile.bootstrapServers()).isEqualTo("127.0.0.1:19093");
        assertThat(fromFile.schemaRegistryUrl()).isEqualTo("https://127.0.0.1:18081");
        assertThat(fromFile.clientProperties())
                .containsEntry("bootstrap.servers", "127.0.0.1:19093")
                .containsEntry("schema.registry.url", "https://127.0.0.1:18081");

        KafkaOptions overridden = parse(
                "--kafka-config",
                file.toString(),
                "-X",
                "bootstrap.servers=h:1",
                "--schema-registry-url",
                "https://h:2");
        assertThat(overridden.bootstrapServers()).isEqualTo("h:1");
        assertThat(overridden.schemaRegistryUrl()).isEqualTo("https://h:2");
        assertThat(parse("--kafka-config", file.toString(), "--bootstrap-servers", "o:3", "-X", "bootstrap.servers=h:1")
                        .bootstrapServers())
                .as("the option wins")
                .isEqualTo("o:3");
    }

    @Test
    void withoutAnyTheDefaultsAreLoopbacksUnlessTheEnvironmentSaysOtherwise() {
        KafkaOptions none = parse();
        String envBootstrap = System.getenv("SSDPULSE_BOOTSTRAP_SERVERS");
        assertThat(none.bootstrapServers())
                .isEqualTo(
                        envBootstrap == null || envBootstrap.isBlank()
                                ? KafkaOptions.DEFAULT_BOOTSTRAP_SERVERS
                                : envBootstrap);
        String envRegistry = System.getenv("SSDPULSE_SCHEMA_REGISTRY_URL");
        assertThat(none.schemaRegistryUrl())
                .isEqualTo(
                        envRegistry == null || envRegistry.isBlank()
                                ? KafkaOptions.DEFAULT_SCHEMA_REGISTRY_URL
                                : envRegistry);
    }
}
