package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The registry's state as a pure fold over {@link RegistryRecord}s. Not thread-safe; the owning
 * {@link SchemaRegistry} serialises access.
 */
final class RegistryState {
    private final Map<String, TreeMap<Integer, SchemaEntry>> subjects = new TreeMap<>();
    private final Map<Integer, String> schemaById = new HashMap<>();
    private final Map<String, Integer> idBySchema = new HashMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    private int maxId;

    void apply(RegistryRecord record) {
        if (record instanceof RegistryRecord.SchemaVersion sv) {
            SchemaEntry e = sv.entry();
            subjects.computeIfAbsent(e.subject(), s -> new TreeMap<>()).put(e.version(), e);
            schemaById.putIfAbsent(e.id(), e.schema());
            idBySchema.putIfAbsent(e.schema(), e.id());
            maxId = Math.max(maxId, e.id());
        } else if (record instanceof RegistryRecord.Config c) {
            if (c.subject() == null) {
                globalLevel = c.level() == null ? CompatibilityLevel.BACKWARD : c.level();
            } else if (c.level() == null) {
                subjectLevels.remove(c.subject());
            } else {
                subjectLevels.put(c.subject(), c.level());
            }
        }
    }

    /** Subjects with at least one version (a live one unless includeDeleted), sorted. */
    List<String> subjects(boolean includeDeleted) {
        List<String> names = new ArrayList<>();
        subjects.forEach((name, versions) -> {
            if (includeDeleted || versions.values().stream().anyMatch(e -> !e.deleted())) {
                names.add(name);
            }
        });
        return names;
    }

    /** The subject's versions, oldest first. */
    List<SchemaEntry> versions(String subject, boolean includeDeleted) {
        TreeMap<Integer, SchemaEntry> versions = subjects.get(subject);
        if (versions == null) {
            return List.of();
        }
        return versions.values().stream()
                .filter(e -> includeDeleted || !e.deleted())
                .toList();
    }

    Optional<String> schemaById(int id) {
        return Optional.ofNullable(schemaById.get(id));
    }

    OptionalInt idOf(String canonicalSchema) {
        Integer id = idBySchema.get(canonicalSchema);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    /** Every (subject, version) holding the id, deleted ones included only on request. */
    List<SchemaEntry> usesOf(int id, boolean includeDeleted) {
        List<SchemaEntry> uses = new ArrayList<>();
        for (TreeMap<Integer, SchemaEntry> versions : subjects.values()) {
            for (SchemaEntry e : versions.values()) {
                if (e.id() == id && (includeDeleted || !e.deleted())) {
                    uses.add(e);
                }
            }
        }
        return uses;
    }

    /** Ids are never reused, deleted versions included, so a cached id always means one schema. */
    int nextId() {
        return maxId + 1;
    }

    /** Versions continue after soft-deleted ones, as in Confluent's registry. */
    int nextVersion(String subject) {
        TreeMap<Integer, SchemaEntry> versions = subjects.get(subject);
        return versions == null || versions.isEmpty() ? 1 : versions.lastKey() + 1;
    }

    CompatibilityLevel globalLevel() {
        return globalLevel;
    }

    Optional<CompatibilityLevel> subjectLevel(String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    CompatibilityLevel effectiveLevel(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }
}
