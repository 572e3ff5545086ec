package dev.ssdpulse.platform.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.registry.CompatibilityLevel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Key and value bytes of `_schemas` records, in the layout Confluent Schema Registry uses, so the
 * topic stays readable by Confluent tooling. Keys are written with a fixed field order because
 * compaction compares key bytes: the same logical key must always produce the same bytes.
 *
 * <p>SCHEMA: key {"keytype":"SCHEMA","subject":s,"version":v,"magic":1},
 * value {"subject":s,"version":v,"id":n,"schema":text,"deleted":bool}.
 * CONFIG: key {"keytype":"CONFIG","subject":s|null,"magic":0}, value {"compatibilityLevel":L} or
 * null (tombstone: subject-level setting removed).
 */
public final class RegistryRecordCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RegistryRecordCodec() {}

    public static byte[] key(RegistryRecord record) {
        ObjectNode key = JSON.createObjectNode();
        if (record instanceof RegistryRecord.SchemaVersion sv) {
            key.put("keytype", "SCHEMA");
            key.put("subject", sv.entry().subject());
            key.put("version", sv.entry().version());
            key.put("magic", 1);
        } else if (record instanceof RegistryRecord.Config c) {
            key.put("keytype", "CONFIG");
            if (c.subject() == null) {
                key.putNull("subject");
            } else {
                key.put("subject", c.subject());
            }
            key.put("magic", 0);
        }
        return bytes(key);
    }

    /** Null for a tombstone. */
    public static byte[] value(RegistryRecord record) {
        ObjectNode value = JSON.createObjectNode();
        if (record instanceof RegistryRecord.SchemaVersion sv) {
            SchemaEntry e = sv.entry();
            value.put("subject", e.subject());
            value.put("version", e.version());
            value.put("id", e.id());
            value.put("schema", e.schema());
            value.put("deleted", e.deleted());
        } else if (record instanceof RegistryRecord.Config c) {
            if (c.level() == null) {
                return null;
            }
            value.put("compatibilityLevel", c.level().name());
        }
        return bytes(value);
    }

    /**
     * Decodes one topic record. Record types this registry does not use (NOOP, MODE, DELETE_SUBJECT,
     * ... written by other registries) and tombstones of schema keys decode to empty.
     *
     * @throws IllegalArgumentException naming the offending field when a known record type is malformed
     */
    public static Optional<RegistryRecord> decode(byte[] keyBytes, byte[] valueBytes) {
        JsonNode key = parse(keyBytes, "key");
        String keyType = key.path("keytype").asText("");
        switch (keyType) {
            case "SCHEMA": {
                if (valueBytes == null) {
                    return Optional.empty();
                }
                JsonNode v = parse(valueBytes, "value");
                SchemaEntry entry = new SchemaEntry(
                        requireText(v, "subject"),
                        requireInt(v, "version"),
                        requireInt(v, "id"),
                        requireText(v, "schema"),
                        v.path("deleted").asBoolean(false));
                return Optional.of(new RegistryRecord.SchemaVersion(entry));
            }
            case "CONFIG": {
                JsonNode subjectNode = key.path("subject");
                String subject = subjectNode.isTextual() ? subjectNode.asText() : null;
                if (valueBytes == null) {
                    return Optional.of(new RegistryRecord.Config(subject, null));
                }
                JsonNode v = parse(valueBytes, "value");
                return Optional.of(new RegistryRecord.Config(
                        subject, CompatibilityLevel.parse(requireText(v, "compatibilityLevel"))));
            }
            default:
                return Optional.empty();
        }
    }

    private static JsonNode parse(byte[] bytes, String what) {
        if (bytes == null) {
            throw new IllegalArgumentException("_schemas record has a null " + what);
        }
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "_schemas record " + what + " is not JSON: " + new String(bytes, StandardCharsets.UTF_8), e);
        }
    }

    private static String requireText(JsonNode node, String field) {
        JsonNode f = node.get(field);
        if (f == null || !f.isTextual()) {
            throw new IllegalArgumentException("_schemas record value lacks text field '" + field + "': " + node);
        }
        return f.asText();
    }

    private static int requireInt(JsonNode node, String field) {
        JsonNode f = node.get(field);
        if (f == null || !f.canConvertToInt() || !f.isIntegralNumber()) {
            throw new IllegalArgumentException("_schemas record value lacks integer field '" + field + "': " + node);
        }
        return f.asInt();
    }

    private static byte[] bytes(ObjectNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
