package dev.ssdpulse.cli.stack;

import dev.ssdpulse.cli.command.UntilStopped;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.platform.security.SecureStack;
import dev.ssdpulse.platform.security.StackUser;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificData;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse stack}: a real Kafka broker (KRaft, child JVM), or a KRaft cluster of three, and a
 * Confluent-API schema registry on loopback, with every ssdpulse topic created, until Ctrl-C.
 */
@Command(name = "stack", description = "Start the embedded Kafka broker and schema registry; run until Ctrl-C.")
public final class StackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Where the broker keeps its data; a restart on the same directory keeps topics and schema "
                    + "ids (default: ${DEFAULT-VALUE}).",
            defaultValue = "${sys:user.home}/.ssdpulse/stack")
    Path dataDir;

    @Option(names = "--ephemeral", description = "Use a temporary data directory, deleted on exit.")
    boolean ephemeral;

    @Option(
            names = "--brokers",
            paramLabel = "N",
            defaultValue = "1",
            description = "Kafka brokers, each a KRaft broker and controller in its own JVM: 1, or 3 for a cluster "
                    + "with a quorum of three whose topics have 3 replicas and min.insync.replicas 2 (any odd number "
                    + "up to " + EmbeddedKafkaCluster.MAX_NODES + " works; default: ${DEFAULT-VALUE}).")
    int brokers;

    @Option(
            names = "--kafka-port",
            paramLabel = "PORT",
            description = "Broker port (the first broker's; the others take free ports); 0 = any free port "
                    + "(default: 9092 when free, else any).")
    Integer kafkaPort;

    @Option(
            names = "--registry-port",
            paramLabel = "PORT",
            description = "Schema registry port; 0 = any free port (default: 8081 when free, else any).")
    Integer registryPort;

    @Option(
            names = "--broker-heap-mb",
            paramLabel = "MB",
            defaultValue = "512",
            description = "Heap of each broker JVM (default: ${DEFAULT-VALUE}).")
    int brokerHeapMb;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "" + Topics.DEFAULT_PARTITIONS,
            description = "Partitions of each ssdpulse topic when it is created (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--secure",
            description = "Authenticated and encrypted: Kafka on SASL_SSL with SCRAM-SHA-512 users (admin, producer, "
                    + "analytics, reader) and ACLs, the registry on HTTPS with basic auth; generated CA, certificates, "
                    + "passwords and one client properties file per user in <data dir>/secure/ (kept across restarts). "
                    + "A data directory is secured or not for good.")
    boolean secure;

    @Option(
            names = "--exit-after",
            paramLabel = "DURATION",
            description = "Stop by itself after this long (e.g. 30s), for scripts and tests.")
    Duration exitAfter;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        checkBrokers();
        int brokerPort = choosePort(kafkaPort, 9092, "--kafka-port");
        int schemaRegistryPort = choosePort(registryPort, 8081, "--registry-port");
        BrokerSettings settings =
                BrokerSettings.defaults().withHeapMb(brokerHeapMb).withPorts(brokerPort, 0);
        if (!ephemeral) {
            settings = settings.withDataDir(dataDir.toAbsolutePath());
        }
        out.println(
                brokers == 1
                        ? "Starting Kafka broker (KRaft) and schema registry..."
                        : "Starting a Kafka cluster of " + brokers + " brokers (KRaft) and schema registry...");
        out.flush();
        try (LocalStack stack = LocalStack.start(settings, brokers, schemaRegistryPort, secure)) {
            EmbeddedKafkaCluster cluster = stack.cluster();
            List<String> created = stack.createTopics(
                    TopicCreation.catalogue(partitions, cluster.replicationFactor(), cluster.minInSyncReplicas()));
            int schemas = registerValueSchemas(stack.adminClientProperties());
            out.printf(
                    "ssdpulse stack is up (started in %.1f s)%n",
                    stack.startDuration().toMillis() / 1000.0);
            out.printf("  bootstrap servers : %s%n", stack.bootstrapServers());
            if (brokers > 1) {
                out.printf(
                        "  kafka cluster     : %d brokers, KRaft quorum of %d; topics with %d replicas, "
                                + "min.insync.replicas %d%n",
                        brokers, brokers, cluster.replicationFactor(), cluster.minInSyncReplicas());
            }
            out.printf("  schema registry   : %s%n", stack.schemaRegistryUrl());
            out.printf("  data directory    : %s%s%n", stack.dataDir(), ephemeral ? " (temporary)" : "");
            out.printf(
                    "  topics            : %d in the catalogue, %d created now%n",
                    Topics.all().size(), created.size());
            out.printf("  value schemas     : %d registered (clients in other languages can write at once)%n", schemas);
            if (stack.secure()) {
                Path secureDir = stack.security().orElseThrow().directory();
                out.printf(
                        "  security          : SASL_SSL (SCRAM-SHA-512) and ACLs on Kafka, HTTPS with basic auth on "
                                + "the "
                                + "registry; CA %s%n",
                        stack.security().orElseThrow().certificates().caPem());
                out.printf(
                        "  client files      : %s/{%s} (owner-only; use with --kafka-config)%n",
                        secureDir,
                        stack.clientFiles().keySet().stream()
                                .map(StackUser::propertiesFileName)
                                .collect(Collectors.joining(",")));
                out.printf("                      producer: simulate, device, import fio, play; analytics: streams, "
                        + "replay; reader: report; admin: everything%n");
            }
            if (brokers == 1) {
                out.printf("  broker log        : %s%n", stack.broker().logFile());
            } else {
                out.printf(
                        "  broker logs       : %s%n",
                        stack.dataDir()
                                .resolve("node-<1.." + brokers + ">")
                                .resolve(stack.broker().logFile().getFileName()));
            }
            out.println(exitAfter == null ? "Press Ctrl-C to stop." : "Stopping after " + exitAfter + ".");
            out.flush();
            Runnable stop = () -> {
                stack.close();
                out.println("ssdpulse stack stopped.");
                out.flush();
            };
            UntilStopped.awaitThenStop(exitAfter, stop, "ssdpulse-stack-shutdown");
        }
        return 0;
    }

    /**
     * Registers every Avro topic's value schema (TopicNameStrategy) as ssdpulse's own serializers would on first
     * use, so that a producer in another language, which takes the latest schema of a subject, finds it before
     * any ssdpulse producer has run. Registering a schema that is already there returns its id.
     */
    private static int registerValueSchemas(Map<String, Object> adminClientProperties) {
        int registered = 0;
        try (var registry = HttpSchemaRegistryClient.fromConfig(adminClientProperties)) {
            for (TopicSpec<?> topic : Topics.all()) {
                if (topic.avroValue()) {
                    registry.register(topic.valueSubject(), SpecificData.get().getSchema(topic.valueType()));
                    registered++;
                }
            }
        }
        return registered;
    }

    private void checkBrokers() {
        if (brokers < 1 || brokers > EmbeddedKafkaCluster.MAX_NODES || brokers % 2 == 0) {
            throw new UserInputException("--brokers " + brokers + ": the number of brokers must be odd, 1 to "
                    + EmbeddedKafkaCluster.MAX_NODES + " (each broker is also a KRaft controller, and an even quorum "
                    + "survives no more failures than the odd one below it); use 1 or 3");
        }
        if (!ephemeral
                && secure != Files.isDirectory(dataDir.toAbsolutePath().resolve(SecureStack.DIRECTORY))
                && EmbeddedKafkaCluster.nodeCountIn(dataDir.toAbsolutePath()).isPresent()) {
            throw new UserInputException("--data-dir " + dataDir
                    + (secure
                            ? " holds a stack created without --secure: its data has no users and ACLs to protect it; "
                                    + "give a new --data-dir for a secured stack"
                            : " holds a stack created with --secure: add --secure (without it anyone on this machine "
                                    + "could "
                                    + "read and write its data)"));
        }
        if (!ephemeral) {
            OptionalInt existing = EmbeddedKafkaCluster.nodeCountIn(dataDir.toAbsolutePath());
            if (existing.isPresent() && existing.getAsInt() != brokers) {
                throw new UserInputException("--data-dir " + dataDir + " holds a stack of " + existing.getAsInt()
                        + " broker(s), not " + brokers + ": start it with --brokers " + existing.getAsInt()
                        + ", or give another --data-dir");
            }
        }
    }

    /** The explicit port (0 = any), else the conventional one when it is free, else any free port. */
    private static int choosePort(Integer requested, int conventional, String option) {
        if (requested != null) {
            if (requested < 0 || requested > 65535) {
                throw new UserInputException(option + " " + requested + " is not a port number (0..65535)");
            }
            if (requested != 0 && !LoopbackPorts.isFree(requested)) {
                throw new UserInputException(option + " " + requested + " is already in use on 127.0.0.1");
            }
            return requested;
        }
        return LoopbackPorts.isFree(conventional) ? conventional : 0;
    }
}
