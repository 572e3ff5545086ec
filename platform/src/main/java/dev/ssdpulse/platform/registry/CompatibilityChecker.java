package dev.ssdpulse.platform.registry;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;

/** Confluent's compatibility rules expressed with Avro's own {@link SchemaCompatibility}. */
public final class CompatibilityChecker {
    private CompatibilityChecker() {
    }

    /**
     * Checks a candidate schema against earlier versions.
     *
     * @param earlierOldestFirst the subject's live versions, oldest first; a non-transitive level
     *                           looks only at the last one
     * @return human-readable reasons, empty when compatible
     */
    public static List<String> check(CompatibilityLevel level, Schema candidate, List<Schema> earlierOldestFirst) {
        List<String> problems = new ArrayList<>();
        if (level == CompatibilityLevel.NONE || earlierOldestFirst.isEmpty()) {
            return problems;
        }
        List<Schema> against = level.transitive()
                ? earlierOldestFirst
                : List.of(earlierOldestFirst.get(earlierOldestFirst.size() - 1));
        for (Schema earlier : against) {
            if (level.backward()) {
                describe("BACKWARD", SchemaCompatibility.checkReaderWriterCompatibility(candidate, earlier), problems);
            }
            if (level.forward()) {
                describe("FORWARD", SchemaCompatibility.checkReaderWriterCompatibility(earlier, candidate), problems);
            }
        }
        return problems;
    }

    private static void describe(String direction, SchemaPairCompatibility result, List<String> problems) {
        if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
            return;
        }
        for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
            problems.add("{errorType:'" + incompatibility.getType() + "', description:'" + direction + ": "
                    + incompatibility.getMessage() + "', location:'" + incompatibility.getLocation() + "'}");
        }
        if (result.getResult().getIncompatibilities().isEmpty()) {
            problems.add("{description:'" + direction + ": " + result.getDescription() + "'}");
        }
    }
}
