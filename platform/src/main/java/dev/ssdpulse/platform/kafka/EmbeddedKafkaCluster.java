package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KRaft cluster of an odd number of nodes on 127.0.0.1, each an {@link EmbeddedKafkaBroker} child JVM
 * that is both broker and controller, so the controller quorum has as many voters as there are brokers.
 * With three nodes, topics get 3 replicas and min.insync.replicas 2 by default: an acks=all producer
 * goes on writing with any one node down.
 *
 * <p>Each node can be stopped, killed with SIGKILL and started again on its own (fault tests); it comes
 * back on the same ports, which the other nodes' static quorum configuration names.
 *
 * <p>Layout of the data directory: with one node it is that broker's own data directory, exactly as an
 * {@link EmbeddedKafkaBroker}'s (so a one-broker stack keeps the data of earlier versions). With more,
 * {@code node-<id>/} holds each node's data directory and {@value #STATE_FILE} the cluster id, node count
 * and every node's ports. Starting again on the same directory keeps all topics and, when they are still
 * free, the same ports. Not thread-safe: one owner starts and stops it.
 */
public final class EmbeddedKafkaCluster implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaCluster.class);
    /** More nodes than this would only cost memory on one machine; failures to tolerate stay at 4. */
    public static final int MAX_NODES = 9;

    static final String STATE_FILE = "ssdpulse-cluster.properties";
    private static final int LOG_TAIL_LINES_PER_NODE = 20;

    private final BrokerSettings settings;
    private final int nodeCount;
    private final Path dataDir;
    private final boolean deleteDataDirOnClose;
    /** By node id, 1..nodeCount. */
    private final Map<Integer, EmbeddedKafkaBroker> nodes = new TreeMap<>();

    private Duration lastStartDuration = Duration.ZERO;
    private boolean closed;

    /**
     * @param settings  how to run each node; its data directory is the cluster's, its broker port node 1's
     *                  (the other nodes' ports are picked free, or reused from an earlier run)
     * @param nodeCount odd, 1..{@value #MAX_NODES}
     * @throws IllegalArgumentException if nodeCount is not allowed, or the data directory holds a cluster
     *                                  of another size
     */
    public EmbeddedKafkaCluster(BrokerSettings settings, int nodeCount) {
        checkNodeCount(nodeCount);
        this.settings = settings;
        this.nodeCount = nodeCount;
        settings.dataDir().ifPresent(dir -> checkLayout(dir, nodeCount));
        if (nodeCount == 1) {
            EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(settings);
            nodes.put(1, broker);
            this.dataDir = broker.dataDir();
            this.deleteDataDirOnClose = false; // the broker deletes its own temporary directory
            return;
        }
        try {
            if (settings.dataDir().isPresent()) {
                this.dataDir = Files.createDirectories(settings.dataDir().get()).toAbsolutePath();
                this.deleteDataDirOnClose = false;
            } else {
                this.dataDir =
                        Files.createTempDirectory("ssdpulse-kafka-cluster-").toAbsolutePath();
                this.deleteDataDirOnClose = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create cluster data directory " + settings.dataDir().orElse(null), e);
        }
        ClusterState state = chooseState();
        state.write(dataDir);
        for (int id = 1; id <= nodeCount; id++) {
            BrokerSettings nodeSettings = settings.withDataDir(nodeDir(id))
                    .withPorts(
                            state.brokerPorts().get(id), state.controllerPorts().get(id));
            nodes.put(
                    id,
                    new EmbeddedKafkaBroker(
                            nodeSettings,
                            new EmbeddedKafkaBroker.Membership(id, state.clusterId(), state.controllerPorts())));
        }
    }

    /** A cluster with default settings in a temporary directory deleted on close. */
    public EmbeddedKafkaCluster(int nodeCount) {
        this(BrokerSettings.defaults(), nodeCount);
    }

    /**
     * @throws IllegalArgumentException naming the allowed counts, for an even or out-of-range one
     */
    public static void checkNodeCount(int nodeCount) {
        if (nodeCount < 1 || nodeCount > MAX_NODES || nodeCount % 2 == 0) {
            throw new IllegalArgumentException("a Kafka cluster here has an odd number of brokers from 1 to "
                    + MAX_NODES + " (each is also a controller, and an even quorum survives no more failures than"
                    + " the odd one below it), got " + nodeCount);
        }
    }

    /**
     * How many nodes the cluster in this data directory has, when it holds one: 1 for an
     * {@link EmbeddedKafkaBroker}'s directory, the recorded count for a larger cluster's.
     */
    public static OptionalInt nodeCountIn(Path dataDir) {
        Optional<ClusterState> state = ClusterState.read(dataDir);
        if (state.isPresent()) {
            return OptionalInt.of(state.get().brokerPorts().size());
        }
        if (Files.exists(dataDir.resolve(BrokerState.FILE_NAME))
                || Files.exists(dataDir.resolve("kafka-logs").resolve("meta.properties"))) {
            return OptionalInt.of(1);
        }
        return OptionalInt.empty();
    }

    private static void checkLayout(Path dir, int nodeCount) {
        OptionalInt existing = nodeCountIn(dir);
        if (existing.isPresent() && existing.getAsInt() != nodeCount) {
            throw new IllegalArgumentException(dir + " holds a Kafka cluster of " + existing.getAsInt()
                    + " broker(s), not " + nodeCount + ": start it with " + existing.getAsInt()
                    + ", or use another data directory");
        }
    }

    private ClusterState chooseState() {
        Optional<ClusterState> previous = ClusterState.read(dataDir);
        String clusterId = previous.map(ClusterState::clusterId)
                .orElseGet(() -> Uuid.randomUuid().toString());
        Set<Integer> taken = new HashSet<>();
        Map<Integer, Integer> brokerPorts = new TreeMap<>();
        Map<Integer, Integer> controllerPorts = new TreeMap<>();
        for (int id = 1; id <= nodeCount; id++) {
            int node = id;
            int previousBroker =
                    previous.map(s -> s.brokerPorts().getOrDefault(node, 0)).orElse(0);
            int previousController =
                    previous.map(s -> s.controllerPorts().getOrDefault(node, 0)).orElse(0);
            brokerPorts.put(id, pickPort(id == 1 ? settings.brokerPort() : 0, previousBroker, taken));
            controllerPorts.put(id, pickPort(id == 1 ? settings.controllerPort() : 0, previousController, taken));
        }
        return new ClusterState(clusterId, brokerPorts, controllerPorts);
    }

    /** The configured port, else the previous one when free, else a free one; never one already taken here. */
    private static int pickPort(int configured, int previous, Set<Integer> taken) {
        int port;
        if (configured != 0) {
            port = configured;
        } else if (previous != 0 && !taken.contains(previous) && LoopbackPorts.isFree(previous)) {
            port = previous;
        } else {
            // freePort() releases the port at once, so it can hand out one chosen a moment ago
            do {
                port = LoopbackPorts.freePort();
            } while (taken.contains(port));
        }
        if (!taken.add(port)) {
            throw new IllegalArgumentException("port " + port + " is configured for two listeners of the cluster");
        }
        return port;
    }

    private Path nodeDir(int id) {
        return dataDir.resolve("node-" + id);
    }

    /**
     * Starts every node that is not running, all at once (a quorum answers only once a majority runs),
     * and blocks until the cluster lists all of them as live brokers.
     *
     * @throws IllegalStateException if a node exits or the cluster is not ready within the start timeout
     *                               times the node count (the message includes the tails of the broker
     *                               logs of the nodes not ready); the nodes
     *                               started by this call are stopped again
     */
    public synchronized EmbeddedKafkaCluster start() {
        if (closed) {
            throw new IllegalStateException("cluster is closed");
        }
        long startNs = System.nanoTime();
        List<EmbeddedKafkaBroker> launched = new ArrayList<>();
        try {
            for (EmbeddedKafkaBroker node : nodes.values()) {
                if (!node.isRunning()) {
                    node.launch();
                    launched.add(node);
                }
            }
            awaitAllBrokers(startNs);
        } catch (RuntimeException e) {
            stopInParallel(launched);
            throw e;
        }
        launched.forEach(EmbeddedKafkaBroker::markReady);
        lastStartDuration = Duration.ofNanos(System.nanoTime() - startNs);
        log.info(
                "Kafka cluster of {} node(s) at {} ready in {} ms",
                nodeCount,
                bootstrapServers(),
                lastStartDuration.toMillis());
        return this;
    }

    /** The start timeout of one broker, times the nodes: they start at once on the same cores. */
    private Duration clusterStartTimeout() {
        return settings.startTimeout().multipliedBy(nodeCount);
    }

    private void awaitAllBrokers(long startNs) {
        long deadlineNs = startNs + clusterStartTimeout().toNanos();
        // A TCP probe first: a node opens its PLAINTEXT acceptor only once it has caught up with the
        // metadata log, and probing is silent, unlike an AdminClient retrying closed ports.
        while (!nodes.values().stream().allMatch(n -> LoopbackPorts.accepts(n.brokerPort(), 200))) {
            checkNodesAndTime(deadlineNs, Set.of());
            sleepMs(100);
        }
        Set<Integer> live = Set.of();
        try (Admin admin = admin(bootstrapServers())) {
            while (true) {
                try {
                    live = admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).stream()
                            .map(Node::id)
                            .collect(Collectors.toSet());
                    if (live.containsAll(nodes.keySet())) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not ready yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the Kafka cluster", e);
                }
                checkNodesAndTime(deadlineNs, live);
                sleepMs(100);
            }
        }
    }

    private void checkNodesAndTime(long deadlineNs, Set<Integer> live) {
        nodes.values().forEach(EmbeddedKafkaBroker::checkAlive);
        if (System.nanoTime() > deadlineNs) {
            StringBuilder tails = new StringBuilder();
            for (EmbeddedKafkaBroker node : nodes.values()) {
                if (!live.contains(node.nodeId())) {
                    String tail = node.logTail();
                    String[] lines = tail.split("\n");
                    tails.append("\nTail of ")
                            .append(node.logFile())
                            .append(":\n")
                            .append(String.join(
                                    "\n",
                                    List.of(lines)
                                            .subList(
                                                    Math.max(0, lines.length - LOG_TAIL_LINES_PER_NODE),
                                                    lines.length)));
                }
            }
            throw new IllegalStateException("Kafka cluster at " + bootstrapServers() + " not ready after "
                    + clusterStartTimeout().toSeconds() + " s: live brokers " + live + " of " + nodes.keySet() + tails);
        }
    }

    /** Node {@code id} (1..size()), for a caller that stops, kills or restarts one node. */
    public EmbeddedKafkaBroker node(int id) {
        EmbeddedKafkaBroker node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id + " in a cluster of nodes " + nodes.keySet());
        }
        return node;
    }

    public List<EmbeddedKafkaBroker> nodes() {
        return List.copyOf(nodes.values());
    }

    /** Stops one node cleanly (controlled shutdown: its partition leaderships move first). */
    public void stopNode(int id) {
        node(id).stop();
    }

    /** Kills one node with SIGKILL, as a crash would. */
    public void killNode(int id) {
        node(id).kill();
    }

    /**
     * Starts one stopped or killed node on its earlier ports and data, and blocks until it is a live
     * broker again. Its replicas may still be catching up (the tests wait with Replicas.awaitAllInSync).
     */
    public void startNode(int id) {
        node(id).start();
    }

    public int size() {
        return nodeCount;
    }

    /** The replication factor for topics on this cluster: as many as there are nodes, up to 3. */
    public short replicationFactor() {
        return (short) Math.min(3, nodeCount);
    }

    /** min.insync.replicas for topics on this cluster: 2 from 3 replicas on (one node may be down), else 1. */
    public int minInSyncReplicas() {
        return replicationFactor() >= 3 ? 2 : 1;
    }

    /** Every node's "127.0.0.1:port", comma-separated; valid once start() has been called. */
    public String bootstrapServers() {
        return nodes.values().stream()
                .map(EmbeddedKafkaBroker::bootstrapServers)
                .collect(Collectors.joining(","));
    }

    /** Wall time of the last start(), from the call until the cluster listed every node. */
    public Duration lastStartDuration() {
        return lastStartDuration;
    }

    public Path dataDir() {
        return dataDir;
    }

    /**
     * Stops every node, in parallel: one after another, the last ones would wait for a quorum already gone. Even
     * so the quorum leader takes ~5 s longer than the others (Kafka's graceful resignation waits for a successor
     * that is stopping too).
     */
    public synchronized void stop() {
        stopInParallel(nodes.values());
    }

    /**
     * Stops every node, in parallel, and deletes the data directory if it was a temporary one. A cluster in a
     * temporary directory is killed rather than stopped: its data goes with it, so a controlled shutdown saves
     * nothing and costs the quorum leader's ~5 s wait for a successor.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (deleteDataDirOnClose) {
                inParallel(nodes.values(), EmbeddedKafkaBroker::kill, "kill");
            }
            closeInParallel(nodes.values());
        } finally {
            if (deleteDataDirOnClose) {
                EmbeddedKafkaBroker.deleteRecursively(dataDir);
            }
        }
    }

    private static void stopInParallel(Collection<EmbeddedKafkaBroker> brokers) {
        inParallel(brokers, EmbeddedKafkaBroker::stop, "stop");
    }

    private static void closeInParallel(Collection<EmbeddedKafkaBroker> brokers) {
        inParallel(brokers, EmbeddedKafkaBroker::close, "close");
    }

    private static void inParallel(
            Collection<EmbeddedKafkaBroker> brokers, Consumer<EmbeddedKafkaBroker> action, String what) {
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (EmbeddedKafkaBroker broker : brokers) {
            Thread t = new Thread(
                    () -> {
                        try {
                            action.accept(broker);
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    },
                    "ssdpulse-kafka-node-" + broker.nodeId() + "-" + what);
            t.start();
            threads.add(t);
        }
        boolean interrupted = false;
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    // each node's stop is bounded by its stop timeout: finish it rather than leave a JVM behind
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    private Admin admin(String bootstrapServers) {
        Properties props = new Properties();
        props.putAll(settings.adminClientProperties());
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        return Admin.create(props);
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kafka cluster", e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaCluster[" + nodeCount + " node(s), " + dataDir + "]";
    }

    /** What a cluster directory remembers between runs: the cluster id and every node's ports. */
    record ClusterState(String clusterId, Map<Integer, Integer> brokerPorts, Map<Integer, Integer> controllerPorts) {
        ClusterState {
            brokerPorts = Map.copyOf(brokerPorts);
            controllerPorts = Map.copyOf(controllerPorts);
        }

        static Optional<ClusterState> read(Path dataDir) {
            Path file = dataDir.resolve(STATE_FILE);
            Optional<Properties> loaded = BrokerState.load(file);
            if (loaded.isEmpty()) {
                return Optional.empty();
            }
            Properties p = loaded.get();
            try {
                String clusterId = required(p, "cluster.id", file);
                int brokers = Integer.parseInt(required(p, "brokers", file));
                Map<Integer, Integer> brokerPorts = new LinkedHashMap<>();
                Map<Integer, Integer> controllerPorts = new LinkedHashMap<>();
                for (int id = 1; id <= brokers; id++) {
                    brokerPorts.put(id, Integer.parseInt(required(p, "node." + id + ".broker.port", file)));
                    controllerPorts.put(id, Integer.parseInt(required(p, "node." + id + ".controller.port", file)));
                }
                return Optional.of(new ClusterState(clusterId, brokerPorts, controllerPorts));
            } catch (NumberFormatException e) {
                throw new IllegalStateException(
                        file + " holds a value that is not a number (" + e.getMessage()
                                + "); delete the data directory to start afresh",
                        e);
            }
        }

        private static String required(Properties p, String key, Path file) {
            String value = p.getProperty(key);
            if (value == null) {
                throw new IllegalStateException(file + " lacks " + key + "; found keys " + p.stringPropertyNames()
                        + " (delete the data directory to start afresh)");
            }
            return value.trim();
        }

        void write(Path dataDir) {
            Properties p = new Properties();
            p.setProperty("cluster.id", clusterId);
            p.setProperty("brokers", Integer.toString(brokerPorts.size()));
            brokerPorts.forEach((id, port) -> p.setProperty("node." + id + ".broker.port", Integer.toString(port)));
            controllerPorts.forEach(
                    (id, port) -> p.setProperty("node." + id + ".controller.port", Integer.toString(port)));
            BrokerState.store(dataDir.resolve(STATE_FILE), p, "ssdpulse embedded Kafka cluster state");
        }
    }
}
