package dev.ssdpulse.schemas.registry;

import java.io.Closeable;
import java.util.List;
import org.apache.avro.Schema;

/**
 * The operations of the Confluent Schema Registry REST API that ssdpulse uses, for Avro schemas.
 * Implementations are thread-safe. Errors are {@link SchemaRegistryException}s carrying Confluent's HTTP
 * status and error code (e.g. 404/40401 subject not found, 409 incompatible).
 */
public interface SchemaRegistryClient extends Closeable {

    /**
     * Registers {@code schema} under {@code subject} (a no-op returning the existing id when the subject
     * already has it) and returns its global id. 409 when incompatible with the subject's compatibility level.
     */
    int register(String subject, Schema schema);

    /** The schema with this global id; 404/40403 when unknown. */
    Schema getById(int id);

    /** The version of {@code subject} holding exactly {@code schema}; 404/40401 or 40403 when absent. */
    SchemaVersion lookup(String subject, Schema schema);

    /** The latest version of {@code subject}; 404/40401 when the subject does not exist. */
    SchemaVersion getLatest(String subject);

    /** One version of {@code subject}; 404/40401 or 40402 when absent. */
    SchemaVersion getVersion(String subject, int version);

    /** All subjects, sorted. */
    List<String> listSubjects();

    /** The versions of {@code subject}, ascending; 404/40401 when the subject does not exist. */
    List<Integer> listVersions(String subject);

    /**
     * Whether {@code schema} could be registered as the next version of {@code subject} under its
     * compatibility level (true when the subject does not exist yet).
     */
    boolean testCompatibility(String subject, Schema schema);

    /** The global compatibility level. */
    CompatibilityLevel getGlobalCompatibility();

    /** Sets the global compatibility level. */
    void setGlobalCompatibility(CompatibilityLevel level);

    /** The compatibility level that applies to {@code subject}: its own, else the global one. */
    CompatibilityLevel getCompatibility(String subject);

    /** Sets a subject-level compatibility level. */
    void setCompatibility(String subject, CompatibilityLevel level);

    /** Deletes {@code subject} (soft delete: schema ids stay resolvable) and returns the deleted versions. */
    List<Integer> deleteSubject(String subject);

    /** Releases resources; the default does nothing. */
    @Override
    default void close() {}
}
