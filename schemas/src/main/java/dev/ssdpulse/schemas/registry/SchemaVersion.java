package dev.ssdpulse.schemas.registry;

import java.util.Objects;
import org.apache.avro.Schema;

/**
 * One registered version of a subject.
 *
 * @param subject subject name
 * @param version version number within the subject, from 1
 * @param id      global schema id (the one in the wire format)
 * @param schema  the Avro schema
 */
public record SchemaVersion(String subject, int version, int id, Schema schema) {
    public SchemaVersion {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(schema, "schema");
    }
}
