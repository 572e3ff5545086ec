package dev.ssdpulse.platform;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

/**
 * Asks the cluster for its id before a command does anything with Kafka, so that a cluster that does not answer is
 * one line within seconds instead of a minute of client retries and a stack trace: at once where nothing listens on
 * any bootstrap address, after {@link #DEFAULT_TIMEOUT} where something listens but Kafka does not answer.
 */
public final class KafkaReachability {
    /** Long enough for a loaded broker to answer, short enough for the user's answer to come within 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(4);

    private KafkaReachability() {}

    /**
     * @return the Kafka cluster id
     * @throws KafkaUnreachableException when no broker answered within {@code timeout}
     * @throws KafkaException            (cause of the failure) when one answered with an error, e.g. a refused login
     */
    public static String clusterId(Map<String, Object> clientProperties, Duration timeout) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        int ms = (int) timeout.toMillis();
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        String servers = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        String refused = nothingListens(servers);
        if (refused != null) {
            throw new KafkaUnreachableException(servers, refused);
        }
        Admin admin;
        try {
            admin = Admin.create(props);
        } catch (KafkaException e) {
            // e.g. a bootstrap address that does not resolve: the client refuses to start
            throw new KafkaUnreachableException(servers, timeout, rootMessage(e));
        }
        try {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs(ms))
                    .clusterId()
                    .get(ms + 1000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw new KafkaUnreachableException(servers, timeout, null);
            }
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException(e.getCause());
        } catch (TimeoutException e) {
            throw new KafkaUnreachableException(servers, timeout, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnreachableException(servers, timeout, "interrupted");
        } finally {
            admin.close(Duration.ZERO);
        }
    }

    /**
     * Why no bootstrap address can be connected to at all (refused: nothing listens there; unknown host), or null
     * when one accepts a TCP connection or cannot be told within a second: then Kafka itself is asked. The usual case
     * of no stack running is so answered at once instead of after the client's timeout.
     */
    static String nothingListens(String servers) {
        List<String> reasons = new ArrayList<>();
        for (String server : servers.split(",")) {
            String hostPort = server.trim().replaceFirst("^[A-Za-z_]+://", "");
            int colon = hostPort.lastIndexOf(':');
            if (colon <= 0) {
                return null; // not host:port: the client's own validation says what is wrong
            }
            String host = hostPort.substring(0, colon).replace("[", "").replace("]", "");
            int port;
            try {
                port = Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                return null;
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(host, port), 1000);
                return null;
            } catch (UnknownHostException e) {
                reasons.add(hostPort + ": unknown host");
            } catch (ConnectException e) {
                reasons.add(hostPort + ": connection refused, nothing listens there");
            } catch (IOException e) {
                return null; // a timeout or another failure: Kafka's client decides
            }
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    private static String rootMessage(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage() == null ? c.toString() : c.getMessage();
    }

    /** No broker answered: the message names the servers tried and how to start a cluster. */
    public static final class KafkaUnreachableException extends RuntimeException {
        KafkaUnreachableException(String servers, Duration timeout, String detail) {
            this(servers, "no answer within " + timeout.toSeconds() + " s" + (detail == null ? "" : ": " + detail));
        }

        KafkaUnreachableException(String servers, String why) {
            super("cannot reach Kafka at " + servers + " (" + why + "): start a local one with `ssdpulse stack`,"
                    + " or pass --bootstrap-servers HOST:PORT (a secured cluster also needs --kafka-config)");
        }
    }
}
