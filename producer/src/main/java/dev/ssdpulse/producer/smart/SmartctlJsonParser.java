package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code smartctl -j -a DEV}. NVMe drives: the {@code nvme_smart_health_information_log} object (see
 * {@link NvmeSmartLogParser}). ATA drives: {@code ata_smart_attributes.table[]} entries {@code {id, name, raw:
 * {value}}}; attribute meanings are vendor-specific, so counters are taken by name as smartctl's drive database
 * labels them, with the unit from the name:
 * <ul>
 *   <li>host writes: 241 {@code Total_LBAs_Written} (x {@code logical_block_size}), {@code Lifetime_Writes_GiB},
 *   {@code Host_Writes_GiB}, {@code Host_Writes_32MiB} (Intel); host reads: 242 likewise;</li>
 *   <li>NAND writes: names containing {@code NAND_Writes} with a unit suffix (Intel 249 {@code NAND_Writes_1GiB},
 *   {@code Total_NAND_Writes_GiB}), and SandForce 233 {@code SandForce_Internal} = NAND GiB (seed 000: E9 = NAND,
 *   EA/F1 = host);</li>
 *   <li>erase count: 177 {@code Wear_Leveling_Count} (Samsung: average P/E cycles) or 173
 *   {@code Ave_Block-Erase_Count} / {@code Average_Block_Erase_Count}.</li>
 * </ul>
 * A counter smartctl labels with an unknown unit is left null rather than guessed.
 */
public final class SmartctlJsonParser {
    private static final Pattern UNIT_SUFFIX = Pattern.compile("_(\\d*)(KiB|MiB|GiB|TiB|KB|MB|GB|TB)$");
    private final ObjectMapper mapper = new ObjectMapper();

    public SmartReading parse(String json, long timeNs) throws SmartParseException {
        JsonNode root;
        try {
            root = mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new SmartParseException("smartctl output is not JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode nvme = root.get("nvme_smart_health_information_log");
        if (nvme != null) {
            return NvmeSmartLogParser.fromLog(nvme, timeNs, SmartReading.Source.SMARTCTL, "smartctl");
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
        Map<String, String> raw = new LinkedHashMap<>();
        Long hostWritten = null, hostRead = null, nand = null, erase = null;
        for (JsonNode a : table) {
            int id = a.path("id").asInt(-1);
            String name = a.path("name").asText("");
            JsonNode rawNode = a.path("raw");
            if (!rawNode.has("value")) {
                throw new SmartParseException("smartctl: attribute " + id + " (" + name + ") has no raw.value");
            }
            long value = rawNode.path("value").asLong();
            raw.put(id + " " + name, rawNode.path("string").asText(Long.toString(value)));
            if (name.contains("NAND_Writes") || (id == 233 && name.equals("SandForce_Internal"))) {
                Long bytes = name.equals("SandForce_Internal") ? value << 30 : bytesByName(name, value, sector);
                if (bytes != null) {
                    nand = bytes;
                }
            } else if (id == 241 || name.startsWith("Host_Writes") || name.startsWith("Lifetime_Writes")) {
                Long bytes = bytesByName(name, value, sector);
                if (bytes != null && (hostWritten == null || id == 241)) {
                    hostWritten = bytes;
                }
            } else if (id == 242 || name.startsWith("Host_Reads") || name.startsWith("Lifetime_Reads")) {
                Long bytes = bytesByName(name, value, sector);
                if (bytes != null && (hostRead == null || id == 242)) {
                    hostRead = bytes;
                }
            } else if ((id == 177 && name.equals("Wear_Leveling_Count"))
                    || name.equals("Ave_Block-Erase_Count")
                    || name.equals("Average_Block_Erase_Count")) {
                erase = value;
            }
        }
        return new SmartReading(timeNs, SmartReading.Source.SMARTCTL, hostWritten, hostRead, nand, erase, raw);
    }

    /** Bytes for a counter whose unit is in its name: "..._LBAs_..." (sectors) or a size suffix; else null. */
    static Long bytesByName(String name, long value, long sectorBytes) {
        if (name.contains("LBAs")) {
            return value * sectorBytes;
        }
        Matcher m = UNIT_SUFFIX.matcher(name);
        if (!m.find()) {
            return null;
        }
        long count = m.group(1).isEmpty() ? 1 : Long.parseLong(m.group(1));
        long unit = switch (m.group(2)) {
            case "KiB" -> 1L << 10;
            case "MiB" -> 1L << 20;
            case "GiB" -> 1L << 30;
            case "TiB" -> 1L << 40;
            case "KB" -> 1_000L;
            case "MB" -> 1_000_000L;
            case "GB" -> 1_000_000_000L;
            default -> 1_000_000_000_000L;
        };
        return value * count * unit;
    }
}
