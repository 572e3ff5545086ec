package dev.ssdpulse.platform;

import java.time.Duration;
import java.util.HashMap;
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
 * one line within seconds instead of a minute of client retries and a stack trace.
 */
public final class KafkaReachability {
    /** Long enough for a loaded broker to answer, short enough for the user's answer to come within 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

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
            super("cannot reach Kafka at " + servers + " (no answer within " + timeout.toSeconds() + " s"
                    + (detail == null ? "" : ": " + detail) + "): start a local one with `ssdpulse stack`, or pass"
                    + " --bootstrap-servers HOST:PORT (a secured cluster also needs --kafka-config)");
        }
    }
}
