package dev.ssdpulse.cli.registry;

import dev.ssdpulse.cli.command.UntilStopped;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.platform.registry.EmbeddedSchemaRegistry;
import dev.ssdpulse.platform.registry.KafkaRegistryLog;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse registry}: the Confluent-API schema registry that {@code stack} embeds, on its own against any
 * Kafka cluster (state in the compacted `_schemas` topic), until Ctrl-C. It is what the ssdpulse image runs as the
 * registry of a container deployment. One writer per `_schemas` topic: the instance started last writes, an earlier
 * one refuses writes with a clear error (no leader election, no forwarding).
 */
@Command(
        name = "registry",
        description = "Serve the schema registry (Confluent's REST API) on a Kafka cluster; run until Ctrl-C.")
public final class RegistryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--bootstrap-servers",
            required = true,
            paramLabel = "HOST:PORT[,...]",
            description = "The Kafka cluster that keeps the schemas.")
    String bootstrapServers;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "8081",
            description = "HTTP port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "Address to serve on; 0.0.0.0 in a container (default: ${DEFAULT-VALUE}).")
    String bindAddress;

    @Option(
            names = "--topic",
            paramLabel = "TOPIC",
            defaultValue = KafkaRegistryLog.DEFAULT_TOPIC,
            description = "Compacted topic holding the schemas (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(
            names = "--kafka-config",
            paramLabel = "FILE",
            description =
                    "Kafka client properties for a secured cluster: its security.*, sasl.* and ssl.* settings log the "
                            + "registry's Kafka clients in (a user allowed to create, read and write the topic and the "
                            + "transactional id ssdpulse-schema-registry-<topic>; a secured stack's admin). The HTTP "
                            + "side stays "
                            + "plain: `stack --secure` serves its own registry on HTTPS with basic auth.")
    Path kafkaConfig;

    @Option(
            names = "--exit-after",
            paramLabel = "DURATION",
            description = "Stop by itself after this long (scripts, tests).")
    Duration exitAfter;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new UserInputException("--port " + port + " is not a port number (0..65535)");
        }
        InetAddress bind;
        try {
            bind = InetAddress.getByName(bindAddress);
        } catch (UnknownHostException e) {
            throw new UserInputException("--bind " + bindAddress + " is not an address of this host");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (EmbeddedSchemaRegistry registry =
                EmbeddedSchemaRegistry.startOnKafka(bootstrapServers, topic, bind, port, kafkaSecurity())) {
            out.printf(
                    "ssdpulse schema registry serving on %s:%d (schemas in %s on %s)%n",
                    bind.getHostAddress(), registry.port(), topic, bootstrapServers);
            out.println(exitAfter == null ? "Press Ctrl-C to stop." : "Stopping after " + exitAfter + ".");
            out.flush();
            Runnable stop = () -> {
                registry.close();
                out.println("ssdpulse schema registry stopped.");
                out.flush();
            };
            UntilStopped.awaitThenStop(exitAfter, stop, "ssdpulse-registry-shutdown");
        }
        return 0;
    }

    /** The security settings of --kafka-config; the file's addresses do not apply (--bootstrap-servers does). */
    private Map<String, Object> kafkaSecurity() {
        Map<String, Object> security = new HashMap<>();
        if (kafkaConfig == null) {
            return security;
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(kafkaConfig)) {
            p.load(reader);
        } catch (IOException e) {
            throw new UserInputException("--kafka-config " + kafkaConfig + ": cannot read: " + e);
        }
        p.stringPropertyNames().stream()
                .filter(k -> k.startsWith("security.") || k.startsWith("sasl.") || k.startsWith("ssl."))
                .forEach(k -> security.put(k, p.getProperty(k)));
        return security;
    }
}
