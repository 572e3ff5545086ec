package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.AvroCompatibility;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * The registry's operations with Confluent Schema Registry semantics, independent of HTTP.
 *
 * <p>Thread-safe: every operation holds this object's lock, and a change is written to the
 * {@link RegistryLog} before it is applied to the in-memory state, so the state is always the
 * replay of the log. Single writer: it assumes no other registry writes the same log; the Kafka log
 * enforces that by fencing earlier writers (no leader election as in Confluent's multi-instance
 * deployments).
 */
public final class SchemaRegistry {
    private final RegistryLog log;
    private final RegistryState state = new RegistryState();

    /** Rebuilds the state by replaying the log. */
    public SchemaRegistry(RegistryLog log) {
        this.log = Objects.requireNonNull(log, "log");
        for (RegistryRecord record : log.readAll()) {
            state.apply(record);
        }
    }

    /** The compatibility check result; messages are empty when compatible. */
    public record CompatibilityResult(boolean compatible, List<String> messages) {}

    /**
     * Registers a schema under a subject: the same schema again gives its existing id and no new
     * version; a schema already known under another subject keeps its id.
     *
     * @throws SchemaRegistryException 422/42201 invalid schema or unsupported type, 409 incompatible,
     *                                 500/50001 store failure
     */
    public synchronized int register(String subject, String schemaText, String schemaType) {
        Schema schema = parse(schemaText, schemaType);
        String canonical = schema.toString();
        for (SchemaEntry e : state.versions(subject, false)) {
            if (e.schema().equals(canonical)) {
                return e.id();
            }
        }
        List<String> problems =
                AvroCompatibility.incompatibilities(state.effectiveLevel(subject), schema, liveSchemas(subject));
        if (!problems.isEmpty()) {
            throw SchemaRegistryException.incompatible(subject, problems);
        }
        OptionalInt known = state.idOf(canonical);
        int id = known.isPresent() ? known.getAsInt() : state.nextId();
        write(new RegistryRecord.SchemaVersion(
                new SchemaEntry(subject, state.nextVersion(subject), id, canonical, false)));
        return id;
    }

    /** @throws SchemaRegistryException 404/40403 unknown id */
    public synchronized String schemaById(int id) {
        return state.schemaById(id).orElseThrow(() -> SchemaRegistryException.schemaIdNotFound(id));
    }

    /** The live (subject, version) pairs using the id. @throws SchemaRegistryException 404/40403 unknown id */
    public synchronized List<SchemaEntry> usesOfId(int id, boolean includeDeleted) {
        schemaById(id);
        return state.usesOf(id, includeDeleted);
    }

    public synchronized List<String> subjects(boolean includeDeleted) {
        return state.subjects(includeDeleted);
    }

    /** @throws SchemaRegistryException 404/40401 unknown (or wholly deleted) subject */
    public synchronized List<Integer> versions(String subject, boolean includeDeleted) {
        return existingVersions(subject, includeDeleted).stream()
                .map(SchemaEntry::version)
                .toList();
    }

    /** @throws SchemaRegistryException 404/40401 unknown subject, 404/40402 unknown version */
    public synchronized SchemaEntry version(String subject, VersionSpec spec, boolean includeDeleted) {
        List<SchemaEntry> versions = existingVersions(subject, includeDeleted);
        if (spec.isLatest()) {
            return versions.get(versions.size() - 1);
        }
        return versions.stream()
                .filter(e -> e.version() == spec.number())
                .findFirst()
                .orElseThrow(() -> SchemaRegistryException.versionNotFound(spec.number()));
    }

    /**
     * Finds the version of a subject holding this schema.
     *
     * @throws SchemaRegistryException 404/40401 unknown subject, 404/40403 schema not under the subject,
     *                                 422/42201 invalid schema
     */
    public synchronized SchemaEntry lookup(
            String subject, String schemaText, String schemaType, boolean includeDeleted) {
        String canonical = parse(schemaText, schemaType).toString();
        List<SchemaEntry> versions = existingVersions(subject, includeDeleted);
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (versions.get(i).schema().equals(canonical)) {
                return versions.get(i);
            }
        }
        throw SchemaRegistryException.schemaNotFound();
    }

    /**
     * Checks a schema against one version of a subject, or against what registration would check
     * when the version is "latest" (the latest, or all versions for a transitive level). A subject
     * with no versions is compatible with anything when asked for "latest".
     */
    public synchronized CompatibilityResult testCompatibility(
            String subject, VersionSpec spec, String schemaText, String schemaType) {
        Schema schema = parse(schemaText, schemaType);
        CompatibilityLevel level = state.effectiveLevel(subject);
        List<Schema> against;
        if (spec.isLatest()) {
            against = liveSchemas(subject);
        } else {
            SchemaEntry entry = version(subject, spec, false);
            against = List.of(new Schema.Parser().parse(entry.schema()));
            if (level.transitive()) {
                level = CompatibilityLevel.valueOf(level.name().replace("_TRANSITIVE", ""));
            }
        }
        List<String> problems = AvroCompatibility.incompatibilities(level, schema, against);
        return new CompatibilityResult(problems.isEmpty(), problems);
    }

    public synchronized CompatibilityLevel globalLevel() {
        return state.globalLevel();
    }

    public synchronized void setGlobalLevel(CompatibilityLevel level) {
        write(new RegistryRecord.Config(null, Objects.requireNonNull(level, "level")));
    }

    public synchronized Optional<CompatibilityLevel> subjectLevel(String subject) {
        return state.subjectLevel(subject);
    }

    public synchronized CompatibilityLevel effectiveLevel(String subject) {
        return state.effectiveLevel(subject);
    }

    public synchronized void setSubjectLevel(String subject, CompatibilityLevel level) {
        write(new RegistryRecord.Config(subject, Objects.requireNonNull(level, "level")));
    }

    /** @return the removed level. @throws SchemaRegistryException 404/40408 when none was set */
    public synchronized CompatibilityLevel deleteSubjectLevel(String subject) {
        CompatibilityLevel previous = state.subjectLevel(subject)
                .orElseThrow(() -> SchemaRegistryException.subjectLevelCompatibilityNotConfigured(subject));
        write(new RegistryRecord.Config(subject, null));
        return previous;
    }

    /**
     * Soft-deletes every live version of the subject: they disappear from reads, their ids stay
     * resolvable (data written with them must stay readable), and version numbers continue.
     *
     * @return the deleted versions. @throws SchemaRegistryException 404/40401 unknown subject
     */
    public synchronized List<Integer> deleteSubject(String subject) {
        List<Integer> deleted = new ArrayList<>();
        for (SchemaEntry e : existingVersions(subject, false)) {
            write(new RegistryRecord.SchemaVersion(e.asDeleted()));
            deleted.add(e.version());
        }
        return deleted;
    }

    private List<SchemaEntry> existingVersions(String subject, boolean includeDeleted) {
        List<SchemaEntry> versions = state.versions(subject, includeDeleted);
        if (versions.isEmpty()) {
            throw SchemaRegistryException.subjectNotFound(subject);
        }
        return versions;
    }

    private List<Schema> liveSchemas(String subject) {
        return state.versions(subject, false).stream()
                .map(e -> new Schema.Parser().parse(e.schema()))
                .toList();
    }

    private void write(RegistryRecord record) {
        try {
            log.append(record);
        } catch (SchemaRegistryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw SchemaRegistryException.storeError(e.getMessage(), e);
        }
        state.apply(record);
    }

    /** Parses an Avro schema; other schema types are refused because ssdpulse registers Avro only. */
    static Schema parse(String schemaText, String schemaType) {
        if (schemaType != null && !schemaType.equalsIgnoreCase("AVRO")) {
            throw SchemaRegistryException.invalidSchema(
                    "schemaType '" + schemaType + "' is not supported by the ssdpulse embedded registry (AVRO only)");
        }
        if (schemaText == null || schemaText.isBlank()) {
            throw SchemaRegistryException.invalidSchema("the request has no 'schema' field");
        }
        try {
            return new Schema.Parser().parse(schemaText);
        } catch (SchemaParseException | NullPointerException e) {
            throw SchemaRegistryException.invalidSchema(e.getMessage());
        } catch (RuntimeException e) {
            // Avro reports some malformed JSON and bad defaults with other runtime exceptions.
            throw SchemaRegistryException.invalidSchema(e.toString());
        }
    }
}
