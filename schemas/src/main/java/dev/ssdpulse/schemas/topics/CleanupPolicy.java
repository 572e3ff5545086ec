package dev.ssdpulse.schemas.topics;

/** Kafka {@code cleanup.policy} of a topic. */
public enum CleanupPolicy {
    /** Segments are deleted by age ({@code retention.ms}); -1 keeps them forever. */
    DELETE("delete"),
    /** The latest value per key is kept forever; older values are compacted away. */
    COMPACT("compact");

    private final String configValue;

    CleanupPolicy(String configValue) {
        this.configValue = configValue;
    }

    /** The value of Kafka's {@code cleanup.policy} topic config. */
    public String configValue() {
        return configValue;
    }
}
