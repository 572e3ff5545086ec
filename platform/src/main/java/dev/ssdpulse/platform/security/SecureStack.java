package dev.ssdpulse.platform.security;

import dev.ssdpulse.platform.kafka.BrokerSecurity;
import dev.ssdpulse.platform.registry.RegistrySecurity;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;

/**
 * The security of a {@code stack --secure}: its {@code secure/} directory (owner-only) with the generated passwords,
 * the CA and server certificate, and one client properties file per {@link StackUser}; the brokers' and the
 * registry's settings derived from them; the ACLs of {@link AclPlan}. Everything is created on the first start and
 * reused afterwards, so credentials and trust survive restarts.
 */
public final class SecureStack {
    public static final String DIRECTORY = "secure";
    /** The analytics' application id prefix the ACLs grant: the default id and replays' ids derived from it. */
    public static final String ANALYTICS_APPLICATION_ID_PREFIX = "ssdpulse-analytics";

    private static final int ACL_TIMEOUT_S = 30;

    private final Path dir;
    private final StackSecrets secrets;
    private final StackCertificates certificates;

    private SecureStack(Path dir, StackSecrets secrets, StackCertificates certificates) {
        this.dir = dir;
        this.secrets = secrets;
        this.certificates = certificates;
    }

    /** Loads the material in {@code dataDir/secure}, creating what is missing. */
    public static SecureStack prepare(Path dataDir) {
        Path dir = SecureFiles.ownerOnlyDirectory(dataDir.resolve(DIRECTORY));
        SecureRandom random = new SecureRandom();
        StackSecrets secrets = StackSecrets.loadOrCreate(dir, random);
        StackCertificates certificates = StackCertificates.loadOrCreate(dir, secrets.storePassword(), random);
        return new SecureStack(dir, secrets, certificates);
    }

    public Path directory() {
        return dir;
    }

    public StackCertificates certificates() {
        return certificates;
    }

    public BrokerSecurity brokerSecurity() {
        Map<String, String> scram = new LinkedHashMap<>();
        Arrays.stream(StackUser.values()).forEach(u -> scram.put(u.userName(), secrets.password(u)));
        return new BrokerSecurity(
                certificates.keystore(),
                certificates.truststore(),
                secrets.storePassword(),
                StackUser.ADMIN.userName(),
                secrets.password(StackUser.ADMIN),
                scram);
    }

    public RegistrySecurity registrySecurity() {
        Map<String, String> users = new LinkedHashMap<>();
        Arrays.stream(StackUser.values()).forEach(u -> users.put(u.userName(), secrets.password(u)));
        return new RegistrySecurity(
                certificates.keystore(),
                secrets.storePassword(),
                users,
                Arrays.stream(StackUser.values())
                        .filter(StackUser::registryWriter)
                        .map(StackUser::userName)
                        .collect(Collectors.toSet()));
    }

    /** A user's full client properties (Kafka and registry), as its file holds them. */
    public Map<String, String> clientProperties(StackUser user, String bootstrapServers, String registryUrl) {
        return ClientPropertiesFiles.content(
                user.userName(),
                secrets.password(user),
                bootstrapServers,
                registryUrl,
                certificates.truststore(),
                secrets.storePassword());
    }

    /**
     * Writes every user's client properties file (owner-only) with the stack's current addresses: ports can change
     * between starts when the old ones are taken, passwords do not.
     *
     * @return each user's file
     */
    public Map<StackUser, Path> writeClientFiles(String bootstrapServers, String registryUrl) {
        Map<StackUser, Path> files = new EnumMap<>(StackUser.class);
        for (StackUser user : StackUser.values()) {
            Path file = dir.resolve(user.propertiesFileName());
            ClientPropertiesFiles.write(file, user, clientProperties(user, bootstrapServers, registryUrl));
            files.put(user, file);
        }
        return files;
    }

    /**
     * Creates the plan's ACLs (creating an existing one again is a no-op on Kafka's side).
     *
     * @param admin a client logged in as the admin
     * @return the number of bindings
     */
    public static int applyAcls(Admin admin) {
        List<AclBinding> acls = AclPlan.all(ANALYTICS_APPLICATION_ID_PREFIX);
        try {
            admin.createAcls(acls).all().get(ACL_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot create the stack's ACLs: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating the stack's ACLs timed out after " + ACL_TIMEOUT_S + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the stack's ACLs", e);
        }
        return acls.size();
    }
}
