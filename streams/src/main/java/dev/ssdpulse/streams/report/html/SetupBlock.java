package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.runs.RunStartTime;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.Table;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A run's test setup as its RunStarted records it — what a published review states about every measurement: the
 * drive (model, serial, firmware, capacity in GB and GiB), the host (name, kernel, CPU, memory, I/O engine and
 * scheduler, direct I/O), the run (ssdpulse version, producer, start, seed, labels) and the workload with each of
 * its phases. A fact the run did not record is left out, not guessed.
 */
final class SetupBlock {
    private SetupBlock() {}

    /** One line of the setup: a group (drive, host, run, workload), a fact and its value. */
    record Fact(String group, String fact, String value) {}

    static final Table<Fact> FACTS = new Table<>(List.of(
            Column.of("group", Fact::group),
            Column.of("fact", f -> Table.label(f.fact())),
            Column.of("value", Fact::value)));

    static final Table<PhaseSpec> PHASES = new Table<>(List.of(
            Column.of("phase", PhaseSpec::getIndex),
            Column.of("name", p -> p.getName().toString()),
            Column.of("kind", p -> p.getKind().name()),
            Column.of("access", SetupBlock::access),
            Column.of("queue_depth", PhaseSpec::getQueueDepth),
            Column.of("workers", PhaseSpec::getWorkers),
            Column.of("span", p -> ReportFormat.capacityText(p.getSpanSizeBytes())),
            Column.of("span_offset_bytes", PhaseSpec::getSpanOffsetBytes),
            Column.of("duration_s", p -> p.getDurationNs() == null ? null : p.getDurationNs() / 1e9, 1),
            Column.of("total", p -> p.getTotalBytes() == null ? null : ReportFormat.capacityText(p.getTotalBytes())),
            Column.of("rate_limit_iops", PhaseSpec::getRateLimitIops),
            Column.of("trim", PhaseSpec::getTrimEnabled)));

    /** The facts of a run, in the order a review lists them. */
    static List<Fact> facts(RunStarted r) {
        List<Fact> f = new ArrayList<>();
        DeviceDescription d = r.getDevice();
        add(f, "drive", "model", d.getModel());
        add(f, "drive", "serial", d.getSerial());
        add(f, "drive", "firmware", d.getFirmware());
        add(f, "drive", "capacity", ReportFormat.capacityText(d.getCapacityBytes()));
        add(f, "drive", "capacity_bytes", d.getCapacityBytes());
        add(f, "drive", "logical_block_bytes", d.getLogicalBlockSizeBytes());
        add(f, "drive", "physical_block_bytes", d.getPhysicalBlockSizeBytes());
        add(
                f,
                "drive",
                "raw_flash",
                d.getRawFlashBytes() == null ? null : ReportFormat.capacityText(d.getRawFlashBytes()));
        add(
                f,
                "drive",
                "over_provisioning",
                d.getOverProvisioningRatio() == null
                        ? null
                        : String.format(Locale.ROOT, "%.1f %%", 100 * d.getOverProvisioningRatio()));
        add(
                f,
                "drive",
                "target",
                d.getTargetPath() == null
                        ? null
                        : d.getTargetPath() + (d.getTargetIsBlockDevice() ? " (block device)" : " (file)"));
        HostDescription h = r.getHost();
        add(f, "host", "hostname", h.getHostname());
        add(f, "host", "kernel", h.getKernel());
        add(
                f,
                "host",
                "cpu",
                h.getCpuModel() == null
                        ? null
                        : h.getCpuModel() + (h.getCpuCount() == null ? "" : ", " + h.getCpuCount() + " logical CPUs"));
        add(f, "host", "memory", h.getMemoryBytes() == null ? null : ReportFormat.capacityText(h.getMemoryBytes()));
        add(f, "host", "java", h.getJavaVersion());
        add(f, "host", "io_engine", h.getIoEngine());
        add(f, "host", "io_scheduler", h.getIoScheduler());
        add(f, "host", "direct_io", h.getDirectIo() ? "yes (O_DIRECT)" : "no");
        add(f, "host", "submit_batch", h.getSubmitBatch());
        add(f, "host", "cpus_allowed", h.getCpusAllowed());
        add(f, "run", "run_id", r.getRunId());
        add(f, "run", "run_name", r.getRunName());
        add(f, "run", "ssdpulse_version", r.getToolVersion());
        add(f, "run", "producer", r.getProducerKind().name());
        add(f, "run", "started_utc", DateTimeFormatter.ISO_INSTANT.format(RunStartTime.of(r)));
        add(f, "run", "seed", r.getSeed());
        add(f, "run", "smart_interval_s", r.getSmartIntervalNs() == null ? "no SMART" : r.getSmartIntervalNs() / 1e9);
        add(f, "run", "origin_run", r.getOriginRunId());
        if (!r.getLabels().isEmpty()) {
            Map<String, String> labels = new TreeMap<>();
            r.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
            add(
                    f,
                    "run",
                    "labels",
                    labels.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(", ")));
        }
        add(f, "workload", "name", r.getWorkload().getName());
        add(f, "workload", "description", r.getWorkload().getDescription());
        return f;
    }

    /** A fact's value as text (a column of words and numbers reads better left-aligned), counts grouped. */
    private static void add(List<Fact> facts, String group, String fact, Object value) {
        if (value != null) {
            facts.add(new Fact(
                    group,
                    fact,
                    value instanceof Long || value instanceof Integer
                            ? ReportFormat.grouped(((Number) value).longValue())
                            : value instanceof Double d
                                    ? ReportFormat.grouped(d, 3).replaceAll("\\.?0+$", "")
                                    : value.toString()));
        }
    }

    /** "4 KiB x 100 %: 100 % random, 0 % read; ..." for the phase's access specification lines. */
    static String access(PhaseSpec p) {
        if (p.getAccessSpecs().isEmpty()) {
            // a REPLAY phase issues a trace's I/Os, named with its load time
            return p.getKind() == PhaseKind.REPLAY ? "a recorded trace" : "idle";
        }
        List<String> lines = new ArrayList<>();
        for (AccessSpec a : p.getAccessSpecs()) {
            lines.add(String.format(
                    Locale.ROOT,
                    "%s x %d %%: %d %% random, %d %% read",
                    size(a.getTransferSizeBytes()),
                    a.getPercentOfSpec(),
                    a.getPercentRandom(),
                    a.getPercentRead()));
        }
        return String.join("; ", lines);
    }

    private static String size(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " B";
    }

    /** The run's setup: its facts, then its workload's phases. */
    static String html(RunStarted started) {
        if (started == null) {
            return "<p class=\"note\">No RunStarted record: the test setup is unknown.</p>\n";
        }
        return "<div class=\"setup\">\n<h3>Test setup</h3>\n<div class=\"table-wrap\">" + FACTS.html(facts(started))
                + "</div>\n<h4>Workload phases</h4>\n<div class=\"table-wrap\">"
                + PHASES.html(started.getWorkload().getPhases()) + "</div>\n</div>\n";
    }

    /** For the page's header: the run in a few words. */
    static String oneLine(RunStarted started) {
        return started == null
                ? ""
                : escapeHtml(started.getDevice().getModel() + ", "
                        + ReportFormat.capacityText(started.getDevice().getCapacityBytes()) + "; workload "
                        + started.getWorkload().getName());
    }
}
