package dev.ssdpulse.platform.registry;

/**
 * One version of a subject.
 *
 * @param schema the schema in Avro's canonical JSON (parsed and re-printed, no whitespace)
 * @param deleted soft-deleted: hidden from normal reads, but its id stays valid
 */
public record SchemaEntry(String subject, int version, int id, String schema, boolean deleted) {
    SchemaEntry asDeleted() {
        return new SchemaEntry(subject, version, id, schema, true);
    }
}
