package dev.ssdpulse.schemas.registry;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * Compatibility rules of the Confluent Schema Registry for Avro, decided by Avro's own
 * {@link SchemaCompatibility}: BACKWARD = the new schema reads data written with the old one, FORWARD = the
 * old schema reads data written with the new one, FULL = both; non-transitive levels check against the
 * latest version only.
 */
public final class AvroCompatibility {
    private AvroCompatibility() {}

    /**
     * Checks {@code candidate} against the subject's existing versions.
     *
     * @param previous existing schemas, oldest first
     * @return human-readable incompatibilities; empty when compatible
     */
    public static List<String> incompatibilities(CompatibilityLevel level, Schema candidate, List<Schema> previous) {
        List<String> problems = new ArrayList<>();
        if (level == CompatibilityLevel.NONE || previous.isEmpty()) {
            return problems;
        }
        List<Schema> against = level.transitive() ? previous : List.of(previous.get(previous.size() - 1));
        for (Schema old : against) {
            if (level.checksBackward()) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, old), "BACKWARD", problems);
            }
            if (level.checksForward()) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(old, candidate), "FORWARD", problems);
            }
        }
        return problems;
    }

    private static void describe(
            SchemaCompatibility.SchemaPairCompatibility result, String direction, List<String> problems) {
        if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return;
        }
        for (SchemaCompatibility.Incompatibility inc : result.getResult().getIncompatibilities()) {
            problems.add("{" + direction + " " + inc.getType() + " at '" + inc.getLocation() + "': " + inc.getMessage()
                    + "}");
        }
    }
}
