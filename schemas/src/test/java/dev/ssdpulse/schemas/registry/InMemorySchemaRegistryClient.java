package dev.ssdpulse.schemas.registry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;

/**
 * A complete schema registry held in memory, with the semantics of the Confluent Schema Registry: global ids
 * shared by identical schemas across subjects, versions per subject from 1, BACKWARD compatibility by default
 * (checked with Avro's {@code SchemaCompatibility}), soft-deleted subjects whose ids stay resolvable, and the
 * same error codes. For unit tests and offline use (like Confluent's MockSchemaRegistryClient).
 *
 * <p>Counts calls per operation ({@link #calls(String)}) so tests can prove that serdes cache.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, Integer> idsByCanonical = new HashMap<>();
    private final Map<String, List<SchemaVersion>> subjects = new TreeMap<>();
    private final Map<String, Integer> lastVersionBySubject = new HashMap<>();
    private final Map<String, CompatibilityLevel> subjectCompatibility = new HashMap<>();
    private final Map<String, AtomicInteger> callCounts = new ConcurrentHashMap<>();
    private CompatibilityLevel globalCompatibility;
    private int lastId;

    /** A registry with global compatibility BACKWARD. */
    public InMemorySchemaRegistryClient() {
        this(CompatibilityLevel.BACKWARD);
    }

    public InMemorySchemaRegistryClient(CompatibilityLevel globalCompatibility) {
        this.globalCompatibility = globalCompatibility;
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        count("register");
        String canonical = schema.toString();
        List<SchemaVersion> versions = subjects.get(subject);
        if (versions != null) {
            for (SchemaVersion v : versions) {
                if (v.schema().toString().equals(canonical)) {
                    return v.id();
                }
            }
            List<String> problems = AvroCompatibility.incompatibilities(
                    compatibilityOf(subject),
                    schema,
                    versions.stream().map(SchemaVersion::schema).toList());
            if (!problems.isEmpty()) {
                throw SchemaRegistryException.incompatible(subject, problems);
            }
        }
        int id = idsByCanonical.computeIfAbsent(canonical, c -> {
            int newId = ++lastId;
            schemasById.put(newId, schema);
            return newId;
        });
        int version = lastVersionBySubject.merge(subject, 1, Integer::sum);
        subjects.computeIfAbsent(subject, s -> new ArrayList<>()).add(new SchemaVersion(subject, version, id, schema));
        return id;
    }

    @Override
    public synchronized Schema getById(int id) {
        count("getById");
        Schema schema = schemasById.get(id);
        if (schema == null) {
            throw SchemaRegistryException.schemaIdNotFound(id);
        }
        return schema;
    }

    @Override
    public synchronized SchemaVersion lookup(String subject, Schema schema) {
        count("lookup");
        String canonical = schema.toString();
        for (SchemaVersion v : versionsOf(subject)) {
            if (v.schema().toString().equals(canonical)) {
                return v;
            }
        }
        throw SchemaRegistryException.schemaNotFound();
    }

    @Override
    public synchronized SchemaVersion getLatest(String subject) {
        count("getLatest");
        List<SchemaVersion> versions = versionsOf(subject);
        return versions.get(versions.size() - 1);
    }

    @Override
    public synchronized SchemaVersion getVersion(String subject, int version) {
        count("getVersion");
        if (version < 1) {
            throw SchemaRegistryException.invalidVersion(Integer.toString(version));
        }
        for (SchemaVersion v : versionsOf(subject)) {
            if (v.version() == version) {
                return v;
            }
        }
        throw SchemaRegistryException.versionNotFound(version);
    }

    @Override
    public synchronized List<String> listSubjects() {
        count("listSubjects");
        return List.copyOf(subjects.keySet());
    }

    @Override
    public synchronized List<Integer> listVersions(String subject) {
        count("listVersions");
        return versionsOf(subject).stream().map(SchemaVersion::version).toList();
    }

    @Override
    public synchronized boolean testCompatibility(String subject, Schema schema) {
        count("testCompatibility");
        List<SchemaVersion> versions = subjects.get(subject);
        if (versions == null) {
            return true;
        }
        return AvroCompatibility.incompatibilities(
                        compatibilityOf(subject),
                        schema,
                        versions.stream().map(SchemaVersion::schema).toList())
                .isEmpty();
    }

    /**
     * The reasons why {@code schema} is incompatible with {@code subject}; empty when compatible. Not part
     * of the Confluent API (its compatibility endpoint answers a boolean unless verbose).
     */
    public synchronized List<String> incompatibilities(String subject, Schema schema) {
        List<SchemaVersion> versions = subjects.get(subject);
        if (versions == null) {
            return List.of();
        }
        return AvroCompatibility.incompatibilities(
                compatibilityOf(subject),
                schema,
                versions.stream().map(SchemaVersion::schema).toList());
    }

    @Override
    public synchronized CompatibilityLevel getGlobalCompatibility() {
        count("getGlobalCompatibility");
        return globalCompatibility;
    }

    @Override
    public synchronized void setGlobalCompatibility(CompatibilityLevel level) {
        count("setGlobalCompatibility");
        globalCompatibility = level;
    }

    @Override
    public synchronized CompatibilityLevel getCompatibility(String subject) {
        count("getCompatibility");
        return compatibilityOf(subject);
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        count("setCompatibility");
        subjectCompatibility.put(subject, level);
    }

    @Override
    public synchronized List<Integer> deleteSubject(String subject) {
        count("deleteSubject");
        List<Integer> deleted =
                versionsOf(subject).stream().map(SchemaVersion::version).toList();
        subjects.remove(subject);
        return deleted;
    }

    /** Calls made so far to the operation with this method name (e.g. "register", "getById"). */
    public int calls(String operation) {
        AtomicInteger counter = callCounts.get(operation);
        return counter == null ? 0 : counter.get();
    }

    /** Calls made so far to every operation. */
    public int totalCalls() {
        return callCounts.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    private List<SchemaVersion> versionsOf(String subject) {
        List<SchemaVersion> versions = subjects.get(subject);
        if (versions == null) {
            throw SchemaRegistryException.subjectNotFound(subject);
        }
        return versions;
    }

    private CompatibilityLevel compatibilityOf(String subject) {
        return subjectCompatibility.getOrDefault(subject, globalCompatibility);
    }

    private void count(String operation) {
        callCounts.computeIfAbsent(operation, o -> new AtomicInteger()).incrementAndGet();
    }
}
