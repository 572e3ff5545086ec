package dev.ssdpulse.platform.security;

/**
 * The users of a secured stack, one per role. Each has a SCRAM-SHA-512 credential on the brokers, a registry
 * login with the same password, and a client properties file in the stack's {@code secure/} directory.
 */
public enum StackUser {
    /** Super user: the stack itself (topic creation, ACLs, the registry's {@code _schemas} log). */
    ADMIN("admin", true),
    /** Writes the raw topics: runs, I/O events, SMART samples (simulate, device, import fio, play). */
    PRODUCER("producer", true),
    /**
     * Reads the raw topics, writes the derived ones, owns its application id's groups, internal topics, transactions.
     */
    ANALYTICS("analytics", true),
    /** Reads the run catalogue and the derived topics; writes nothing, in Kafka or the registry. */
    READER("reader", false);

    private final String userName;
    private final boolean registryWriter;

    StackUser(String userName, boolean registryWriter) {
        this.userName = userName;
        this.registryWriter = registryWriter;
    }

    /** The SCRAM user name and registry login. */
    public String userName() {
        return userName;
    }

    /** Kafka's principal of this user, as ACLs and {@code super.users} name it. */
    public String principal() {
        return "User:" + userName;
    }

    /** Whether the registry lets this user register schemas and change its configuration. */
    public boolean registryWriter() {
        return registryWriter;
    }

    /** The client properties file of this user in the {@code secure/} directory. */
    public String propertiesFileName() {
        return userName + ".properties";
    }
}
