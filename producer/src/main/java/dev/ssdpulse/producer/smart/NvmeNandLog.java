package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The NVMe logs that count NAND writes, each read through nvme-cli's JSON, and which drives to ask. The standard
 * SMART / Health log has host writes only ({@link NvmeSmartLogParser}); these add the NAND side. Field names are
 * those nvme-cli prints (its plugins' JSON printers, versions 2.x and 3.x); units are those of the log's
 * specification where one is published.
 *
 * <ul>
 *   <li>OCP: the "SMART / Health Information Extended" log C0h of the OCP Datacenter NVMe SSD specification
 *       ({@code nvme ocp smart-add-log}): Physical Media Units Written, bytes, 128 bits, printed as {hi, lo}
 *       ("Physical media units written" in the v1 JSON, "physical_media_units_written" in v2). Drives of many
 *       vendors carry it (Samsung, Kioxia, Micron, Solidigm, WDC, Seagate data-centre models).</li>
 *   <li>Intel and Solidigm: the additional SMART log CAh ({@code nvme intel smart-log-add}, {@code nvme solidigm
 *       smart-log-add}): "Device stats" items {@code nand_bytes_written} and {@code host_bytes_written}, whose
 *       raw values count 32 MiB (Intel's and Solidigm's product specifications for log CAh; nvme-cli's text
 *       output calls them "sectors" and prints no unit).</li>
 *   <li>Micron ({@code nvme micron vs-smart-add-log}): its own printing of log C0h ("Physical Media Units
 *       Written", bytes, as a hex string) or, on models without it, of log FBh ("Physical Media Units Written -
 *       TLC" and "- SLC": the TLC and the SLC programs, bytes, added up for the NAND writes).</li>
 *   <li>WDC ({@code nvme wdc vs-smart-add-log}): its printing of log C0h ("Physical media units written" or
 *       "physical_media_units_written", bytes), or of its extended SMART cloud log
 *       ("physical_media_units_bytes_tlc" and "_slc").</li>
 *   <li>Seagate ({@code nvme seagate vs-smart-add-log}): log C0h ("Seagate SMART Health Attributes": Physical
 *       Media Units Written, bytes), else the "Extended-SMART-Attributes" pair "Physical (NAND) bytes written" /
 *       "Physical (HOST) bytes written", whose unit Seagate does not publish (the ratio of the two is WA whatever it
 *       is, as both come from one log in one unit).</li>
 * </ul>
 * Samsung and Kioxia have no nvme-cli JSON for a NAND counter (nvme-cli has no Samsung plugin; its Toshiba
 * plugin dumps log CAh in hex without decoding it): their drives give WA through log C0h where they carry it.
 */
enum NvmeNandLog {
    OCP("nvme ocp smart-add-log", List.of(List.of("ocp", "smart-add-log"), List.of("-o", "json")), Set.of()),
    INTEL("nvme intel smart-log-add", List.of(List.of("intel", "smart-log-add"), List.of("--json")), Set.of(0x8086)),
    SOLIDIGM(
            "nvme solidigm smart-log-add",
            List.of(List.of("solidigm", "smart-log-add"), List.of("-o", "json")),
            Set.of(0x025e)),
    /** nvme-cli 3 takes -o json; nvme-cli 2's Micron plugin takes -f json. */
    MICRON(
            "nvme micron vs-smart-add-log",
            List.of(List.of("micron", "vs-smart-add-log"), List.of("-o", "json"), List.of("-f", "json")),
            Set.of(0x1344)),
    WDC(
            "nvme wdc vs-smart-add-log",
            List.of(List.of("wdc", "vs-smart-add-log"), List.of("-o", "json")),
            Set.of(0x1b96, 0x15b7)),
    SEAGATE(
            "nvme seagate vs-smart-add-log",
            List.of(List.of("seagate", "vs-smart-add-log"), List.of("-o", "json")),
            Set.of(0x1bb1));

    /** PCI vendor ids with no NAND log nvme-cli can read but OCP's, and the vendor's name for the notes. */
    static final Map<Integer, String> WITHOUT_PLUGIN = Map.of(0x144d, "Samsung", 0x1e0f, "Kioxia", 0x1179, "Toshiba");

    static final CounterUnit SEAGATE_UNIT = CounterUnit.vendor("Seagate extended-SMART count");

    final String tool;
    /** The plugin's command words, then one or more alternative output-format arguments (tried in order). */
    private final List<List<String>> words;

    private final Set<Integer> vendorIds;

    NvmeNandLog(String tool, List<List<String>> words, Set<Integer> vendorIds) {
        this.tool = tool;
        this.words = words;
        this.vendorIds = vendorIds;
    }

    /** Whether to ask a drive of this PCI vendor id (null: unknown) for this log. */
    boolean appliesTo(Integer vendorId) {
        return vendorIds.isEmpty() || (vendorId != null && vendorIds.contains(vendorId));
    }

    /** The command lines to try, in order: {@code nvme <plugin> <command> DEV <format args>}. */
    List<List<String>> commands(String nvme, String device) {
        List<List<String>> out = new ArrayList<>();
        for (List<String> format : words.subList(1, words.size())) {
            List<String> cmd = new ArrayList<>();
            cmd.add(nvme);
            cmd.addAll(words.get(0));
            cmd.add(device);
            cmd.addAll(format);
            out.add(cmd);
        }
        return out;
    }

    /** @throws SmartParseException when the output is not this log's JSON or has no NAND counter */
    ToolReading parse(String output) throws SmartParseException {
        List<JsonNode> docs = ToolJson.documents(tool, output);
        List<SmartCounter> counters = new ArrayList<>();
        Map<String, String> raw = new LinkedHashMap<>();
        for (JsonNode doc : docs) {
            switch (this) {
                case OCP -> ocp(doc, counters);
                case INTEL, SOLIDIGM -> intel(doc, counters);
                case MICRON -> micron(doc, counters);
                case WDC -> wdc(doc, counters);
                case SEAGATE -> seagate(doc, counters);
            }
            scalars(doc, "", raw);
        }
        if (counters.stream().noneMatch(NvmeNandLog::isNand)) {
            throw new SmartParseException(tool + ": the output has no NAND-writes field this version of ssdpulse"
                    + " knows (" + String.join(", ", topKeys(docs)) + ")");
        }
        return new ToolReading(null, counters, null, raw);
    }

    private static boolean isNand(SmartCounter c) {
        return c.role() == CounterRole.NAND_WRITES || c.role() == CounterRole.NAND_WRITES_PART;
    }

    private void ocp(JsonNode doc, List<SmartCounter> out) throws SmartParseException {
        for (String field : List.of("Physical media units written", "physical_media_units_written")) {
            add(out, CounterRole.NAND_WRITES, field, doc.get(field), CounterUnit.BYTE);
        }
    }

    private void intel(JsonNode doc, List<SmartCounter> out) throws SmartParseException {
        JsonNode stats = doc.get("Device stats");
        if (stats == null) {
            return;
        }
        add(
                out,
                CounterRole.NAND_WRITES,
                "nand_bytes_written",
                stats.path("nand_bytes_written").get("raw"),
                CounterUnit.MIB_32);
        add(
                out,
                CounterRole.HOST_WRITES,
                "host_bytes_written",
                stats.path("host_bytes_written").get("raw"),
                CounterUnit.MIB_32);
    }

    private void micron(JsonNode doc, List<SmartCounter> out) throws SmartParseException {
        for (var it = doc.fields(); it.hasNext(); ) {
            var page = it.next();
            if (!page.getValue().isArray() || page.getValue().isEmpty()) {
                continue;
            }
            JsonNode fields = page.getValue().get(0);
            add(
                    out,
                    CounterRole.NAND_WRITES,
                    "Physical Media Units Written",
                    fields.get("Physical Media Units Written"),
                    CounterUnit.BYTE);
            add(
                    out,
                    CounterRole.NAND_WRITES_PART,
                    "Physical Media Units Written - TLC",
                    fields.get("Physical Media Units Written - TLC"),
                    CounterUnit.BYTE);
            add(
                    out,
                    CounterRole.NAND_WRITES_PART,
                    "Physical Media Units Written - SLC",
                    fields.get("Physical Media Units Written - SLC"),
                    CounterUnit.BYTE);
        }
    }

    private void wdc(JsonNode doc, List<SmartCounter> out) throws SmartParseException {
        for (String field : List.of("Physical media units written", "physical_media_units_written")) {
            add(out, CounterRole.NAND_WRITES, field, doc.get(field), CounterUnit.BYTE);
        }
        for (String field : List.of("physical_media_units_bytes_tlc", "physical_media_units_bytes_slc")) {
            add(out, CounterRole.NAND_WRITES_PART, field, doc.get(field), CounterUnit.BYTE);
        }
    }

    private void seagate(JsonNode doc, List<SmartCounter> out) throws SmartParseException {
        for (JsonNode attr : doc.path("Seagate SMART Health Attributes")) {
            if ("Physical Media Units Written"
                    .equals(attr.path("attribute_name").asText())) {
                add(
                        out,
                        CounterRole.NAND_WRITES,
                        "Physical Media Units Written",
                        attr.get("attribute_value"),
                        CounterUnit.BYTE);
            }
        }
        for (JsonNode attr : doc.path("Extended-SMART-Attributes")) {
            String name = attr.path("attribute_name").asText();
            if (name.equals("Physical (NAND) bytes written")) {
                add(out, CounterRole.NAND_WRITES, name, attr.get("attribute_value"), SEAGATE_UNIT);
            } else if (name.equals("Physical (HOST) bytes written")) {
                add(out, CounterRole.HOST_WRITES, name, attr.get("attribute_value"), SEAGATE_UNIT);
            }
        }
    }

    private void add(List<SmartCounter> out, CounterRole role, String field, JsonNode node, CounterUnit unit)
            throws SmartParseException {
        BigInteger value = ToolJson.count(node, tool, field);
        if (value != null) {
            out.add(new SmartCounter(role, tool + ": " + field, value, unit));
        }
    }

    /** Every scalar field, by its path (nested objects joined with "."), as printed. */
    private static void scalars(JsonNode node, String prefix, Map<String, String> raw) {
        if (node.isValueNode()) {
            raw.put(prefix, node.asText());
        } else if (node.isObject()) {
            node.fields()
                    .forEachRemaining(
                            e -> scalars(e.getValue(), prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), raw));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                scalars(node.get(i), prefix + "[" + i + "]", raw);
            }
        }
    }

    private static List<String> topKeys(List<JsonNode> docs) {
        List<String> keys = new ArrayList<>();
        for (JsonNode d : docs) {
            d.fieldNames().forEachRemaining(keys::add);
        }
        return keys.size() > 6 ? keys.subList(0, 6) : keys;
    }
}
