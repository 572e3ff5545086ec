package dev.ssdpulse.platform.security;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ready-to-use client properties of a secured stack's users: Kafka over SASL_SSL with SCRAM-SHA-512, the
 * registry over HTTPS with basic auth, both trusting the stack's CA; what {@code --kafka-config FILE} (or any Kafka
 * client) takes as it is. Standard key names only (Kafka's and Confluent's serde client's), so other tools read
 * them too.
 */
public final class ClientPropertiesFiles {
    public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";

    private ClientPropertiesFiles() {}

    /**
     * A user's client properties, in the order a reader scans them: where, Kafka security, registry.
     *
     * @param truststore the PKCS12 truststore holding the stack's CA
     */
    public static Map<String, String> content(
            String userName,
            String password,
            String bootstrapServers,
            String registryUrl,
            Path truststore,
            String truststorePassword) {
        if (userName.contains("\"") || password.contains("\"")) {
            throw new IllegalArgumentException(
                    "a user name or password with a double quote cannot be written into a " + "JAAS line");
        }
        Map<String, String> p = new LinkedHashMap<>();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", SCRAM_MECHANISM);
        p.put("sasl.jaas.config", scramJaas(userName, password));
        p.put("ssl.truststore.location", truststore.toAbsolutePath().toString());
        p.put("ssl.truststore.password", truststorePassword);
        p.put("ssl.truststore.type", "PKCS12");
        p.put("schema.registry.url", registryUrl);
        p.put(
                "schema.registry.ssl.truststore.location",
                truststore.toAbsolutePath().toString());
        p.put("schema.registry.ssl.truststore.password", truststorePassword);
        p.put("schema.registry.ssl.truststore.type", "PKCS12");
        p.put("basic.auth.credentials.source", "USER_INFO");
        p.put("basic.auth.user.info", userName + ":" + password);
        return p;
    }

    /** The JAAS line of a SCRAM login. */
    public static String scramJaas(String userName, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + userName
                + "\" password=\"" + password + "\";";
    }

    /** Writes the file readable by its owner only (it holds a password). */
    public static void write(Path file, StackUser user, Map<String, String> content) {
        SecureFiles.writeOwnerOnly(
                file,
                SecureFiles.propertiesText(
                        content,
                        "ssdpulse secured stack: client " + "properties of user '" + user.userName() + "' ("
                                + describe(user) + "); use with --kafka-config"));
    }

    private static String describe(StackUser user) {
        return switch (user) {
            case ADMIN -> "super user";
            case PRODUCER -> "writes the raw topics: simulate, device, import fio, play";
            case ANALYTICS -> "reads raw topics, writes derived ones: streams, replay, runs verify";
            case READER -> "reads the run catalogue and derived topics: report";
        };
    }
}
