package dev.ssdpulse.platform.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How to run an {@link EmbeddedKafkaBroker}.
 *
 * @param dataDir       where the broker keeps its logs, config and state; empty means a temporary
 *                      directory that is deleted on close
 * @param brokerPort    PLAINTEXT port on 127.0.0.1; 0 picks a free port (or reuses the one recorded
 *                      in the data directory by an earlier run, when it is still free)
 * @param controllerPort CONTROLLER port on 127.0.0.1; 0 as for brokerPort
 * @param heapMb        maximum heap of the broker JVM (-Xmx)
 * @param startTimeout  how long start() waits for the broker to answer before failing
 * @param stopTimeout   how long stop() waits for a clean shutdown before killing the process
 * @param extraJvmArgs  additional JVM options for the broker process
 * @param security      SASL_SSL, SCRAM users and ACL enforcement; empty for PLAINTEXT without authorization
 */
public record BrokerSettings(
        Optional<Path> dataDir,
        int brokerPort,
        int controllerPort,
        int heapMb,
        Duration startTimeout,
        Duration stopTimeout,
        List<String> extraJvmArgs,
        Optional<BrokerSecurity> security) {

    public BrokerSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        Objects.requireNonNull(security, "security");
        extraJvmArgs = List.copyOf(extraJvmArgs);
        checkPort("brokerPort", brokerPort);
        checkPort("controllerPort", controllerPort);
        if (heapMb < 64) {
            throw new IllegalArgumentException(
                    "heapMb must be >= 64 (a Kafka broker does not start with less), got " + heapMb);
        }
    }

    private static void checkPort(String name, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(name + " must be 0 (free port) or 1..65535, got " + port);
        }
    }

    public BrokerSettings(
            Optional<Path> dataDir,
            int brokerPort,
            int controllerPort,
            int heapMb,
            Duration startTimeout,
            Duration stopTimeout,
            List<String> extraJvmArgs) {
        this(dataDir, brokerPort, controllerPort, heapMb, startTimeout, stopTimeout, extraJvmArgs, Optional.empty());
    }

    /** Temporary data directory, free ports, 256 MB heap, 60 s start timeout, 30 s stop timeout. */
    public static BrokerSettings defaults() {
        return new BrokerSettings(
                Optional.empty(), 0, 0, 256, Duration.ofSeconds(60), Duration.ofSeconds(30), List.of());
    }

    public BrokerSettings withDataDir(Path dir) {
        return new BrokerSettings(
                Optional.of(dir),
                brokerPort,
                controllerPort,
                heapMb,
                startTimeout,
                stopTimeout,
                extraJvmArgs,
                security);
    }

    public BrokerSettings withPorts(int broker, int controller) {
        return new BrokerSettings(
                dataDir, broker, controller, heapMb, startTimeout, stopTimeout, extraJvmArgs, security);
    }

    public BrokerSettings withHeapMb(int mb) {
        return new BrokerSettings(
                dataDir, brokerPort, controllerPort, mb, startTimeout, stopTimeout, extraJvmArgs, security);
    }

    public BrokerSettings withStartTimeout(Duration timeout) {
        return new BrokerSettings(
                dataDir, brokerPort, controllerPort, heapMb, timeout, stopTimeout, extraJvmArgs, security);
    }

    public BrokerSettings withSecurity(BrokerSecurity brokerSecurity) {
        return new BrokerSettings(
                dataDir,
                brokerPort,
                controllerPort,
                heapMb,
                startTimeout,
                stopTimeout,
                extraJvmArgs,
                Optional.of(brokerSecurity));
    }

    /**
     * What the nodes' own Kafka clients (readiness checks) add to the bootstrap servers: the admin's login if secured.
     */
    public Map<String, Object> adminClientProperties() {
        return security.map(BrokerSecurity::adminClientProperties).orElse(Map.of());
    }
}
