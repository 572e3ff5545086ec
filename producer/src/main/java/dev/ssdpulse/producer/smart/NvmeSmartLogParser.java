package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the NVMe SMART / Health Information log (log page 02h): {@code nvme smart-log DEV -o json} (nvme-cli) and
 * the {@code nvme_smart_health_information_log} object of {@code smartctl -j -a} on NVMe. Data Units Read /
 * Written are thousands of 512-byte units whatever the namespace's LBA size, rounded up (NVMe base specification,
 * SMART / Health Information log: "reported in thousands of units of 512 bytes ... rounded up"), so bytes = units
 * x 512,000 and a difference of two readings is exact to one unit (512,000 bytes). The log has host counters
 * only: NAND writes come from the OCP extended log or a vendor log ({@link NvmeNandLog}).
 */
public final class NvmeSmartLogParser {
    public static final long BYTES_PER_DATA_UNIT = 512_000L;
    static final String TOOL = "nvme smart-log";

    /** {@code nvme smart-log DEV -o json}. */
    ToolReading parseNvmeCli(String output) throws SmartParseException {
        return fromLog(ToolJson.documents(TOOL, output).get(0), TOOL);
    }

    /** @param log the SMART / health log object (nvme-cli's root, or smartctl's nvme_smart_health_information_log) */
    static ToolReading fromLog(JsonNode log, String tool) throws SmartParseException {
        if (log == null || !log.isObject()) {
            throw new SmartParseException(tool + ": no SMART / health log object in the output");
        }
        Map<String, String> raw = new LinkedHashMap<>();
        log.fields().forEachRemaining(e -> {
            if (e.getValue().isValueNode()) {
                raw.put(e.getKey(), e.getValue().asText());
            }
        });
        List<SmartCounter> counters = new ArrayList<>();
        BigInteger written = ToolJson.count(log.get("data_units_written"), tool, "data_units_written");
        BigInteger read = ToolJson.count(log.get("data_units_read"), tool, "data_units_read");
        if (written == null && read == null) {
            throw new SmartParseException(tool + ": neither data_units_written nor data_units_read in the log");
        }
        if (written != null) {
            counters.add(new SmartCounter(
                    CounterRole.HOST_WRITES, tool + ": data_units_written", written, CounterUnit.NVME_DATA_UNIT));
        }
        if (read != null) {
            counters.add(new SmartCounter(
                    CounterRole.HOST_READS, tool + ": data_units_read", read, CounterUnit.NVME_DATA_UNIT));
        }
        return new ToolReading(null, counters, null, raw);
    }
}
