package dev.ssdpulse.platform.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RegistrySecurityTest {
    private final RegistrySecurity security = new RegistrySecurity(
            Path.of("keystore.p12"), "x", Map.of("producer", "pw1", "reader", "pw2"), Set.of("producer"));

    @Test
    void onlyAKnownUserWithItsPasswordIsAuthenticated() {
        assertThat(security.authenticate(basic("producer:pw1"))).isEqualTo(Optional.of("producer"));
        assertThat(security.authenticate(basic("reader:pw2"))).isEqualTo(Optional.of("reader"));
        assertThat(security.authenticate(basic("reader:pw1"))).isEmpty();
        assertThat(security.authenticate(basic("nobody:pw1"))).isEmpty();
        assertThat(security.authenticate(basic("producer"))).isEmpty();
        assertThat(security.authenticate(null)).isEmpty();
        assertThat(security.authenticate("Bearer abc")).isEmpty();
        assertThat(security.authenticate("Basic %%%")).isEmpty();
        assertThat(security.authenticate(
                        "basic " + Base64.getEncoder().encodeToString("producer:pw1".getBytes(StandardCharsets.UTF_8))))
                .as("scheme is case-insensitive")
                .isPresent();
    }

    @Test
    void registeringConfiguringAndDeletingAreWritesLookupsAndCompatibilityChecksAreReads() {
        assertThat(RegistrySecurity.isWrite("POST", "/subjects/a-value/versions"))
                .isTrue();
        assertThat(RegistrySecurity.isWrite("PUT", "/config")).isTrue();
        assertThat(RegistrySecurity.isWrite("PUT", "/config/a-value")).isTrue();
        assertThat(RegistrySecurity.isWrite("DELETE", "/subjects/a-value")).isTrue();
        assertThat(RegistrySecurity.isWrite("POST", "/subjects/a-value")).isFalse();
        assertThat(RegistrySecurity.isWrite("POST", "/compatibility/subjects/a-value/versions/latest"))
                .isFalse();
        assertThat(RegistrySecurity.isWrite("GET", "/schemas/ids/1")).isFalse();
    }

    private static String basic(String userInfo) {
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }
}
