package dev.ssdpulse.platform.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackCertificatesTest {
    private static final String PASSWORD = "store-password";

    @TempDir
    Path dir;

    @Test
    void theServerCertificateNamesLoopbackAndIsSignedByTheStacksOwnCa() throws Exception {
        StackCertificates certs = StackCertificates.loadOrCreate(dir, PASSWORD, new SecureRandom());

        KeyStore keys = StackCertificates.load(certs.keystore(), PASSWORD);
        Certificate[] chain = keys.getCertificateChain(StackCertificates.SERVER_ALIAS);
        assertThat(chain).hasSize(2);
        X509Certificate server = (X509Certificate) chain[0];
        X509Certificate ca = (X509Certificate) chain[1];
        assertThat(keys.getKey(StackCertificates.SERVER_ALIAS, PASSWORD.toCharArray()))
                .isInstanceOf(PrivateKey.class);

        server.verify(ca.getPublicKey());
        ca.verify(ca.getPublicKey());
        assertThat(ca.getBasicConstraints()).as("a CA").isGreaterThanOrEqualTo(0);
        assertThat(server.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(server.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
        // SAN entries: [type, value]; 7 = IP address, 2 = DNS name
        assertThat(server.getSubjectAlternativeNames())
                .containsExactlyInAnyOrder(List.of(7, "127.0.0.1"), List.of(2, "localhost"));
        assertThat(server.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        server.checkValidity();

        KeyStore trust = StackCertificates.load(certs.truststore(), PASSWORD);
        assertThat(Collections.list(trust.aliases())).containsExactly(StackCertificates.CA_ALIAS);
        assertThat(trust.getCertificate(StackCertificates.CA_ALIAS)).isEqualTo(ca);
        assertThat(trust.isKeyEntry(StackCertificates.CA_ALIAS))
                .as("no private key in the truststore")
                .isFalse();

        X509Certificate fromPem = (X509Certificate)
                CertificateFactory.getInstance("X.509").generateCertificate(Files.newInputStream(certs.caPem()));
        assertThat(fromPem).isEqualTo(ca);
        for (Path file : List.of(certs.keystore(), certs.truststore(), certs.caPem())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                    .isEqualTo("rw-------");
        }
    }

    @Test
    void existingCertificatesAreKeptSoClientsGoOnTrustingTheStack() {
        StackCertificates first = StackCertificates.loadOrCreate(dir, PASSWORD, new SecureRandom());
        X509Certificate before = first.serverCertificate(PASSWORD);

        StackCertificates again = StackCertificates.loadOrCreate(dir, PASSWORD, new SecureRandom());

        assertThat(again.serverCertificate(PASSWORD)).isEqualTo(before);
    }

    @Test
    void storesThePasswordDoesNotOpenAreReplaced() throws Exception {
        StackCertificates.loadOrCreate(dir, "old-password", new SecureRandom());

        StackCertificates renewed = StackCertificates.loadOrCreate(dir, PASSWORD, new SecureRandom());

        assertThat(renewed.serverCertificate(PASSWORD).getSubjectAlternativeNames())
                .isNotEmpty();
        assertThat(StackCertificates.load(renewed.truststore(), PASSWORD).size())
                .isEqualTo(1);
    }
}
