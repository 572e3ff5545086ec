package dev.ssdpulse.platform.kafka;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a secured broker listens and authenticates: one SASL_SSL listener with SCRAM-SHA-512 for clients and for the
 * brokers among themselves, the KRaft CONTROLLER listener on SASL_SSL with PLAIN (static credentials of the admin:
 * Kafka cannot check SCRAM on the controller listener, whose credentials live in the metadata the controller
 * serves), {@code StandardAuthorizer} with the admin as the only super user and no access where no ACL allows it.
 * Every listener is on 127.0.0.1 and authenticated: there is no unauthenticated path, not even to the controller.
 *
 * @param keystore       PKCS12 with the server key and its chain (SAN 127.0.0.1)
 * @param truststore     PKCS12 with the CA that signed it (the brokers are each other's clients)
 * @param storePassword  password of both stores and of the key
 * @param adminUser      the super user the stack and the brokers authenticate as
 * @param adminPassword  its password
 * @param scramUsers     every SCRAM user created when the storage is formatted, admin included: user to password
 */
public record BrokerSecurity(
        Path keystore,
        Path truststore,
        String storePassword,
        String adminUser,
        String adminPassword,
        Map<String, String> scramUsers) {
    public static final String MECHANISM = "SCRAM-SHA-512";
    static final String CLIENT_LISTENER = "SASL_SSL";

    public BrokerSecurity {
        Objects.requireNonNull(keystore, "keystore");
        Objects.requireNonNull(truststore, "truststore");
        scramUsers = Map.copyOf(scramUsers);
        if (!adminPassword.equals(scramUsers.get(adminUser))) {
            throw new IllegalArgumentException(
                    "the admin user '" + adminUser + "' must be among the SCRAM users " + "with its password");
        }
    }

    /** The server.properties entries that make a node secure, given its ports. */
    Map<String, String> serverProperties(int brokerPort, int controllerPort) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(
                "listeners",
                CLIENT_LISTENER + "://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", CLIENT_LISTENER + "://127.0.0.1:" + brokerPort);
        p.put("inter.broker.listener.name", CLIENT_LISTENER);
        p.put("listener.security.protocol.map", CLIENT_LISTENER + ":SASL_SSL,CONTROLLER:SASL_SSL");
        p.put("listener.name.sasl_ssl.sasl.enabled.mechanisms", MECHANISM);
        p.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", scramJaas());
        p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put(
                "listener.name.controller.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + adminUser
                        + "\" password=\"" + adminPassword + "\" user_" + adminUser + "=\"" + adminPassword + "\";");
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("ssl.keystore.location", keystore.toAbsolutePath().toString());
        p.put("ssl.keystore.password", storePassword);
        p.put("ssl.key.password", storePassword);
        p.put("ssl.keystore.type", "PKCS12");
        p.put("ssl.truststore.location", truststore.toAbsolutePath().toString());
        p.put("ssl.truststore.password", storePassword);
        p.put("ssl.truststore.type", "PKCS12");
        p.put("ssl.client.auth", "none");
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + adminUser);
        p.put("allow.everyone.if.no.acl.found", "false");
        return p;
    }

    /** Client properties of the admin: what the stack's own Kafka clients add to the bootstrap servers. */
    public Map<String, Object> adminClientProperties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", MECHANISM);
        p.put("sasl.jaas.config", scramJaas());
        p.put("ssl.truststore.location", truststore.toAbsolutePath().toString());
        p.put("ssl.truststore.password", storePassword);
        p.put("ssl.truststore.type", "PKCS12");
        return p;
    }

    /** The storage formatter's {@code --add-scram} arguments: every user's credential exists from the first start. */
    List<String> formatScramArguments() {
        return scramUsers.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> MECHANISM + "=[name=" + e.getKey() + ",password=" + e.getValue() + "]")
                .toList();
    }

    private String scramJaas() {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + adminUser
                + "\" password=\"" + adminPassword + "\";";
    }

    @Override
    public String toString() {
        return "BrokerSecurity[SASL_SSL " + MECHANISM + ", users " + scramUsers.keySet() + ", passwords hidden]";
    }
}
