package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.LostWriteCase;
import dev.ssdpulse.schemas.avro.PowerLossCounters;
import dev.ssdpulse.schemas.avro.WriteDurabilityModel;
import dev.ssdpulse.schemas.avro.WriteLogCoverage;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.avro.WriteVerificationModelResult;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.report.html.HtmlReport.RunData;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's power-loss verification ({@code ssdpulse verify}, or a simulated power cut), as the dashboard's run page
 * shows it: the units per class, the lost units under each durability model, the lost writes by how long before the
 * last logged completion they completed (diskchecker's view: a drive that loses only the last milliseconds before
 * the cut differs from one that loses writes acknowledged seconds earlier), the worst cases, and the drive's own
 * unsafe-shutdown and PLP counts before and after. For a set, the runs' lost units per model side by side (a drive
 * with power-loss protection beside one without). Every figure is the stored record's, none recomputed.
 */
final class Verifications {
    private Verifications() {}

    /** A run's verification, with the run it belongs to. */
    record Entry(RunData run, WriteVerification v) {
        /** The lost units of a model; null where the record has no result for it. */
        Long lost(WriteDurabilityModel model) {
            WriteVerificationModelResult r = result(model);
            return r == null ? null : r.getLostUnits();
        }

        Long required(WriteDurabilityModel model) {
            WriteVerificationModelResult r = result(model);
            return r == null ? null : r.getRequiredUnits();
        }

        private WriteVerificationModelResult result(WriteDurabilityModel model) {
            return v.getModels().stream()
                    .filter(m -> m.getModel() == model)
                    .findFirst()
                    .orElse(null);
        }
    }

    /** The units per class and the write counts: one row. */
    static final Table<WriteVerification> CLASSES = new Table<>(List.of(
            Column.of("units_checked", WriteVerification::getUnitsChecked),
            Column.of("intact", v -> v.getClasses().getIntact()),
            Column.of("lost", v -> v.getClasses().getLost()),
            Column.of("torn", v -> v.getClasses().getTorn()),
            Column.of("reverted", v -> v.getClasses().getReverted()),
            Column.of("unlogged", v -> v.getClasses().getUnlogged()),
            Column.of("units_trimmed", WriteVerification::getUnitsTrimmed),
            Column.of("lost_writes", WriteVerification::getLostWrites),
            Column.of("unserializable_writes", WriteVerification::getUnserializableWrites)));

    /** Lost units under each durability model. */
    static final Table<WriteVerificationModelResult> MODELS = new Table<>(List.of(
            Column.of("model", m -> m.getModel().name()),
            Column.of("requires", m -> modelText(m.getModel())),
            Column.of("required_units", WriteVerificationModelResult::getRequiredUnits),
            Column.of("lost_units", WriteVerificationModelResult::getLostUnits),
            Column.of("lost_as_lost", WriteVerificationModelResult::getLostAsLost),
            Column.of("lost_as_torn", WriteVerificationModelResult::getLostAsTorn),
            Column.of("lost_as_reverted", WriteVerificationModelResult::getLostAsReverted)));

    /** A bucket of the lost-write age histogram. */
    record AgeBucket(String label, Long upToNs, long lostWrites) {}

    static final Table<AgeBucket> AGES = new Table<>(List.of(
            Column.of("completed_before_end", AgeBucket::label),
            Column.of("up_to_ms", b -> b.upToNs() == null ? null : b.upToNs() / 1e6, 1),
            Column.of("lost_writes", AgeBucket::lostWrites)));

    static final Table<LostWriteCase> WORST = new Table<>(List.of(
            Column.of("lba", LostWriteCase::getLba),
            Column.of("units", LostWriteCase::getUnits),
            Column.of("write_sequence", LostWriteCase::getWriteSequence),
            Column.of("found", c -> c.getFound().name()),
            Column.of("holds", c -> c.getContent().toString()),
            Column.of("completed_s", c -> c.getCompleteNs() / 1e9, 6),
            Column.of("before_end_ms", c -> c.getAgeNs() / 1e6, 3),
            Column.of("fua", LostWriteCase::getFua),
            Column.of("flushed", LostWriteCase::getFlushed)));

    /** A drive counter before the run and at verification. */
    record Counter(String name, Long before, Long after) {}

    static final Table<Counter> POWER = new Table<>(List.of(
            Column.of("counter", Counter::name),
            Column.of("before", Counter::before),
            Column.of("after", Counter::after),
            Column.of("change", c -> c.before() == null || c.after() == null ? null : c.after() - c.before())));

    /** The set's runs with a verification, side by side. */
    static final Table<Entry> SET = new Table<>(List.of(
            Column.of("run", e -> e.run().runId()),
            Column.of(
                    "drive",
                    e -> e.run().started() == null
                            ? null
                            : e.run().started().getDevice().getModel().toString()),
            Column.of("target", e -> e.v().getTarget().toString()),
            Column.of("units_checked", e -> e.v().getUnitsChecked()),
            Column.of("lost_acknowledged", e -> e.lost(WriteDurabilityModel.ACKNOWLEDGED)),
            Column.of("lost_flushed", e -> e.lost(WriteDurabilityModel.FLUSHED)),
            Column.of("required_flushed", e -> e.required(WriteDurabilityModel.FLUSHED)),
            Column.of("lost_fua", e -> e.lost(WriteDurabilityModel.FUA)),
            Column.of("torn", e -> e.v().getClasses().getTorn()),
            Column.of("reverted", e -> e.v().getClasses().getReverted()),
            Column.of("lost_writes", e -> e.v().getLostWrites()),
            Column.of("unserializable_writes", e -> e.v().getUnserializableWrites()),
            Column.of(
                    "unsafe_shutdowns_change",
                    e -> change(
                            e.v().getPowerCounters().getUnsafeShutdownsBefore(),
                            e.v().getPowerCounters().getUnsafeShutdownsAfter()))));

    static String modelText(WriteDurabilityModel model) {
        return switch (model) {
            case ACKNOWLEDGED -> "every acknowledged write";
            case FLUSHED -> "writes acknowledged before the last completed FLUSH was submitted";
            case FUA -> "FUA writes";
            default -> "a model this version does not know";
        };
    }

    /** The histogram's buckets: up to each bound, and the last above the last bound. */
    static List<AgeBucket> ages(WriteVerification v) {
        List<Long> bounds = v.getLostAgeBoundsNs();
        List<Long> counts = v.getLostAgeCounts();
        List<AgeBucket> out = new ArrayList<>();
        for (int i = 0; i < counts.size(); i++) {
            boolean last = i >= bounds.size() || bounds.get(i) == Long.MAX_VALUE;
            String label = !last ? "≤ " + duration(bounds.get(i)) : i == 0 ? "any" : "> " + duration(bounds.get(i - 1));
            out.add(new AgeBucket(label, last ? null : bounds.get(i), counts.get(i)));
        }
        return out;
    }

    static List<Counter> counters(PowerLossCounters c) {
        return List.of(
                new Counter("unsafe shutdowns", c.getUnsafeShutdownsBefore(), c.getUnsafeShutdownsAfter()),
                new Counter("PLP start count (OCP)", c.getPlpStartCountBefore(), c.getPlpStartCountAfter()));
    }

    /** "100 µs", "10 ms", "1 s". */
    static String duration(long ns) {
        if (ns >= 1_000_000_000L) {
            return ReportFormat.grouped(ns / 1e9, ns % 1_000_000_000L == 0 ? 0 : 3) + " s";
        }
        if (ns >= 1_000_000L) {
            return ReportFormat.grouped(ns / 1e6, ns % 1_000_000L == 0 ? 0 : 3) + " ms";
        }
        return ReportFormat.grouped(ns / 1e3, ns % 1_000L == 0 ? 0 : 3) + " µs";
    }

    private static Long change(Long before, Long after) {
        return before == null || after == null ? null : after - before;
    }

    static List<Entry> entries(List<RunData> runs) {
        List<Entry> out = new ArrayList<>();
        for (RunData run : runs) {
            if (run.verification() != null) {
                out.add(new Entry(run, run.verification()));
            }
        }
        return out;
    }

    /** The set's verifications side by side: nothing when no run has one. */
    static void comparison(StringBuilder b, List<RunData> runs) {
        List<Entry> entries = entries(runs);
        if (entries.isEmpty()) {
            return;
        }
        b.append("<h3>Power-loss verification</h3>\n<p class=\"note\">Units of 4 KiB lost under each durability"
                + " model (every acknowledged write; writes acknowledged before the last completed FLUSH; FUA"
                + " writes), the torn and reverted units, the writes lost and those lost although acknowledged"
                + " before a surviving write was submitted (unserializable), and the change of the drive's"
                + " unsafe-shutdown count.</p>\n");
        b.append("<div class=\"table-wrap\">").append(SET.html(entries)).append("</div>\n");
    }

    /** A run's verification: nothing when it has none. */
    static void run(StringBuilder b, RunData run) {
        WriteVerification v = run.verification();
        if (v == null) {
            return;
        }
        WriteLogCoverage c = v.getCoverage();
        b.append("<h3>Power-loss verification</h3>\n<p class=\"facts\">")
                .append(ReportFormat.grouped(v.getUnitsChecked()))
                .append(" units of 4 KiB checked on ")
                .append(escapeHtml(v.getTarget().toString()))
                .append(" at ")
                .append(v.getVerifiedAt())
                .append("; the log covers the run to ")
                .append(ReportFormat.grouped(c.getCoveredUntilNs() / 1e9, 3))
                .append(" s (last logged completion ")
                .append(ReportFormat.grouped(c.getLastCompletionNs() / 1e9, 3))
                .append(" s, ")
                .append(ReportFormat.grouped(c.getWrites()))
                .append(" writes, ")
                .append(ReportFormat.grouped(c.getFlushes()))
                .append(" FLUSHes, ")
                .append(ReportFormat.grouped(c.getFuaWrites()))
                .append(" FUA writes");
        if (c.getMissingBatches() > 0) {
            b.append(", ").append(ReportFormat.grouped(c.getMissingBatches())).append(" I/O batches missing");
        }
        b.append("); ")
                .append(
                        v.getRunStatus() == null
                                ? "no RunFinished: the producer stopped"
                                : "run " + v.getRunStatus().name())
                .append(v.getForced() ? "; verified with --force" : "")
                .append(".</p>\n");
        b.append("<div class=\"table-wrap\">")
                .append(CLASSES.html(List.of(v)))
                .append("</div>\n<h4>Lost units per durability model</h4>\n<div class=\"table-wrap\">")
                .append(MODELS.html(v.getModels()))
                .append("</div>\n");
        List<AgeBucket> ages = ages(v);
        b.append("<h4>Lost writes by age</h4>\n<p class=\"note\">How long before the last logged completion each"
                + " lost write completed: writes lost from the last milliseconds were in the drive's cache at the"
                + " cut; older ones were acknowledged long before it.</p>\n");
        if (v.getLostWrites() > 0) {
            long[] counts = ages.stream().mapToLong(AgeBucket::lostWrites).toArray();
            b.append(SvgChart.bars(
                    "Lost writes by time before the last logged completion",
                    "writes (log)",
                    ages.stream().map(AgeBucket::label).toList(),
                    counts,
                    List.of()));
        }
        b.append("<div class=\"table-wrap\">").append(AGES.html(ages)).append("</div>\n");
        if (!v.getWorstCases().isEmpty()) {
            b.append("<h4>Worst cases</h4>\n<p class=\"note\">The lost writes that completed longest before the last"
                            + " logged completion, oldest first (at most ")
                    .append(v.getWorstCases().size())
                    .append(" listed).</p>\n<div class=\"table-wrap\">")
                    .append(WORST.html(v.getWorstCases()))
                    .append("</div>\n");
        }
        PowerLossCounters p = v.getPowerCounters();
        b.append("<h4>The drive's power-loss counters</h4>\n<p class=\"note\">Before: the run's first SMART sample;"
                + " after: read at verification.");
        if (p.getNote() != null) {
            b.append(' ').append(escapeHtml(p.getNote().toString())).append('.');
        }
        b.append("</p>\n<div class=\"table-wrap\">")
                .append(POWER.html(counters(p)))
                .append("</div>\n");
    }
}
