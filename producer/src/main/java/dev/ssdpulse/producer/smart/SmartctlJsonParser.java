package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads {@code smartctl -j -a DEV}. NVMe drives: the {@code nvme_smart_health_information_log} object (host
 * counters only, see {@link NvmeSmartLogParser}). ATA drives: {@code ata_smart_attributes.table[]} entries
 * {@code {id, name, raw: {value, string}}}, interpreted by {@link AtaAttributes} with the drive-database family
 * smartctl names ({@code model_family}) and the drive's {@code logical_block_size} for LBA counts. Erase count:
 * 177 {@code Wear_Leveling_Count} (Samsung: average P/E cycles) or 173 {@code Ave_Block-Erase_Count} /
 * {@code Average_Block_Erase_Count}.
 */
public final class SmartctlJsonParser {
    static final String TOOL = "smartctl";

    ToolReading parse(String output) throws SmartParseException {
        JsonNode root = ToolJson.documents(TOOL, output).get(0);
        String model = root.path("model_name").asText(null);
        String family = root.path("model_family").asText(null);
        JsonNode nvme = root.get("nvme_smart_health_information_log");
        if (nvme != null) {
            ToolReading log = NvmeSmartLogParser.fromLog(nvme, TOOL);
            return new ToolReading(model, log.counters(), null, log.raw());
        }
        JsonNode table = root.path("ata_smart_attributes").get("table");
        if (table == null || !table.isArray()) {
            String msg = root.path("smartctl")
                    .path("messages")
                    .path(0)
                    .path("string")
                    .asText("");
            throw new SmartParseException(
                    "smartctl: no ata_smart_attributes.table nor nvme_smart_health_information_log" + " in the output"
                            + (msg.isEmpty() ? "" : " (smartctl says: " + msg + ")"));
        }
        long sector = root.path("logical_block_size").asLong(512);
        AtaAttributes.Family fam = AtaAttributes.Family.of(family);
        Map<String, String> raw = new LinkedHashMap<>();
        List<SmartCounter> counters = new ArrayList<>();
        Long erase = null;
        for (JsonNode a : table) {
            String name = a.path("name").asText("");
            if (!a.path("id").canConvertToInt()
                    || a.path("id").asInt() < 1
                    || a.path("id").asInt() > 255) {
                throw new SmartParseException("smartctl: attribute " + (name.isEmpty() ? a.toString() : name)
                        + " has no id between 1 and 255");
            }
            int id = a.path("id").asInt();
            JsonNode rawNode = a.path("raw");
            BigInteger value =
                    ToolJson.count(rawNode.get("value"), TOOL, "attribute " + id + " (" + name + ") raw.value");
            if (value == null) {
                throw new SmartParseException("smartctl: attribute " + id + " (" + name + ") has no raw.value");
            }
            raw.put(id + " " + name, rawNode.path("string").asText(value.toString()));
            SmartCounter c = AtaAttributes.interpret(fam, id, name, value, sector);
            if (c != null) {
                counters.add(c);
            } else if ((id == 177 && name.equals("Wear_Leveling_Count"))
                    || name.equals("Ave_Block-Erase_Count")
                    || name.equals("Average_Block_Erase_Count")) {
                erase = value.longValue();
            }
        }
        String drive = model == null
                ? null
                : model + (family == null ? " (not in smartctl's drive database)" : " (" + family + ")");
        return new ToolReading(drive, counters, erase, raw);
    }
}
