package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading the JSON that smartctl and nvme-cli print. Some nvme-cli plugins print one JSON document per log page
 * (wdc vs-smart-add-log), so every top-level value is read. Counters come in every shape the tools use: numbers,
 * decimal strings with thousands separators (nvme-cli's 128-bit counters in some versions), hexadecimal strings
 * ("0x..." from the Micron and Seagate plugins) and {hi, lo} objects of two 64-bit halves (the OCP plugin).
 */
final class ToolJson {
    static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ToolJson() {}

    /** Every top-level JSON value of the output, at least one. */
    static List<JsonNode> documents(String tool, String output) throws SmartParseException {
        if (output == null || output.isBlank()) {
            throw new SmartParseException(tool + " printed nothing");
        }
        String trimmed = output.stripLeading();
        if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
            throw new SmartParseException(tool + " printed text, not JSON: '" + firstLine(trimmed) + "'");
        }
        List<JsonNode> docs = new ArrayList<>();
        try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(trimmed)) {
            while (it.hasNextValue()) {
                docs.add(it.nextValue());
            }
        } catch (JsonEOFException e) {
            throw new SmartParseException(tool + " output ends before its JSON is complete (truncated)", e);
        } catch (JsonProcessingException e) {
            if (!docs.isEmpty() && e instanceof JsonParseException) {
                // text after complete documents (a plugin's trailing message): the documents are whole
                return docs;
            }
            throw new SmartParseException(tool + " output is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new SmartParseException(tool + " output cannot be read: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            // MappingIterator wraps parse errors met in hasNextValue
            Throwable cause = e.getCause();
            if (cause instanceof JsonEOFException) {
                throw new SmartParseException(tool + " output ends before its JSON is complete (truncated)", e);
            }
            if (!docs.isEmpty()) {
                return docs;
            }
            throw new SmartParseException(
                    tool + " output is not valid JSON: "
                            + (cause instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()),
                    e);
        }
        if (docs.isEmpty()) {
            throw new SmartParseException(tool + " printed no JSON value");
        }
        return docs;
    }

    /**
     * A non-negative counter of any shape the tools print; null when the node is absent or JSON null.
     *
     * @throws SmartParseException naming the tool and field when the value is not a counter
     */
    static BigInteger count(JsonNode node, String tool, String field) throws SmartParseException {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        BigInteger value;
        if (node.isObject() && (node.has("hi") || node.has("lo"))) {
            BigInteger hi = half(node.get("hi"), tool, field + ".hi");
            BigInteger lo = half(node.get("lo"), tool, field + ".lo");
            value = hi.shiftLeft(64).or(lo);
        } else if (node.isIntegralNumber()) {
            value = node.bigIntegerValue();
        } else if (node.isNumber()) {
            // a floating value is not a counter; one with no fraction is accepted (some plugins print doubles)
            double d = node.doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw new SmartParseException(tool + ": " + field + " is not a whole count: " + node.asText());
            }
            value = node.decimalValue().toBigIntegerExact();
        } else if (node.isTextual()) {
            value = parseText(node.asText(), tool, field);
        } else {
            throw new SmartParseException(tool + ": " + field + " is not a number: " + node);
        }
        if (value.signum() < 0) {
            throw new SmartParseException(tool + ": " + field + " is negative: " + value);
        }
        return value;
    }

    private static BigInteger half(JsonNode node, String tool, String field) throws SmartParseException {
        BigInteger v = count(node, tool, field);
        if (v == null) {
            throw new SmartParseException(tool + ": " + field + " is missing");
        }
        if (v.compareTo(TWO_64) >= 0) {
            throw new SmartParseException(tool + ": " + field + " = " + v + " does not fit 64 bits");
        }
        return v;
    }

    private static BigInteger parseText(String text, String tool, String field) throws SmartParseException {
        String t = text.trim();
        try {
            if (t.startsWith("0x") || t.startsWith("0X")) {
                return new BigInteger(t.substring(2), 16);
            }
            return new BigInteger(t.replace(",", ""));
        } catch (NumberFormatException e) {
            throw new SmartParseException(tool + ": " + field + " is not a number: '" + text + "'");
        }
    }

    static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 120 ? line.substring(0, 117) + "..." : line;
    }
}
