package dev.ssdpulse.platform.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker (KRaft combined broker+controller) running in a child JVM with the same
 * classpath as this one, on 127.0.0.1: on its own a single-node cluster (node id 1), or one node of an
 * {@link EmbeddedKafkaCluster}.
 *
 * <p>A child process rather than an in-process server: the broker's threads, heap and static state
 * stay out of the application and tests, it can be killed outright, and there is exactly one Kafka
 * version (the jars on this classpath). The child watches its stdin (held by this JVM) and this
 * JVM's pid, so it exits when this JVM dies, even by kill -9; a shutdown hook stops it on a normal
 * JVM exit.
 *
 * <p>The data directory holds server.properties, the Kafka log dir (kafka-logs), the broker log
 * (broker.log) and the cluster id and ports (ssdpulse-broker.properties). Starting again on the same
 * directory keeps all topics. Not thread-safe: one owner starts and stops it.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int LOG_TAIL_LINES = 60;
    /**
     * JVM options added to every broker process this JVM starts, whitespace-separated. The build's tests set
     * {@code -XX:TieredStopAtLevel=1}: their brokers live seconds to minutes, and C2 compiling Kafka's code took
     * a quarter of the platform ITs' user CPU; a long-lived broker keeps the default tiers for its throughput.
     */
    public static final String JVM_ARGS_PROPERTY = "ssdpulse.broker.jvmArgs";
    /** Present in a node's data directory formatted for a secured cluster. */
    static final String SECURED_MARKER = "ssdpulse-secured";

    private final BrokerSettings settings;
    private final Path dataDir;
    private final boolean deleteDataDirOnClose;
    /** Null for a single-node cluster of its own, which picks its cluster id and ports itself. */
    private final Membership membership;

    private Process process;
    private long launchNs;
    private Thread shutdownHook;
    private int brokerPort;
    private int controllerPort;
    private Duration lastStartDuration = Duration.ZERO;
    private boolean formattedAtLaunch;
    private boolean closed;

    /**
     * What a node of a larger cluster is told by the cluster: its node id, the cluster id all nodes are
     * formatted with, and the static quorum (every node's controller port by node id).
     */
    record Membership(int nodeId, String clusterId, Map<Integer, Integer> controllerPorts) {
        Membership {
            controllerPorts = Map.copyOf(controllerPorts);
            if (!controllerPorts.containsKey(nodeId)) {
                throw new IllegalArgumentException("node " + nodeId + " is not in the quorum " + controllerPorts);
            }
        }
    }

    public EmbeddedKafkaBroker(BrokerSettings settings) {
        this(settings, null);
    }

    /** A node of a cluster: the settings must name its data directory and both ports. */
    EmbeddedKafkaBroker(BrokerSettings settings, Membership membership) {
        if (membership != null
                && (settings.dataDir().isEmpty()
                        || settings.brokerPort() == 0
                        || settings.controllerPort()
                                != membership.controllerPorts().get(membership.nodeId()))) {
            throw new IllegalArgumentException("a cluster node needs its data directory, broker port and quorum"
                    + " controller port set: " + settings + ", " + membership);
        }
        this.settings = settings;
        this.membership = membership;
        try {
            if (settings.dataDir().isPresent()) {
                this.dataDir = Files.createDirectories(settings.dataDir().get()).toAbsolutePath();
                this.deleteDataDirOnClose = false;
            } else {
                this.dataDir = Files.createTempDirectory("ssdpulse-kafka-").toAbsolutePath();
                this.deleteDataDirOnClose = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create broker data directory " + settings.dataDir().orElse(null), e);
        }
    }

    /** A broker with default settings in a temporary directory deleted on close. */
    public EmbeddedKafkaBroker() {
        this(BrokerSettings.defaults());
    }

    /**
     * Starts the broker and blocks until it lists itself among the live brokers of its cluster.
     *
     * @throws IllegalStateException if it is already running, or it does not become ready within the
     *                               start timeout (the message includes the tail of the broker log)
     */
    public synchronized EmbeddedKafkaBroker start() {
        launch();
        try {
            awaitReady();
        } catch (RuntimeException e) {
            stopProcess();
            throw e;
        }
        markReady();
        return this;
    }

    /**
     * Writes the configuration and starts the JVM without waiting for it: the nodes of a cluster start
     * together, since none answers before a majority of the quorum runs.
     */
    synchronized void launch() {
        if (closed) {
            throw new IllegalStateException("broker is closed");
        }
        if (isRunning()) {
            throw new IllegalStateException("broker already running at " + bootstrapServers());
        }
        launchNs = System.nanoTime();
        BrokerState state = membership == null ? chooseState() : memberState();
        brokerPort = state.brokerPort();
        controllerPort = state.controllerPort();
        state.write(dataDir);

        Path kafkaLogDir = dataDir.resolve("kafka-logs");
        boolean format = !Files.exists(kafkaLogDir.resolve("meta.properties"));
        // before anything is written: a refused start leaves the directory as it was
        checkSecuredOrNot(format);
        Path serverProperties = dataDir.resolve("server.properties");
        ServerPropertiesWriter.write(serverProperties, serverProperties());
        Path log4j = dataDir.resolve("broker-log4j2.properties");
        ServerPropertiesWriter.writeLog4j2(log4j);

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + settings.heapMb() + "m");
        command.add("-Xss1m");
        command.add("-Djava.awt.headless=true");
        command.add("-Dlog4j2.configurationFile=" + log4j.toUri());
        String extraFromProperty = System.getProperty(JVM_ARGS_PROPERTY, "").strip();
        if (!extraFromProperty.isEmpty()) {
            command.addAll(List.of(extraFromProperty.split("\\s+")));
        }
        command.addAll(settings.extraJvmArgs());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(KafkaBrokerProcessMain.class.getName());
        command.add(serverProperties.toString());
        command.add(Long.toString(ProcessHandle.current().pid()));
        if (format) {
            command.add("--format");
            command.add(state.clusterId());
            if (settings.security().isPresent()) {
                // the credentials go through an owner-only file the child deletes, not the command line (ps shows it)
                Path scram = dataDir.resolve(KafkaBrokerProcessMain.SCRAM_FILE);
                ServerPropertiesWriter.writeOwnerOnly(
                        scram, String.join("\n", settings.security().get().formatScramArguments()) + "\n");
                command.add("--add-scram-file");
                command.add(scram.toString());
            }
        }
        if (format && settings.security().isPresent()) {
            ServerPropertiesWriter.writeOwnerOnly(
                    dataDir.resolve(SECURED_MARKER),
                    "formatted with SCRAM users; started with SASL_SSL and ACLs only\n");
        } else if (format) {
            try {
                Files.deleteIfExists(dataDir.resolve(SECURED_MARKER));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete " + dataDir.resolve(SECURED_MARKER), e);
            }
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dataDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
        // stdin stays a pipe held by this JVM: its EOF is the child's signal that we are gone.
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start broker JVM: " + command.get(0), e);
        }
        installShutdownHook();
        formattedAtLaunch = format;
    }

    /** A formatted directory is secured (it has SCRAM users and ACLs) or not for good. */
    private void checkSecuredOrNot(boolean format) {
        if (format) {
            return;
        }
        boolean secured = Files.exists(dataDir.resolve(SECURED_MARKER));
        if (settings.security().isPresent() && !secured) {
            throw new IllegalStateException(dataDir + " holds a Kafka cluster created without security: it has no "
                    + "SCRAM users to log in with. Start it without security, or use a new data directory");
        }
        if (settings.security().isEmpty() && secured) {
            throw new IllegalStateException(dataDir + " holds a secured Kafka cluster (SCRAM users, ACLs): starting it "
                    + "without security would serve its data to anyone on PLAINTEXT. Start it secured "
                    + "(stack --secure)");
        }
    }

    /** Records the start time of a launch the caller has seen become ready. */
    synchronized void markReady() {
        lastStartDuration = Duration.ofNanos(System.nanoTime() - launchNs);
        log.info(
                "Kafka node {} at {} ready in {} ms (pid {}, data dir {}, {})",
                nodeId(),
                bootstrapServers(),
                lastStartDuration.toMillis(),
                process.pid(),
                dataDir,
                formattedAtLaunch ? "formatted" : "existing storage");
    }

    private BrokerState memberState() {
        var formatted = formattedClusterId();
        if (formatted.isPresent() && !formatted.get().equals(membership.clusterId())) {
            throw new IllegalStateException(
                    dataDir + " was formatted for Kafka cluster " + formatted.get() + ", not for this cluster ("
                            + membership.clusterId() + "); delete the data directory to start afresh");
        }
        return new BrokerState(membership.clusterId(), settings.brokerPort(), settings.controllerPort());
    }

    private BrokerState chooseState() {
        var previous = BrokerState.read(dataDir);
        // A formatted directory's own cluster id wins over the state file (which may be missing or stale).
        String clusterId = formattedClusterId()
                .orElseGet(() -> previous.map(BrokerState::clusterId)
                        .orElseGet(() -> Uuid.randomUuid().toString()));
        int broker = pickPort(
                settings.brokerPort(), previous.map(BrokerState::brokerPort).orElse(0));
        int controller = pickPort(
                settings.controllerPort(),
                previous.map(BrokerState::controllerPort).orElse(0));
        while (controller == broker) {
            controller = LoopbackPorts.freePort();
        }
        return new BrokerState(clusterId, broker, controller);
    }

    private Optional<String> formattedClusterId() {
        Path meta = dataDir.resolve("kafka-logs").resolve("meta.properties");
        if (!Files.exists(meta)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + meta, e);
        }
        return Optional.ofNullable(p.getProperty("cluster.id"));
    }

    private static int pickPort(int configured, int previous) {
        if (configured != 0) {
            return configured;
        }
        if (previous != 0 && LoopbackPorts.isFree(previous)) {
            return previous;
        }
        return LoopbackPorts.freePort();
    }

    /**
     * Blocks until this node's listener is open and the node lists itself among the cluster's live
     * brokers (it has caught up with the metadata log and is unfenced).
     */
    void awaitReady() {
        long deadlineNs = launchNs + settings.startTimeout().toNanos();
        // A TCP probe first: the PLAINTEXT acceptor opens only once the broker has caught up with the
        // metadata log, and probing it is silent, unlike an AdminClient retrying a closed port.
        while (!LoopbackPorts.accepts(brokerPort, 200)) {
            checkAliveAndTime(deadlineNs);
            sleepMs(100);
        }
        Properties props = new Properties();
        props.putAll(settings.adminClientProperties());
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        try (Admin admin = Admin.create(props)) {
            while (true) {
                try {
                    if (admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).stream()
                            .anyMatch(node -> node.id() == nodeId())) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not ready yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the broker", e);
                }
                checkAliveAndTime(deadlineNs);
                sleepMs(100);
            }
        }
    }

    private void checkAliveAndTime(long deadlineNs) {
        checkAlive();
        if (System.nanoTime() > deadlineNs) {
            throw new IllegalStateException("Kafka node " + nodeId() + " at " + bootstrapServers() + " not ready after "
                    + settings.startTimeout().toSeconds() + " s. Tail of " + logFile() + ":\n" + logTail());
        }
    }

    /** Throws, with the reason from the broker log, if the launched process has exited. */
    synchronized void checkAlive() {
        if (process == null) {
            throw new IllegalStateException("Kafka node " + nodeId() + " is not running");
        }
        if (!process.isAlive()) {
            // the ports are named here: Kafka's bind error does not say which port was taken
            throw new IllegalStateException("Kafka broker process of node " + nodeId() + " (broker port " + brokerPort
                    + ", controller port " + controllerPort + ") exited with code " + process.exitValue()
                    + " before becoming ready. First error: " + firstErrorLine() + "\nTail of " + logFile() + ":\n"
                    + logTail());
        }
    }

    private static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    /** The last lines of the broker log, for error messages. */
    public String logTail() {
        Path file = logFile();
        if (!Files.exists(file)) {
            return "(no broker log yet)";
        }
        Deque<String> tail = new ArrayDeque<>();
        try (Stream<String> lines = Files.lines(file, StandardCharsets.UTF_8)) {
            lines.forEach(line -> {
                tail.addLast(line);
                if (tail.size() > LOG_TAIL_LINES) {
                    tail.removeFirst();
                }
            });
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read broker log: " + e + ")";
        }
        return String.join("\n", tail);
    }

    /** The first ERROR line and first exception cause of the broker log: usually why it failed. */
    private String firstErrorLine() {
        try (Stream<String> lines = Files.lines(logFile(), StandardCharsets.UTF_8)) {
            List<String> all = lines.toList();
            String error = all.stream()
                    .filter(l -> l.contains(" ERROR ") || l.contains(" FATAL "))
                    .findFirst()
                    .orElse(null);
            String cause = all.stream()
                    .filter(l -> l.startsWith("Caused by:"))
                    .findFirst()
                    .orElse(null);
            if (error == null && cause == null) {
                return "(none logged)";
            }
            return error == null ? cause : cause == null ? error : error + " / " + cause;
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read broker log: " + e + ")";
        }
    }

    /** "127.0.0.1:port" of the PLAINTEXT listener; valid once start() has been called. */
    public String bootstrapServers() {
        if (brokerPort == 0) {
            throw new IllegalStateException("broker was never started");
        }
        return "127.0.0.1:" + brokerPort;
    }

    /** The KRaft node id: 1 for a broker on its own. */
    public int nodeId() {
        return membership == null ? 1 : membership.nodeId();
    }

    /** The PLAINTEXT port; 0 before the first start. */
    public int brokerPort() {
        return brokerPort;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The broker JVM's process, for callers that must check it is gone; empty when not started. */
    public synchronized Optional<ProcessHandle> processHandle() {
        return process == null ? Optional.empty() : Optional.of(process.toHandle());
    }

    /** Wall time of the last successful start(), from the call to the first answered describeCluster. */
    public Duration lastStartDuration() {
        return lastStartDuration;
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile() {
        return dataDir.resolve("broker.log");
    }

    /** Stops the broker cleanly (SIGTERM, then a kill after the stop timeout); the data stays. */
    public synchronized void stop() {
        stopProcess();
    }

    /**
     * Kills the broker JVM with SIGKILL, as a crash or power loss would: no controlled shutdown, nothing
     * flushed that the OS had not. The data directory stays; start() recovers from it.
     */
    public synchronized void kill() {
        killProcess("killed");
    }

    private void killProcess(String outcome) {
        if (process == null) {
            return;
        }
        Process p = process;
        process = null;
        removeShutdownHook();
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Kafka broker pid " + p.pid() + " still alive 30 s after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for killed broker pid " + p.pid(), e);
        }
        log.info("Kafka node {} (pid {}) {}", nodeId(), p.pid(), outcome);
    }

    /** Stops and starts again on the same data directory and, when still free, the same ports. */
    public synchronized EmbeddedKafkaBroker restart() {
        stopProcess();
        return start();
    }

    private void stopProcess() {
        if (process == null) {
            return;
        }
        Process p = process;
        process = null;
        removeShutdownHook();
        long t0 = System.nanoTime();
        terminate(p, settings.stopTimeout());
        log.info("Kafka broker pid {} stopped in {} ms", p.pid(), (System.nanoTime() - t0) / 1_000_000);
    }

    private static void terminate(Process p, Duration timeout) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Kafka broker pid {} did not stop within {} s, killing it", p.pid(), timeout.toSeconds());
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void installShutdownHook() {
        Process p = process;
        shutdownHook = new Thread(() -> terminate(p, Duration.ofSeconds(10)), "ssdpulse-broker-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    private void removeShutdownHook() {
        if (shutdownHook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // JVM already shutting down: the hook is running or will run, harmlessly.
        }
        shutdownHook = null;
    }

    /**
     * Stops the broker and deletes the data directory if it was a temporary one. A broker in a temporary
     * directory is killed rather than stopped: its data goes with it, so a controlled shutdown saves nothing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (deleteDataDirOnClose) {
            killProcess("stopped (its temporary data is deleted, so without a controlled shutdown)");
            deleteRecursively(dataDir);
        } else {
            stopProcess();
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    log.warn("cannot delete {}: {}", path, e.toString());
                }
            });
        } catch (IOException e) {
            log.warn("cannot delete {}: {}", dir, e.toString());
        }
    }

    @Override
    public String toString() {
        return "EmbeddedKafkaBroker[" + (brokerPort == 0 ? "not started" : bootstrapServers()) + ", " + dataDir + "]";
    }

    /** Exposed for diagnostics and tests: the effective server.properties content. */
    Map<String, String> serverProperties() {
        Path logDir = dataDir.resolve("kafka-logs");
        if (membership == null) {
            return ServerPropertiesWriter.serverProperties(
                    logDir, 1, brokerPort, controllerPort, Map.of(1, controllerPort), settings.security());
        }
        return ServerPropertiesWriter.serverProperties(
                logDir,
                membership.nodeId(),
                brokerPort,
                controllerPort,
                membership.controllerPorts(),
                settings.security());
    }
}
