package dev.ssdpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerPropertiesWriterTest {
    private static final Map<Integer, Integer> QUORUM = Map.of(1, 9101, 2, 9102, 3, 9103);

    @TempDir
    Path dir;

    @Test
    void everyNodeOfAThreeNodeClusterNamesTheSameQuorumAndItsOwnListeners() {
        String voters = null;
        for (int id = 1; id <= 3; id++) {
            Map<String, String> p = ServerPropertiesWriter.serverProperties(
                    dir.resolve("node-" + id), id, 19090 + id, 9100 + id, QUORUM);
            assertThat(p)
                    .containsEntry("node.id", Integer.toString(id))
                    .containsEntry("process.roles", "broker,controller")
                    .containsEntry(
                            "listeners",
                            "PLAINTEXT://127.0.0.1:" + (19090 + id) + ",CONTROLLER://127.0.0.1:" + (9100 + id))
                    .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + (19090 + id))
                    .containsEntry(
                            "log.dirs",
                            dir.resolve("node-" + id).toAbsolutePath().toString());
            assertThat(p.get("controller.quorum.voters"))
                    .isEqualTo("1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103");
            if (voters != null) {
                assertThat(p.get("controller.quorum.voters")).isEqualTo(voters);
            }
            voters = p.get("controller.quorum.voters");
        }
    }

    @Test
    void threeNodesReplicateThreeTimesAndNeedTwoInSyncWhileOneNodeRunsAlone() {
        Map<String, String> three = ServerPropertiesWriter.serverProperties(dir, 2, 19092, 9102, QUORUM);
        assertThat(three)
                .containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2")
                .containsEntry("share.coordinator.state.topic.replication.factor", "3")
                .containsEntry("share.coordinator.state.topic.min.isr", "2");

        Map<String, String> one = ServerPropertiesWriter.serverProperties(dir, 19092, 9093);
        assertThat(one)
                .containsEntry("node.id", "1")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:9093")
                .containsEntry("default.replication.factor", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1");
    }

    @Test
    void fiveNodesStillReplicateThreeTimes() {
        Map<Integer, Integer> five = Map.of(1, 9101, 2, 9102, 3, 9103, 4, 9104, 5, 9105);
        Map<String, String> p = ServerPropertiesWriter.serverProperties(dir, 5, 19095, 9105, five);
        assertThat(p).containsEntry("default.replication.factor", "3").containsEntry("min.insync.replicas", "2");
        assertThat(p.get("controller.quorum.voters")).startsWith("1@").endsWith(",5@127.0.0.1:9105");
    }

    @Test
    void aNodeWhoseControllerPortIsNotItsQuorumEntryIsRefused() {
        assertThatThrownBy(() -> ServerPropertiesWriter.serverProperties(dir, 2, 19092, 9999, QUORUM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node 2 has controller port 9999");
        assertThatThrownBy(() -> ServerPropertiesWriter.serverProperties(dir, 4, 19092, 9104, QUORUM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node 4");
    }

    @Test
    void theWrittenFileLoadsBackAsTheSameProperties() throws Exception {
        Map<String, String> p = ServerPropertiesWriter.serverProperties(dir.resolve("a\\b"), 3, 19093, 9103, QUORUM);
        Path file = dir.resolve("server.properties");
        ServerPropertiesWriter.write(file, p);
        Properties loaded = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            loaded.load(r);
        }
        assertThat(loaded).containsExactlyInAnyOrderEntriesOf(p);
    }

    @Test
    void aSecuredNodeHasOnlyAuthenticatedListenersAndDeniesWhatNoAclAllows() throws Exception {
        BrokerSecurity security = new BrokerSecurity(
                dir.resolve("keystore.p12"),
                dir.resolve("truststore.p12"),
                "store",
                "admin",
                "adminPw",
                Map.of("admin", "adminPw", "producer", "prodPw"));
        Map<String, String> p =
                ServerPropertiesWriter.serverProperties(dir, 2, 19092, 9102, QUORUM, Optional.of(security));

        assertThat(p)
                .containsEntry("listeners", "SASL_SSL://127.0.0.1:19092,CONTROLLER://127.0.0.1:9102")
                .containsEntry("advertised.listeners", "SASL_SSL://127.0.0.1:19092")
                .containsEntry("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:SASL_SSL")
                .containsEntry("inter.broker.listener.name", "SASL_SSL")
                .containsEntry("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512")
                .containsEntry("listener.name.sasl_ssl.sasl.enabled.mechanisms", "SCRAM-SHA-512")
                .containsEntry("listener.name.controller.sasl.enabled.mechanisms", "PLAIN")
                .containsEntry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .containsEntry("super.users", "User:admin")
                .containsEntry("allow.everyone.if.no.acl.found", "false")
                .containsEntry("ssl.keystore.type", "PKCS12");
        assertThat(p.values()).noneMatch(v -> v.contains("PLAINTEXT"));
        assertThat(p.get("controller.quorum.voters")).isEqualTo("1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103");
        assertThat(security.formatScramArguments())
                .containsExactly(
                        "SCRAM-SHA-512=[name=admin,password=adminPw]", "SCRAM-SHA-512=[name=producer,password=prodPw]");
        assertThat(security.toString()).doesNotContain("adminPw");

        Path file = dir.resolve("server.properties");
        ServerPropertiesWriter.write(file, p);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .as("passwords inside")
                .isEqualTo("rw-------");
    }
}
