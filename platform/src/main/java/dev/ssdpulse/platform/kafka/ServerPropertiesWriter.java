package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The server.properties of a KRaft broker+controller node on loopback, and its log4j2 config. */
final class ServerPropertiesWriter {
    private ServerPropertiesWriter() {}

    /** A single-node cluster: node 1, the only voter. */
    static Map<String, String> serverProperties(Path logDir, int brokerPort, int controllerPort) {
        return serverProperties(logDir, 1, brokerPort, controllerPort, Map.of(1, controllerPort));
    }

    /** As {@link #serverProperties(Path, int, int, int, Map)}, with the listeners and authorizer of a secured node. */
    static Map<String, String> serverProperties(
            Path logDir,
            int nodeId,
            int brokerPort,
            int controllerPort,
            Map<Integer, Integer> controllerPorts,
            Optional<BrokerSecurity> security) {
        Map<String, String> p = serverProperties(logDir, nodeId, brokerPort, controllerPort, controllerPorts);
        security.ifPresent(s -> p.putAll(s.serverProperties(brokerPort, controllerPort)));
        return p;
    }

    /**
     * One node of a cluster whose every node is broker and controller.
     *
     * @param controllerPorts every node's CONTROLLER port by node id: the static quorum, the same on all nodes
     */
    static Map<String, String> serverProperties(
            Path logDir, int nodeId, int brokerPort, int controllerPort, Map<Integer, Integer> controllerPorts) {
        if (!Integer.valueOf(controllerPort).equals(controllerPorts.get(nodeId))) {
            throw new IllegalArgumentException("node " + nodeId + " has controller port " + controllerPort
                    + " but the quorum lists " + controllerPorts);
        }
        int nodes = controllerPorts.size();
        // Replicas as on a production cluster, up to 3; an acks=all write then survives one node lost
        // (min ISR 2) while the other two still accept writes.
        int replication = Math.min(3, nodes);
        int minInSync = replication >= 3 ? 2 : 1;
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(nodeId));
        // Static quorum: the voter endpoints live in this file, not in the formatted metadata, so a
        // restart on other ports still finds its quorum.
        p.put(
                "controller.quorum.voters",
                controllerPorts.entrySet().stream()
                        .sorted(Map.Entry.comparingByKey())
                        .map(e -> e.getKey() + "@127.0.0.1:" + e.getValue())
                        .collect(Collectors.joining(",")));
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        p.put("num.partitions", "1");
        p.put("default.replication.factor", Integer.toString(replication));
        // the default for topics created without it (Kafka Streams' internal topics, the registry's _schemas)
        p.put("min.insync.replicas", Integer.toString(minInSync));
        p.put("offsets.topic.replication.factor", Integer.toString(replication));
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", Integer.toString(replication));
        p.put("transaction.state.log.min.isr", Integer.toString(minInSync));
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", Integer.toString(replication));
        p.put("share.coordinator.state.topic.min.isr", Integer.toString(minInSync));
        p.put("group.initial.rebalance.delay.ms", "0");
        // A Streams instance killed mid-transaction holds back read_committed consumers (the other instances,
        // the dashboard) until the broker aborts its transaction; the default scan for timed-out transactions
        // every 10 s adds up to 10 s to that.
        p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
        // Callers create their topics with explicit partitions and configs; a typo must not create one.
        p.put("auto.create.topics.enable", "false");
        p.put("log.retention.hours", "-1");
        // Small segments keep a test broker's disk use and log-cleaner work low.
        p.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        return p;
    }

    static void write(Path file, Map<String, String> properties) {
        String text = properties.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().replace("\\", "\\\\"))
                .collect(Collectors.joining("\n", "# written by ssdpulse EmbeddedKafkaBroker\n", "\n"));
        if (properties.keySet().stream().anyMatch(k -> k.contains("password") || k.endsWith("jaas.config"))) {
            writeOwnerOnly(file, text);
        } else {
            writeText(file, text);
        }
    }

    /** A file with passwords in it: readable by its owner only (best effort where there are no POSIX permissions). */
    static void ownerOnly(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its default ACLs apply
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict the permissions of " + file, e);
        }
    }

    /** Broker logs at INFO to stdout, which the parent redirects into the broker log file. */
    static void writeLog4j2(Path file) {
        writeText(
                file,
                String.join(
                        "\n",
                        "status = warn",
                        "appender.console.type = Console",
                        "appender.console.name = STDOUT",
                        "appender.console.layout.type = PatternLayout",
                        "appender.console.layout.pattern = [%d] %p %m (%c)%n",
                        "rootLogger.level = info",
                        "rootLogger.appenderRef.stdout.ref = STDOUT",
                        "logger.kafkaRequest.name = kafka.request.logger",
                        "logger.kafkaRequest.level = warn",
                        "logger.stateChange.name = state.change.logger",
                        "logger.stateChange.level = warn",
                        ""));
    }

    /** Restricted before the passwords go in (rewriting an existing file keeps its permissions). */
    static void writeOwnerOnly(Path file, String text) {
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file, e);
        }
        ownerOnly(file);
        writeText(file, text);
    }

    private static void writeText(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
