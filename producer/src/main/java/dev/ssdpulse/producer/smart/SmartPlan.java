package dev.ssdpulse.producer.smart;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How to read one drive's write-amplification counters: the tool commands, found once by asking the drive
 * ({@link #probe}), then run at every poll ({@link #poll}).
 *
 * <ul>
 *   <li>NVMe (a device named nvme*) with nvme-cli: {@code nvme smart-log} for the host writes, and the first NAND
 *       log the drive answers among OCP's extended SMART log C0h (any vendor) and its vendor's nvme-cli plugin
 *       (chosen by the PCI vendor id of {@code nvme id-ctrl}): see {@link NvmeNandLog}.</li>
 *   <li>NVMe without nvme-cli: {@code smartctl -j -a} (host writes only).</li>
 *   <li>Anything else: {@code smartctl -j -a}, whose ATA attributes {@link AtaAttributes} interprets.</li>
 * </ul>
 * Every log that was tried and did not answer is kept as a note with the tool's own words, so "WA unavailable"
 * always says why.
 */
public final class SmartPlan {
    /** Runs a command and returns its standard output (smartctl's exit code is a bit mask, so it is not checked). */
    @FunctionalInterface
    public interface CommandRunner {
        String run(List<String> command, Duration timeout) throws IOException, InterruptedException;
    }

    /** One command of a poll and how to read its output. */
    record Step(String tool, List<String> command, Parser parser) {}

    @FunctionalInterface
    interface Parser {
        ToolReading parse(String output) throws SmartParseException;
    }

    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final Path device;
    private final List<Step> steps;
    private final SmartReading.Source source;
    private final String drive;
    private final List<String> notes;
    private final String whyNoNand;
    private final String unavailableReason;

    private SmartPlan(
            Path device,
            List<Step> steps,
            SmartReading.Source source,
            String drive,
            List<String> notes,
            String whyNoNand,
            String unavailableReason) {
        this.device = device;
        this.steps = List.copyOf(steps);
        this.source = source;
        this.drive = drive;
        this.notes = List.copyOf(notes);
        this.whyNoNand = whyNoNand;
        this.unavailableReason = unavailableReason;
    }

    /** A plan with no tool: nothing is polled. */
    static SmartPlan unavailable(Path device, String reason) {
        return new SmartPlan(device, List.of(), null, null, List.of(), null, reason);
    }

    /**
     * Finds how to read the drive's counters; runs only reading commands (identify, log pages).
     *
     * @param nvmeTool     nvme-cli's {@code nvme}, if on the PATH
     * @param smartctlTool smartmontools' {@code smartctl}, if on the PATH
     */
    public static SmartPlan probe(
            Path device, Optional<Path> nvmeTool, Optional<Path> smartctlTool, CommandRunner runner)
            throws InterruptedException {
        String name = device.getFileName() == null ? "" : device.getFileName().toString();
        String dev = device.toString();
        boolean nvmeDevice = name.startsWith("nvme");
        if (nvmeDevice && nvmeTool.isPresent()) {
            return probeNvme(device, nvmeTool.get().toString(), runner);
        }
        if (smartctlTool.isPresent()) {
            SmartctlJsonParser parser = new SmartctlJsonParser();
            Step step = new Step(
                    SmartctlJsonParser.TOOL, List.of(smartctlTool.get().toString(), "-j", "-a", dev), parser::parse);
            String why = nvmeDevice
                    ? "nvme-cli (nvme) is not on the PATH: an NVMe drive's NAND counters are read with its OCP and"
                            + " vendor plugins; smartctl reads the standard SMART/health log, which has host writes "
                            + "only"
                    : null;
            return new SmartPlan(device, List.of(step), SmartReading.Source.SMARTCTL, null, List.of(), why, null);
        }
        return unavailable(
                device,
                nvmeDevice
                        ? "neither nvme (nvme-cli) nor smartctl (smartmontools) is on the PATH"
                        : "smartctl (smartmontools) is not on the PATH");
    }

    private static SmartPlan probeNvme(Path device, String nvme, CommandRunner runner) throws InterruptedException {
        String dev = device.toString();
        List<String> notes = new ArrayList<>();
        Integer vendorId = null;
        String drive = null;
        try {
            JsonNode id = ToolJson.documents(
                            "nvme id-ctrl", runner.run(List.of(nvme, "id-ctrl", dev, "-o", "json"), COMMAND_TIMEOUT))
                    .get(0);
            JsonNode vid = id.get("vid");
            if (vid != null && vid.canConvertToInt()) {
                vendorId = vid.asInt();
            }
            String model = id.path("mn").asText("").trim();
            drive = (model.isEmpty() ? dev : model)
                    + (vendorId == null ? "" : String.format(Locale.ROOT, " (PCI vendor 0x%04x)", vendorId));
        } catch (IOException | SmartParseException e) {
            notes.add("nvme id-ctrl: " + e.getMessage() + " (the vendor's plugin is not tried)");
        }
        NvmeSmartLogParser standard = new NvmeSmartLogParser();
        Step host = new Step(
                NvmeSmartLogParser.TOOL, List.of(nvme, "smart-log", dev, "-o", "json"), standard::parseNvmeCli);
        List<String> tried = new ArrayList<>();
        for (NvmeNandLog log : NvmeNandLog.values()) {
            if (!log.appliesTo(vendorId)) {
                continue;
            }
            String failure = null;
            for (List<String> command : log.commands(nvme, dev)) {
                try {
                    log.parse(runner.run(command, COMMAND_TIMEOUT));
                    Step nand = new Step(log.tool, command, log::parse);
                    notes.addAll(tried.stream().map(t -> "not used: " + t).toList());
                    SmartReading.Source source =
                            log == NvmeNandLog.OCP ? SmartReading.Source.OCP_C0 : SmartReading.Source.NVME_SMART_LOG;
                    return new SmartPlan(device, List.of(host, nand), source, drive, notes, null, null);
                } catch (IOException | SmartParseException e) {
                    failure = e.getMessage();
                }
            }
            tried.add(log.tool + " (" + failure + ")");
        }
        String vendor = vendorId == null ? null : NvmeNandLog.WITHOUT_PLUGIN.get(vendorId);
        String why = "the NVMe SMART/health log has host writes only, and no NAND-writes log answered: tried "
                + String.join("; ", tried)
                + (vendor == null
                        ? ""
                        : "; nvme-cli has no JSON for a " + vendor + " drive's own NAND counter, only OCP's log C0h");
        notes.addAll(tried.stream().map(t -> "not used: " + t).toList());
        return new SmartPlan(device, List.of(host), SmartReading.Source.NVME_SMART_LOG, drive, notes, why, null);
    }

    /** Runs every step once and combines their counters into one reading. */
    public SmartReading poll(long timeNs, CommandRunner runner)
            throws IOException, SmartParseException, InterruptedException {
        if (steps.isEmpty()) {
            throw new IllegalStateException("no tool to poll " + device + ": " + unavailableReason);
        }
        List<SmartCounter> counters = new ArrayList<>();
        Map<String, String> raw = new LinkedHashMap<>();
        String driveName = drive;
        Long erase = null;
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            ToolReading r;
            try {
                r = step.parser().parse(runner.run(step.command(), COMMAND_TIMEOUT));
            } catch (IOException e) {
                throw new IOException(String.join(" ", step.command()) + ": " + e.getMessage(), e);
            }
            counters.addAll(r.counters());
            // the first step's fields keep their names; a vendor log's are prefixed with its tool
            String prefix = i == 0 ? "" : step.tool() + ": ";
            r.raw().forEach((k, v) -> raw.put(prefix + k, v));
            if (driveName == null) {
                driveName = r.drive();
            }
            if (erase == null) {
                erase = r.eraseCount();
            }
        }
        return SmartReading.of(timeNs, source, new ToolReading(driveName, counters, erase, raw), whyNoNand);
    }

    public Path device() {
        return device;
    }

    /** Null when there is a tool to poll with. */
    public String unavailableReason() {
        return unavailableReason;
    }

    public boolean hasTool() {
        return unavailableReason == null;
    }

    /** The drive as nvme id-ctrl named it (model and PCI vendor), or null (then readings name it, if they can). */
    public String drive() {
        return drive;
    }

    /** The command lines of a poll, e.g. "nvme smart-log /dev/nvme0n1 -o json". */
    public List<String> commands() {
        return steps.stream().map(s -> String.join(" ", s.command())).toList();
    }

    /** What the probe found along the way (logs tried that did not answer). */
    public List<String> notes() {
        return notes;
    }

    public SmartReading.Source source() {
        return source;
    }
}
