package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code nvme smart-log DEV -o json} (nvme-cli) and the {@code nvme_smart_health_information_log} object of
 * {@code smartctl -j -a} on NVMe. Data units are thousands of 512-byte units (NVMe base spec, SMART/Health log:
 * "Data Units Read/Written ... reported in thousands of units of 512 bytes"), so bytes = units x 512,000; the
 * counter is rounded up by the drive, so a difference between readings is exact to +-512,000 bytes.
 */
public final class NvmeSmartLogParser {
    public static final long BYTES_PER_DATA_UNIT = 512_000L;
    private final ObjectMapper mapper = new ObjectMapper();

    public SmartReading parseNvmeCli(String json, long timeNs) throws SmartParseException {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new SmartParseException("nvme smart-log output is not JSON: " + e.getOriginalMessage(), e);
        }
        return fromLog(root, timeNs, SmartReading.Source.NVME_SMART_LOG, "nvme smart-log");
    }

    /** @param log the SMART/health log object (nvme-cli's root, or smartctl's nvme_smart_health_information_log) */
    static SmartReading fromLog(JsonNode log, long timeNs, SmartReading.Source source, String tool)
            throws SmartParseException {
        if (log == null || !log.isObject()) {
            throw new SmartParseException(tool + ": no SMART/health log object in the output");
        }
        Map<String, String> raw = new LinkedHashMap<>();
        log.fields().forEachRemaining(e -> {
            if (e.getValue().isValueNode()) {
                raw.put(e.getKey(), e.getValue().asText());
            }
        });
        Long written = units(log, tool, "data_units_written");
        Long read = units(log, tool, "data_units_read");
        if (written == null && read == null) {
            throw new SmartParseException(tool + ": neither data_units_written nor data_units_read in the log");
        }
        return new SmartReading(timeNs, source, written, read, null, null, raw);
    }

    private static Long units(JsonNode log, String tool, String field) throws SmartParseException {
        JsonNode n = log.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        BigInteger units;
        try {
            // nvme-cli prints 128-bit counters as numbers or, in some versions, as strings
            units = n.isNumber()
                    ? n.bigIntegerValue()
                    : new BigInteger(n.asText().replace(",", "").trim());
        } catch (NumberFormatException e) {
            throw new SmartParseException(tool + ": field " + field + " is not a number: '" + n.asText() + "'");
        }
        BigInteger bytes = units.multiply(BigInteger.valueOf(BYTES_PER_DATA_UNIT));
        if (bytes.bitLength() > 63) {
            throw new SmartParseException(tool + ": field " + field + " = " + units + " units overflows 64-bit bytes");
        }
        return bytes.longValue();
    }
}
