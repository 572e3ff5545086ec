package dev.ssdpulse.schemas.registry;

import java.util.Locale;

/** Compatibility levels of the Confluent Schema Registry. */
public enum CompatibilityLevel {
    NONE,
    BACKWARD,
    BACKWARD_TRANSITIVE,
    FORWARD,
    FORWARD_TRANSITIVE,
    FULL,
    FULL_TRANSITIVE;

    /** True when new schemas must be able to read data written with earlier ones. */
    public boolean checksBackward() {
        return this == BACKWARD || this == BACKWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** True when earlier schemas must be able to read data written with new ones. */
    public boolean checksForward() {
        return this == FORWARD || this == FORWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** True when the check runs against every earlier version, not just the latest. */
    public boolean transitive() {
        return name().endsWith("_TRANSITIVE");
    }

    /** Parses a level name, case-insensitively; a 422 with error code 42203 listing the valid names otherwise. */
    public static CompatibilityLevel parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw SchemaRegistryException.invalidCompatibilityLevel(name);
        }
    }
}
