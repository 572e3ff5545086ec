package dev.ssdpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory is secured or not for good; the refusal comes before any broker JVM starts (so no broker runs in
 * this test).
 */
class SecuredDataDirectoryTest {
    private static final BrokerSecurity SECURITY = new BrokerSecurity(
            Path.of("keystore.p12"), Path.of("truststore.p12"), "store", "admin", "pw", Map.of("admin", "pw"));

    @TempDir
    Path dir;

    @Test
    void aSecuredDirectoryIsNotServedOnPlaintext() throws Exception {
        formatted();
        Files.writeString(dir.resolve(EmbeddedKafkaBroker.SECURED_MARKER), "secured\n");
        try (EmbeddedKafkaBroker broker =
                new EmbeddedKafkaBroker(BrokerSettings.defaults().withDataDir(dir))) {
            assertThatThrownBy(broker::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("holds a secured Kafka cluster")
                    .hasMessageContaining("serve its data to anyone on PLAINTEXT");
        }
        assertThat(dir.resolve("server.properties"))
                .as("nothing written by a refused start")
                .doesNotExist();
    }

    @Test
    void aDirectoryFormattedWithoutUsersCannotBeSecuredLater() throws Exception {
        formatted();
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(
                BrokerSettings.defaults().withDataDir(dir).withSecurity(SECURITY))) {
            assertThatThrownBy(broker::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("created without security: it has no SCRAM users");
        }
    }

    private void formatted() throws Exception {
        Files.createDirectories(dir.resolve("kafka-logs"));
        Files.writeString(
                dir.resolve("kafka-logs").resolve("meta.properties"),
                "cluster.id=AbCdEfGhIjKlMnOpQrStUv\nnode.id=1\nversion=1\n");
    }
}
