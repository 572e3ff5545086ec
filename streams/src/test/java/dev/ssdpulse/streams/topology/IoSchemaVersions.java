package dev.ssdpulse.streams.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Later versions of the I/O event schema, derived from the compiled v1 (so they follow it when v1 changes):
 * v2 adds optional fields (union with null, default null) to IoStreamRecord and IoBatch; the incompatible
 * variants add a required field without default, or change a field's type.
 */
final class IoSchemaVersions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private IoSchemaVersions() {}

    /** v2: IoStreamRecord.producerHost and IoBatch.deviceTemperatureC, both ["null", ...] default null. */
    static Schema v2() {
        return derive(root -> {
            ((ArrayNode) root.get("fields")).add(field("producerHost", nullable("string"), true));
            ((ArrayNode) ioBatch(root).get("fields")).add(field("deviceTemperatureC", nullable("int"), true));
        });
    }

    /** A new required IoBatch field without a default: v1 data cannot be read with it. */
    static Schema withRequiredField() {
        return derive(root -> ((ArrayNode) ioBatch(root).get("fields"))
                .add(field("deviceTemperatureC", JSON.getNodeFactory().textNode("int"), false)));
    }

    /** IoBatch.worker changed from int to string. */
    static Schema withTypeChange() {
        return derive(root -> {
            for (JsonNode f : ioBatch(root).get("fields")) {
                if (f.get("name").asText().equals("worker")) {
                    ((ObjectNode) f).put("type", "string");
                }
            }
        });
    }

    /** v1 Avro binary (no wire header) of a record. */
    static byte[] v1Binary(IoStreamRecord record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new SpecificDatumWriter<>(IoStreamRecord.SCHEMA$).write(record, enc);
            enc.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The record as v2 binary with the new fields set (non-null, so a v1 reader must skip them). */
    static byte[] v2Binary(Schema v2, IoStreamRecord record, String producerHost, Integer temperatureC) {
        try {
            GenericRecord g = new GenericDatumReader<GenericRecord>(IoStreamRecord.SCHEMA$, v2)
                    .read(null, DecoderFactory.get().binaryDecoder(v1Binary(record), null));
            g.put("producerHost", producerHost);
            if (g.get("event") instanceof GenericRecord event
                    && event.getSchema().getName().equals("IoBatch")) {
                event.put("deviceTemperatureC", temperatureC);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(v2, GenericData.get()).write(g, enc);
            enc.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Schema derive(Consumer<ObjectNode> change) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(IoStreamRecord.SCHEMA$.toString());
            change.accept(root);
            return new Schema.Parser().parse(JSON.writeValueAsString(root));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode ioBatch(ObjectNode root) {
        for (JsonNode f : root.get("fields")) {
            if (f.get("name").asText().equals("event")) {
                for (JsonNode branch : f.get("type")) {
                    if (branch.isObject() && branch.path("name").asText().equals("IoBatch")) {
                        return (ObjectNode) branch;
                    }
                }
            }
        }
        throw new IllegalStateException("IoStreamRecord.event has no IoBatch branch");
    }

    private static JsonNode nullable(String type) {
        return JSON.createArrayNode().add("null").add(type);
    }

    private static ObjectNode field(String name, JsonNode type, boolean defaultNull) {
        ObjectNode f = JSON.createObjectNode().put("name", name);
        f.set("type", type);
        f.put("doc", "added in a later version (test only)");
        if (defaultNull) {
            f.putNull("default");
        }
        return f;
    }
}
