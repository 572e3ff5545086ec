package dev.ssdpulse.platform.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientPropertiesFilesTest {
    @TempDir
    Path dir;

    @Test
    void aUsersFileHasKafkaAndRegistrySettingsReadBackExactlyAndOnlyByItsOwner() throws Exception {
        Path truststore = dir.resolve("truststore.p12");
        Map<String, String> content = ClientPropertiesFiles.content(
                "producer", "s3cretPassw0rd", "127.0.0.1:9092", "https://127.0.0.1:8081", truststore, "storePass");
        assertThat(content)
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry(
                        "sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required "
                                + "username=\"producer\" password=\"s3cretPassw0rd\";")
                .containsEntry(
                        "ssl.truststore.location", truststore.toAbsolutePath().toString())
                .containsEntry("ssl.truststore.type", "PKCS12")
                .containsEntry("schema.registry.url", "https://127.0.0.1:8081")
                .containsEntry(
                        "schema.registry.ssl.truststore.location",
                        truststore.toAbsolutePath().toString())
                .containsEntry("schema.registry.ssl.truststore.password", "storePass")
                .containsEntry("basic.auth.credentials.source", "USER_INFO")
                .containsEntry("basic.auth.user.info", "producer:s3cretPassw0rd");

        Path file = dir.resolve("producer.properties");
        ClientPropertiesFiles.write(file, StackUser.PRODUCER, content);

        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        Map<String, String> read = new HashMap<>();
        p.stringPropertyNames().forEach(k -> read.put(k, p.getProperty(k)));
        assertThat(read).isEqualTo(content);
        assertThat(Files.readString(file)).startsWith("# ssdpulse secured stack: client properties of user 'producer'");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }

    @Test
    void aQuoteThatWouldBreakTheJaasLineIsRefused() {
        assertThatThrownBy(() -> ClientPropertiesFiles.content(
                        "producer", "pa\"ss", "h:1", "https://h:2", dir.resolve("t"), "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("JAAS");
    }

    @Test
    void secretsAreGeneratedOnceAndKeptOwnerOnly() throws Exception {
        StackSecrets first = StackSecrets.loadOrCreate(dir, new SecureRandom());
        StackSecrets again = StackSecrets.loadOrCreate(dir, new SecureRandom());

        assertThat(again).isEqualTo(first);
        assertThat(first.passwords()).hasSize(StackUser.values().length);
        assertThat(first.passwords().values())
                .allSatisfy(pw -> assertThat(pw).matches("[A-Za-z0-9]{24}"))
                .doesNotHaveDuplicates();
        assertThat(first.toString()).doesNotContain(first.password(StackUser.ADMIN));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(StackSecrets.FILE_NAME))))
                .isEqualTo("rw-------");
    }
}
