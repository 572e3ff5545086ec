package dev.ssdpulse.platform.registry;

import java.util.Locale;

/** Confluent's compatibility levels. */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    private final boolean backward;
    private final boolean forward;
    private final boolean transitive;

    CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
        this.backward = backward;
        this.forward = forward;
        this.transitive = transitive;
    }

    /** The new schema must read data written with the earlier ones. */
    public boolean backward() {
        return backward;
    }

    /** The earlier schemas must read data written with the new one. */
    public boolean forward() {
        return forward;
    }

    /** Checked against every earlier (non-deleted) version, not only the latest. */
    public boolean transitive() {
        return transitive;
    }

    /** Case-insensitive, as Confluent accepts it. */
    public static CompatibilityLevel parse(String text) {
        if (text == null) {
            throw RegistryException.invalidCompatibilityLevel("null");
        }
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RegistryException.invalidCompatibilityLevel(text);
        }
    }
}
