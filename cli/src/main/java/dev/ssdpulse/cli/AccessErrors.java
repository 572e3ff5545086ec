package dev.ssdpulse.cli;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;

/**
 * One-line messages for a refused login or a refused operation, from Kafka or the schema registry, wherever in a
 * failure's cause chain they are: what was refused (topic, group, transactional id, registry request) and to whom,
 * with the setting to check. The user is the one the command logged in as (from its client properties), since
 * Kafka's errors do not name it.
 */
public final class AccessErrors {
    private static final Pattern JAAS_USER = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");
    private static final String SEE = " (what each user of a secured stack may do: README, \"Secured deployment\")";

    private AccessErrors() {}

    /** The user a {@code sasl.jaas.config} line logs in as. */
    public static Optional<String> jaasUser(Object jaasConfig) {
        if (jaasConfig == null) {
            return Optional.empty();
        }
        Matcher m = JAAS_USER.matcher(jaasConfig.toString());
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * The message for a failure that is a refused login or operation; empty for any other failure.
     *
     * @param user the Kafka user the command logged in as, when known
     */
    public static Optional<String> describe(Throwable failure, Optional<String> user) {
        String who = user.map(u -> "user '" + u + "'").orElse("this client (no SASL user configured)");
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof SaslAuthenticationException) {
                return Optional.of("Kafka refused the login of " + who + ": " + c.getMessage()
                        + " (check username and password in sasl.jaas.config of --kafka-config)");
            }
            if (c instanceof SslAuthenticationException) {
                return Optional.of("TLS handshake with Kafka failed: " + rootMessage(c)
                        + " (ssl.truststore.location must hold the CA of the brokers' certificate; a secured stack's "
                        + "is secure/truststore.p12, named in its client files)");
            }
            if (c instanceof AuthenticationException) {
                return Optional.of("Kafka refused the connection of " + who + ": " + c.getMessage());
            }
            if (c instanceof TopicAuthorizationException t) {
                Set<String> topics = t.unauthorizedTopics();
                if (topics.isEmpty()) {
                    // some calls (topic creation, offsets) report the refusal in the message only
                    return Optional.of("Kafka refused " + who + " access to a topic: " + c.getMessage() + SEE);
                }
                return Optional.of("Kafka refused " + who + " access to topic" + (topics.size() == 1 ? " " : "s ")
                        + String.join(", ", topics.stream().sorted().toList())
                        + ": no ACL allows this user to " + topicOperation(failure) + " it" + SEE);
            }
            if (c instanceof GroupAuthorizationException g) {
                return Optional.of("Kafka refused " + who + " the consumer group '" + g.groupId()
                        + "': no ACL allows this user to read with that group id" + SEE);
            }
            if (c instanceof TransactionalIdAuthorizationException) {
                return Optional.of(
                        "Kafka refused " + who + " a transactional id (exactly-once writes): " + c.getMessage() + SEE);
            }
            if (c instanceof ClusterAuthorizationException) {
                return Optional.of("Kafka refused " + who + " a cluster operation: " + c.getMessage() + SEE);
            }
            if (c instanceof SchemaRegistryException r) {
                if (r.httpStatus() == 401) {
                    return Optional.of("the schema registry refused the request: " + r.getMessage()
                            + " (set basic.auth.credentials.source=USER_INFO and basic.auth.user.info=USER:PASSWORD)");
                }
                if (r.httpStatus() == 403) {
                    return Optional.of("the schema registry refused the request: " + r.getMessage() + SEE);
                }
                if (r.httpStatus() == SchemaRegistryException.NO_HTTP_STATUS && hasCause(r, SSLException.class)) {
                    return Optional.of("TLS handshake with the schema registry failed: " + rootMessage(r)
                            + " (schema.registry.ssl.truststore.location must hold the CA of its certificate)");
                }
            }
        }
        return Optional.empty();
    }

    /** Kafka's error does not say which operation: the failure around it usually does (a send, a poll). */
    private static String topicOperation(Throwable failure) {
        for (Throwable c = failure; c != null; c = c.getCause()) {
            for (StackTraceElement frame : c.getStackTrace()) {
                String where = frame.getClassName() + "." + frame.getMethodName();
                if (where.contains("Producer") || where.contains("RecordCollector")) {
                    return "write";
                }
                if (where.contains("Consumer") || where.contains("Fetcher")) {
                    return "read";
                }
            }
        }
        return "use";
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
