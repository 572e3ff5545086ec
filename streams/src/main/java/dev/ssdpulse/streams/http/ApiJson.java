package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.runs.RunStartTime;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.report.ReportTables;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** JSON shapes of the API besides the summary (see dashboard/API.md). Latencies are in milliseconds. */
public final class ApiJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ApiJson() {
    }

    /** "480.10 GB (447.13 GiB)": vendors count in GB, operating systems in GiB. */
    public static String capacityText(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.2f GB (%.2f GiB)", bytes / 1e9, bytes / (double) (1L << 30));
    }

    public static String deviceText(DeviceDescription d) {
        return d.getModel() + ", " + capacityText(d.getCapacityBytes());
    }

    /** One entry of GET /api/runs. Duration and I/O count from the summary, else from the latest windows. */
    public static ObjectNode runListItem(String runId, RunViews views) {
        ObjectNode n = F.objectNode();
        n.put("runId", runId);
        Optional<RunStarted> started = views.run(runId);
        n.put("runName", started.map(r -> r.getRunName() == null ? null : r.getRunName().toString()).orElse(null));
        n.put("status", views.status(runId).orElse("UNKNOWN"));
        n.put("producerKind", started.map(r -> r.getProducerKind().name()).orElse(null));
        if (started.isPresent()) {
            DeviceDescription d = started.get().getDevice();
            ObjectNode dev = n.putObject("device");
            dev.put("model", d.getModel().toString());
            dev.put("capacityBytes", d.getCapacityBytes());
            dev.put("capacityText", capacityText(d.getCapacityBytes()));
            n.put("workload", started.get().getWorkload().getName().toString());
            Instant start = RunStartTime.of(started.get());
            n.put("startEpochMs", start.toEpochMilli());
            n.put("start", start.toString());
        } else {
            n.putNull("device");
            n.putNull("workload");
            n.putNull("startEpochMs");
            n.putNull("start");
        }
        Optional<RunSummary> summary = views.summary(runId);
        if (summary.isPresent()) {
            n.put("durationS", summary.get().getDurationNs() / 1e9);
            n.put("ioCount", summary.get().getIoCount());
            n.put("durationSource", "summary");
        } else {
            long endNs = 0;
            for (int op = 0; op < IoOpCode.COUNT; op++) {
                Optional<WindowMetrics> w = views.lastWindow(runId, op);
                if (w.isPresent()) {
                    endNs = Math.max(endNs, w.get().getWindowStartNs() + w.get().getWindowSizeNs());
                }
            }
            n.put("durationS", endNs / 1e9);
            n.putNull("ioCount");
            n.put("durationSource", "windows");
        }
        return n;
    }

    /** GET /api/runs/{id}: every RunStarted field plus the status. */
    public static ObjectNode runDetail(String runId, RunViews views) {
        ObjectNode n = F.objectNode();
        n.put("runId", runId);
        n.put("status", views.status(runId).orElse("UNKNOWN"));
        views.run(runId).ifPresentOrElse(r -> {
            n.set("run", AvroJson.record(r));
            n.put("deviceText", deviceText(r.getDevice()));
        }, () -> n.putNull("run"));
        n.put("hasSummary", views.summary(runId).isPresent());
        return n;
    }

    /**
     * GET /api/runs/{id}/result-sets: "live" (the run's own results) first, then every stored re-analysis with its
     * status, settings and creation time.
     */
    public static ObjectNode resultSets(String runId, RunViews views) {
        ObjectNode root = F.objectNode();
        root.put("runId", runId);
        ArrayNode a = root.putArray("resultSets");
        ObjectNode live = a.addObject();
        live.put("name", dev.ssdpulse.streams.resultsets.ResultSetNames.LIVE);
        live.put("status", views.status(runId).orElse("UNKNOWN"));
        live.putNull("settings");
        live.putNull("createdAtEpochMs");
        for (dev.ssdpulse.schemas.avro.ResultSetStarted rs : views.resultSets(runId)) {
            ObjectNode n = a.addObject();
            n.put("name", rs.getResultSet());
            n.put("status", views.status(dev.ssdpulse.streams.resultsets.ResultSetNames.alias(runId,
                    rs.getResultSet())).orElse("UNKNOWN"));
            ObjectNode settings = n.putObject("settings");
            new java.util.TreeMap<>(rs.getSettings()).forEach((k, v) -> settings.put(k.toString(), v.toString()));
            n.put("createdAtEpochMs", rs.getCreatedAtEpochMs().toEpochMilli());
        }
        return root;
    }

    /** GET /series: {runId, latencyUnit, binUpperBoundsMs, ops: {READ: [points], ...}} (ops without windows left out). */
    public static ObjectNode series(String runId, SeriesQuery q, RunViews views) {
        ObjectNode root = F.objectNode();
        root.put("runId", runId);
        root.put("latencyUnit", "ms");
        root.put("timeUnit", "s");
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
            ArrayNode points = ops.putArray(IoOpCode.name(op));
            windows.forEach(w -> points.add(ReportTables.POINT.json(w)));
        }
        return root;
    }

    /** GET /wa: the WA intervals with times in seconds. */
    public static ObjectNode wa(String runId, List<WriteAmplification> intervals) {
        ObjectNode root = F.objectNode();
        root.put("runId", runId);
        ArrayNode a = root.putArray("intervals");
        intervals.forEach(w -> a.add(waInterval(w)));
        return root;
    }

    /** A WA interval (of GET /wa and the event stream): its record, and its times in seconds. */
    public static ObjectNode waInterval(WriteAmplification w) {
        return AvroJson.record(w).put("fromS", w.getFromTimeNs() / 1e9).put("toS", w.getToTimeNs() / 1e9);
    }

    /**
     * GET /phases: the planned phases (RunStarted workload) with their observed time span — from the summary
     * when there is one, else from the windows seen so far (first window start .. last window end).
     */
    public static ObjectNode phases(String runId, RunViews views) {
        ObjectNode root = F.objectNode();
        root.put("runId", runId);
        Map<Integer, ObjectNode> byIndex = new TreeMap<>();
        views.run(runId).ifPresent(r -> {
            for (PhaseSpec p : r.getWorkload().getPhases()) {
                ObjectNode n = F.objectNode();
                n.put("index", p.getIndex());
                n.put("name", p.getName().toString());
                n.put("kind", p.getKind().name());
                n.set("plan", AvroJson.record(p));
                n.putNull("startS");
                n.putNull("endS");
                byIndex.put(p.getIndex(), n);
            }
        });
        Optional<RunSummary> summary = views.summary(runId);
        if (summary.isPresent()) {
            root.put("source", "summary");
            for (PhaseSummary p : summary.get().getPhases()) {
                ObjectNode n = byIndex.computeIfAbsent(p.getPhaseIndex(), i -> F.objectNode().put("index", i));
                n.put("name", p.getName().toString());
                n.put("kind", p.getKind().name());
                n.put("startS", p.getStartNs() / 1e9);
                n.put("endS", p.getEndNs() / 1e9);
            }
        } else {
            root.put("source", "windows");
            for (int op = 0; op < IoOpCode.COUNT; op++) {
                for (WindowMetrics w : views.series(runId, op, 0, Long.MAX_VALUE)) {
                    ObjectNode n = byIndex.computeIfAbsent(w.getPhaseIndex(), i -> F.objectNode().put("index", i));
                    double start = w.getWindowStartNs() / 1e9;
                    double end = (w.getWindowStartNs() + w.getWindowSizeNs()) / 1e9;
                    if (!n.hasNonNull("startS") || n.get("startS").asDouble() > start) {
                        n.put("startS", start);
                    }
                    if (!n.hasNonNull("endS") || n.get("endS").asDouble() < end) {
                        n.put("endS", end);
                    }
                }
            }
        }
        ArrayNode a = root.putArray("phases");
        byIndex.values().forEach(a::add);
        return root;
    }
}
