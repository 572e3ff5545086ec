package dev.ssdpulse.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry client's TLS trust from Confluent's {@code schema.registry.ssl.truststore.*} keys. */
class RegistryClientTlsConfigTest {
    @TempDir
    Path dir;

    @Test
    void aConfiguredTruststoreBecomesTheClientsTrustAndNoneKeepsTheJvms() throws Exception {
        Path store = dir.resolve("truststore.p12");
        KeyStore empty = KeyStore.getInstance("PKCS12");
        empty.load(null, null);
        try (OutputStream out = Files.newOutputStream(store)) {
            empty.store(out, "pw".toCharArray());
        }

        assertThat(HttpSchemaRegistryClient.trustFromConfig(Map.of(
                        RegistryClientConfig.SSL_TRUSTSTORE_LOCATION,
                        store.toString(),
                        RegistryClientConfig.SSL_TRUSTSTORE_PASSWORD,
                        "pw")))
                .isPresent();
        assertThat(HttpSchemaRegistryClient.trustFromConfig(Map.of())).isEmpty();
    }

    @Test
    void aMissingStoreOrAWrongPasswordIsNamedWithTheKeyToFix() throws Exception {
        assertThatThrownBy(() -> HttpSchemaRegistryClient.trustFromConfig(Map.of(
                        RegistryClientConfig.SSL_TRUSTSTORE_LOCATION,
                        dir.resolve("absent.p12").toString())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema.registry.ssl.truststore.location")
                .hasMessageContaining("absent.p12");

        Path store = dir.resolve("truststore.p12");
        KeyStore empty = KeyStore.getInstance("PKCS12");
        empty.load(null, null);
        try (OutputStream out = Files.newOutputStream(store)) {
            empty.store(out, "right".toCharArray());
        }
        assertThatThrownBy(() -> HttpSchemaRegistryClient.fromConfig(Map.of(
                        RegistryClientConfig.URL, "https://127.0.0.1:8081",
                        RegistryClientConfig.SSL_TRUSTSTORE_LOCATION, store.toString(),
                        RegistryClientConfig.SSL_TRUSTSTORE_PASSWORD, "wrong")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema.registry.ssl.truststore.password");
    }
}
