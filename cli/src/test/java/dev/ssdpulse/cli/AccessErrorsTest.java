package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLHandshakeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.junit.jupiter.api.Test;

class AccessErrorsTest {
    private static final Optional<String> READER = Optional.of("reader");

    @Test
    void aRefusedLoginNamesTheUserAndTheSettingToCheck() {
        var e = new IllegalStateException(
                "cannot reach Kafka",
                new ExecutionException(new SaslAuthenticationException(
                        "Authentication failed during authentication due to invalid credentials")));
        assertThat(AccessErrors.describe(e, Optional.of("producer")))
                .hasValue("Kafka refused the login of user 'producer': Authentication failed during authentication due "
                        + "to invalid credentials (check username "
                        + "and password in sasl.jaas.config of --kafka-config)");
    }

    @Test
    void aRefusedTopicIsNamedWithTheOperationWhereTheFailureShowsIt() {
        var e = new KafkaException(
                "send failed", new TopicAuthorizationException(Set.of("ssdpulse.io.v1", "ssdpulse.runs.v1")));
        assertThat(AccessErrors.describe(e, READER))
                .get()
                .asString()
                .startsWith(
                        "Kafka refused user 'reader' access to topics ssdpulse.io.v1, ssdpulse.runs.v1: no ACL allows");
    }

    @Test
    void groupsTransactionsClusterAndTlsHaveTheirOwnMessages() {
        assertThat(AccessErrors.describe(new GroupAuthorizationException("x", "reader-group"), READER))
                .get()
                .asString()
                .contains("consumer group 'reader-group'");
        assertThat(AccessErrors.describe(
                        new TransactionalIdAuthorizationException("Transactional Id authorization failed."), READER))
                .get()
                .asString()
                .contains("a transactional id");
        assertThat(AccessErrors.describe(new ClusterAuthorizationException("Cluster authorization failed."), READER))
                .get()
                .asString()
                .contains("a cluster operation");
        assertThat(AccessErrors.describe(
                        new SslAuthenticationException(
                                "SSL handshake failed", new SSLHandshakeException("PKIX path building failed")),
                        Optional.empty()))
                .get()
                .asString()
                .startsWith("TLS handshake with Kafka failed: PKIX path building failed")
                .contains("ssl.truststore.location");
    }

    @Test
    void theRegistrysRefusalsAreNamedAsTheRegistrys() {
        assertThat(AccessErrors.describe(
                        new SchemaRegistryException(401, 40101, "GET https://x/subjects: Unauthorized"),
                        Optional.empty()))
                .get()
                .asString()
                .contains("schema registry refused")
                .contains("basic.auth.user.info");
        assertThat(AccessErrors.describe(
                        new SchemaRegistryException(403, 40301, "Forbidden: user 'reader' may read"), READER))
                .get()
                .asString()
                .contains("user 'reader' may read");
        assertThat(AccessErrors.describe(
                        new SchemaRegistryException(
                                SchemaRegistryException.NO_HTTP_STATUS,
                                SchemaRegistryException.NO_ERROR_CODE,
                                "no schema registry reachable",
                                new SSLHandshakeException("PKIX path building failed")),
                        Optional.empty()))
                .get()
                .asString()
                .contains("TLS handshake with the schema registry failed");
    }

    @Test
    void otherFailuresAreNotAccessErrors() {
        assertThat(AccessErrors.describe(new IllegalStateException("disk full"), READER))
                .isEmpty();
        assertThat(AccessErrors.describe(new SchemaRegistryException(404, 40401, "Subject not found"), READER))
                .isEmpty();
    }

    @Test
    void theUserComesFromTheJaasLine() {
        assertThat(AccessErrors.jaasUser("org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"analytics\" password=\"x\";"))
                .hasValue("analytics");
        assertThat(AccessErrors.jaasUser(null)).isEmpty();
        assertThat(AccessErrors.jaasUser("no user here")).isEmpty();
    }
}
