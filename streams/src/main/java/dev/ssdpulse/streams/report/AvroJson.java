package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.IndexedRecord;

/**
 * Any Avro record as JSON with the schema's field names (stable: they are the wire contract). Bytes fields
 * (serialized histograms) are left out; a non-finite double becomes null, since JSON has no NaN.
 */
public final class AvroJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AvroJson() {}

    public static ObjectNode record(IndexedRecord record) {
        ObjectNode node = F.objectNode();
        for (Schema.Field field : record.getSchema().getFields()) {
            Object v = record.get(field.pos());
            if (v instanceof ByteBuffer || v instanceof byte[]) {
                continue;
            }
            node.set(field.name(), value(v));
        }
        return node;
    }

    /** A value of a record, or a cell of a {@link Table} (a JsonNode as it is). */
    public static JsonNode value(Object v) {
        if (v == null) {
            return F.nullNode();
        }
        if (v instanceof JsonNode n) {
            return n;
        }
        if (v instanceof IndexedRecord r) {
            return record(r);
        }
        if (v instanceof CharSequence || v instanceof GenericEnumSymbol<?> || v instanceof Enum<?>) {
            return F.textNode(v.toString());
        }
        if (v instanceof Boolean b) {
            return F.booleanNode(b);
        }
        if (v instanceof Integer i) {
            return F.numberNode(i);
        }
        if (v instanceof Long l) {
            return F.numberNode(l);
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? F.numberNode(d) : F.nullNode();
        }
        if (v instanceof Collection<?> c) {
            ArrayNode a = F.arrayNode();
            c.forEach(item -> a.add(value(item)));
            return a;
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = F.objectNode();
            m.forEach((k, item) -> o.set(k.toString(), value(item)));
            return o;
        }
        return F.textNode(v.toString());
    }
}
