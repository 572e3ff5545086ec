package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.schemas.runs.RunStartTime;
import dev.ssdpulse.streams.report.AvroJson;
import dev.ssdpulse.streams.report.Column;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.Table;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.views.RunViews;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The API's JSON documents besides the summary (dashboard/API.md): each list is a column set of {@link Table}
 * (JSON only: these have no CSV), each document its run id and that list. Latencies are in milliseconds.
 */
public final class ApiJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ApiJson() {}

    /** "480.10 GB (447.13 GiB)": {@link ReportFormat#capacityText}, the reports' spelling. */
    public static String capacityText(long bytes) {
        return ReportFormat.capacityText(bytes);
    }

    public static String deviceText(DeviceDescription d) {
        return d.getModel() + ", " + capacityText(d.getCapacityBytes());
    }

    /** A run of the run list: its RunStarted and summary when there are, else the end of its latest window. */
    private record RunRow(
            String runId, Optional<RunStarted> run, String status, Optional<RunSummary> summary, long windowsEndNs) {}

    private static final Table<DeviceDescription> DEVICE = new Table<>(List.of(
            Column.jsonOnly("model", DeviceDescription::getModel),
            Column.jsonOnly("capacityBytes", DeviceDescription::getCapacityBytes),
            Column.jsonOnly("capacityText", d -> capacityText(d.getCapacityBytes()))));

    private static final Table<RunRow> RUNS = new Table<>(List.of(
            Column.jsonOnly("runId", RunRow::runId),
            Column.jsonOnly("runName", r -> r.run().map(RunStarted::getRunName).orElse(null)),
            Column.jsonOnly("status", RunRow::status),
            Column.jsonOnly(
                    "producerKind",
                    r -> r.run().map(s -> s.getProducerKind().name()).orElse(null)),
            Column.jsonOnly(
                    "device", r -> r.run().map(s -> DEVICE.json(s.getDevice())).orElse(null)),
            Column.jsonOnly(
                    "workload", r -> r.run().map(s -> s.getWorkload().getName()).orElse(null)),
            Column.jsonOnly(
                    "startEpochMs",
                    r -> r.run().map(s -> RunStartTime.of(s).toEpochMilli()).orElse(null)),
            Column.jsonOnly("start", r -> r.run().map(RunStartTime::of).orElse(null)),
            Column.jsonOnly(
                    "durationS", r -> r.summary().map(RunSummary::getDurationNs).orElse(r.windowsEndNs()) / 1e9),
            Column.jsonOnly(
                    "ioCount", r -> r.summary().map(RunSummary::getIoCount).orElse(null)),
            Column.jsonOnly("durationSource", r -> r.summary().isPresent() ? "summary" : "windows"),
            Column.jsonOnly("group", r -> r.run().map(RunStarted::getGroup).orElse(null)),
            Column.jsonOnly("member", r -> r.run().map(RunStarted::getMember).orElse(null)),
            Column.jsonOnly(
                    "host",
                    r -> r.run()
                            .map(s -> s.getHost() == null ? null : s.getHost().getHostname())
                            .orElse(null))));

    /** One entry of GET /api/runs. Duration and I/O count from the summary, else from the latest windows. */
    public static ObjectNode runListItem(String runId, RunViews views) {
        Optional<RunSummary> summary = views.summary(runId);
        long endNs = 0;
        for (int op = 0; op < IoOpCode.COUNT && summary.isEmpty(); op++) {
            endNs = Math.max(
                    endNs,
                    views.lastWindow(runId, op)
                            .map(w -> w.getWindowStartNs() + w.getWindowSizeNs())
                            .orElse(0L));
        }
        return RUNS.json(new RunRow(runId, views.run(runId), status(runId, views), summary, endNs));
    }

    private record RunDetail(String runId, String status, Optional<RunStarted> run, boolean hasSummary) {}

    private static final Table<RunDetail> RUN_DETAIL = new Table<>(List.of(
            Column.jsonOnly("runId", RunDetail::runId),
            Column.jsonOnly("status", RunDetail::status),
            Column.jsonOnly("run", r -> r.run().map(AvroJson::record).orElse(null)),
            Column.jsonOnly("deviceText", r -> r.run().map(s -> deviceText(s.getDevice()))),
            Column.jsonOnly("hasSummary", RunDetail::hasSummary)));

    /** GET /api/runs/{id}: every RunStarted field plus the status. */
    public static ObjectNode runDetail(String runId, RunViews views) {
        return RUN_DETAIL.json(new RunDetail(
                runId,
                status(runId, views),
                views.run(runId),
                views.summary(runId).isPresent()));
    }

    /** A result set of a run: "live" (settings and creation time null) or a stored re-analysis. */
    private record ResultSetRow(String name, String status, Map<String, String> settings, Long createdAtEpochMs) {}

    private static final Table<ResultSetRow> RESULT_SETS = new Table<>(List.of(
            Column.jsonOnly("name", ResultSetRow::name),
            Column.jsonOnly("status", ResultSetRow::status),
            Column.jsonOnly("settings", ResultSetRow::settings),
            Column.jsonOnly("createdAtEpochMs", ResultSetRow::createdAtEpochMs)));

    /**
     * GET /api/runs/{id}/result-sets: "live" (the run's own results) first, then every stored re-analysis with its
     * status, settings (by name) and creation time.
     */
    public static ObjectNode resultSets(String runId, RunViews views) {
        List<ResultSetRow> rows =
                new ArrayList<>(List.of(new ResultSetRow(ResultSetNames.LIVE, status(runId, views), null, null)));
        for (ResultSetStarted rs : views.resultSets(runId)) {
            Map<String, String> settings = new TreeMap<>();
            rs.getSettings().forEach((k, v) -> settings.put(k.toString(), v.toString()));
            rows.add(new ResultSetRow(
                    rs.getResultSet(),
                    status(ResultSetNames.alias(runId, rs.getResultSet()), views),
                    settings,
                    rs.getCreatedAtEpochMs().toEpochMilli()));
        }
        return document(runId).set("resultSets", RESULT_SETS.json(rows));
    }

    /**
     * GET /series: {runId, latencyUnit, binUpperBoundsMs, ops: {READ: [points], ...}} (ops without windows left out).
     */
    public static ObjectNode series(String runId, SeriesQuery q, RunViews views) {
        ObjectNode root = document(runId).put("latencyUnit", "ms").put("timeUnit", "s");
        ArrayNode bounds = root.putArray("binUpperBoundsMs");
        ObjectNode ops = root.putObject("ops");
        boolean boundsDone = false;
        for (int op : q.ops()) {
            List<WindowMetrics> windows = views.series(runId, op, q.fromNs(), q.toNs());
            if (windows.isEmpty()) {
                continue;
            }
            if (!boundsDone) {
                windows.get(0).getLatency().getBinUpperBoundsNs().forEach(b -> bounds.add(b / 1e6));
                boundsDone = true;
            }
            ops.set(IoOpCode.name(op), ReportTables.POINT.json(windows));
        }
        ObjectNode open = null;
        for (int op : q.ops()) {
            Optional<WindowMetrics> w = views.openWindow(runId, op);
            if (w.isEmpty()
                    || w.get().getWindowStartNs() < q.fromNs()
                    || w.get().getWindowStartNs() > q.toNs()
                    || views.lastWindow(runId, op)
                            .filter(last -> last.getWindowStartNs() >= w.get().getWindowStartNs())
                            .isPresent()) {
                continue;
            }
            if (open == null) {
                open = root.putObject("open");
            }
            if (!boundsDone) {
                w.get().getLatency().getBinUpperBoundsNs().forEach(b -> bounds.add(b / 1e6));
                boundsDone = true;
            }
            open.set(IoOpCode.name(op), SseStream.openPoint(w.get(), op).without("op"));
        }
        return root;
    }

    /** A run group with its members (GET /api/groups/{name}): the RunGroup record, times in seconds too. */
    public static ObjectNode group(RunGroup group) {
        ObjectNode n = AvroJson.record(group);
        n.put("originEpochMs", group.getOrigin().toEpochMilli());
        ArrayNode members = (ArrayNode) n.get("members");
        for (int i = 0; i < members.size(); i++) {
            GroupMember m = group.getMembers().get(i);
            ObjectNode row = (ObjectNode) members.get(i);
            row.put("startOffsetS", m.getStartOffsetNs() / 1e9);
            if (m.getEndNs() == null) {
                row.putNull("endS");
            } else {
                row.put("endS", m.getEndNs() / 1e9);
            }
        }
        return n;
    }

    /** GET /wa: the WA intervals with times in seconds. */
    public static ObjectNode wa(String runId, List<WriteAmplification> intervals) {
        return document(runId)
                .set(
                        "intervals",
                        F.arrayNode()
                                .addAll(intervals.stream()
                                        .map(ApiJson::waInterval)
                                        .toList()));
    }

    /**
     * A WA interval (of GET /wa and the event stream): its record, and its times in seconds. The record as it is,
     * not a column set: API.md promises every WriteAmplification field, so a field the schema gains shows.
     */
    public static ObjectNode waInterval(WriteAmplification w) {
        return AvroJson.record(w).put("fromS", w.getFromTimeNs() / 1e9).put("toS", w.getToTimeNs() / 1e9);
    }

    /**
     * A phase of GET /phases: as planned (name, kind and plan; a phase the plan does not know has none of them)
     * and as observed (times in s; null while not seen).
     */
    private record PhaseSpan(
            int index, String name, String kind, PhaseSpec plan, Double startS, Double endS, boolean fromNeighbours) {
        PhaseSpan(int index, String name, String kind, PhaseSpec plan, Double startS, Double endS) {
            this(index, name, kind, plan, startS, endS, false);
        }

        PhaseSpan seenUntil(PhaseSpan seen) {
            return new PhaseSpan(
                    index,
                    name,
                    kind,
                    plan,
                    startS == null ? seen.startS : Math.min(startS, seen.startS),
                    endS == null ? seen.endS : Math.max(endS, seen.endS));
        }

        PhaseSpan between(Double start, Double end) {
            return new PhaseSpan(index, name, kind, plan, start, end, true);
        }
    }

    /**
     * Times for the phases that did no I/O (a purge of a file, an idle phase, the simulator's purge and fill applied to
     * the drive directly), from their neighbours, since phases run one after another: a phase without I/O starts
     * where the one before it ended (the first at 0) and ends where the next one starts (the last where the run
     * ended). Of several such phases in a row only the outer times are known, unless they coincide (the simulator's
     * preparation takes no time): the inner ones stay null. Only for phases the run has passed (a later phase was
     * seen, or the run has ended).
     */
    private static List<PhaseSpan> withNeighbourTimes(List<PhaseSpan> phases, Double runEndS) {
        List<PhaseSpan> out = new ArrayList<>(phases);
        int i = 0;
        while (i < out.size()) {
            if (out.get(i).startS() != null) {
                i++;
                continue;
            }
            int last = i; // the chain of phases without times: i..last
            while (last + 1 < out.size() && out.get(last + 1).startS() == null) {
                last++;
            }
            Double before = i == 0 ? Double.valueOf(0) : out.get(i - 1).endS();
            Double after = last + 1 < out.size() ? out.get(last + 1).startS() : runEndS;
            if (after != null) {
                boolean instant = before != null && before.equals(after);
                for (int k = i; k <= last; k++) {
                    Double start = k == i || instant ? before : null;
                    Double end = k == last || instant ? after : null;
                    out.set(k, out.get(k).between(start, end));
                }
            }
            i = last + 1;
        }
        return out;
    }

    private static final Table<PhaseSpan> PHASE_SPANS = new Table<>(List.of(
            Column.jsonOnly("index", PhaseSpan::index),
            Column.jsonOnly("name", p -> Optional.ofNullable(p.name())),
            Column.jsonOnly("kind", p -> Optional.ofNullable(p.kind())),
            Column.jsonOnly("plan", p -> Optional.ofNullable(p.plan()).map(AvroJson::record)),
            Column.jsonOnly("startS", PhaseSpan::startS),
            Column.jsonOnly("endS", PhaseSpan::endS),
            Column.jsonOnly("timesFromNeighbours", PhaseSpan::fromNeighbours)));

    /**
     * GET /phases: the planned phases (RunStarted workload) with their observed time span — from the summary
     * when there is one (its name and kind win over the plan's), else from the windows seen so far (first window
     * start .. last window end); a phase without I/O takes its times from its neighbours ({@link #withNeighbourTimes}).
     */
    public static ObjectNode phases(String runId, RunViews views) {
        Map<Integer, PhaseSpan> byIndex = new TreeMap<>();
        views.run(runId)
                .ifPresent(r -> r.getWorkload()
                        .getPhases()
                        .forEach(p -> byIndex.put(
                                p.getIndex(),
                                new PhaseSpan(
                                        p.getIndex(),
                                        p.getName().toString(),
                                        p.getKind().name(),
                                        p,
                                        null,
                                        null))));
        Optional<RunSummary> summary = views.summary(runId);
        for (PhaseSummary p : summary.map(RunSummary::getPhases).orElse(List.of())) {
            PhaseSpan planned = byIndex.get(p.getPhaseIndex());
            byIndex.put(
                    p.getPhaseIndex(),
                    new PhaseSpan(
                            p.getPhaseIndex(),
                            p.getName().toString(),
                            p.getKind().name(),
                            planned == null ? null : planned.plan(),
                            p.getStartNs() / 1e9,
                            p.getEndNs() / 1e9));
        }
        for (int op = 0; op < IoOpCode.COUNT && summary.isEmpty(); op++) {
            for (WindowMetrics w : views.series(runId, op, 0, Long.MAX_VALUE)) {
                byIndex.merge(
                        w.getPhaseIndex(),
                        new PhaseSpan(
                                w.getPhaseIndex(),
                                null,
                                null,
                                null,
                                w.getWindowStartNs() / 1e9,
                                (w.getWindowStartNs() + w.getWindowSizeNs()) / 1e9),
                        PhaseSpan::seenUntil);
            }
        }
        return document(runId)
                .put("source", summary.isPresent() ? "summary" : "windows")
                .set(
                        "phases",
                        PHASE_SPANS.json(withNeighbourTimes(
                                List.copyOf(byIndex.values()),
                                summary.map(r -> r.getDurationNs() / 1e9).orElse(null))));
    }

    /** The head of every document about one run. */
    private static ObjectNode document(String runId) {
        return F.objectNode().put("runId", runId);
    }

    private static String status(String runId, RunViews views) {
        return views.status(runId).orElse("UNKNOWN");
    }
}
