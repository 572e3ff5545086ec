package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;

/** One change to the registry's state, as stored in the `_schemas` topic. */
public sealed interface RegistryRecord {

    /** A subject version (new, or rewritten with deleted=true on soft delete). */
    record SchemaVersion(SchemaEntry entry) implements RegistryRecord {}

    /**
     * A compatibility level; subject null = the global level; level null = the subject-level setting
     * was removed (the record is then a tombstone).
     */
    record Config(String subject, CompatibilityLevel level) implements RegistryRecord {}
}
