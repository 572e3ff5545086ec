package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;

/** A version in a URL: a number from 1, or "latest" (also -1, as Confluent accepts). */
public record VersionSpec(int number) {
    public static final VersionSpec LATEST = new VersionSpec(-1);

    public boolean isLatest() {
        return number == -1;
    }

    public static VersionSpec parse(String text) {
        if ("latest".equalsIgnoreCase(text)) {
            return LATEST;
        }
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw SchemaRegistryException.invalidVersion(text);
        }
        if (n == -1) {
            return LATEST;
        }
        if (n < 1) {
            throw SchemaRegistryException.invalidVersion(text);
        }
        return new VersionSpec(n);
    }
}
