package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.views.RunViews;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * One Server-Sent-Events client of /api/runs/{id}/events. Each {@link #poll()} (run by the server's scheduler,
 * never by a request thread: when the analytics announce a change of the run's views, and every poll interval
 * besides) sends what appeared since the previous poll: {@code window} events (a series point plus "op"),
 * {@code open} events (the newest window still filling, a point plus "op" and {@code "provisional": true}, sent
 * again as it grows, replaced by the {@code window} event of the same "t" once closed), {@code status} when the
 * run's status changes, {@code wa} for new WA intervals and {@code summary} when the summary appears or changes.
 * The first poll sends everything from the query's "from" on, so a client may connect with from = its last point.
 */
final class SseStream {
    private static final long KEEPALIVE_NS = 15_000_000_000L;

    private final String runId;
    private final SeriesQuery query;
    private final RunViews views;
    private final ObjectMapper json;
    private final OutputStream out;
    private final long[] nextFromNs = new long[IoOpCode.COUNT];
    /** Per op, the open window last sent (start and I/O count), so an unchanged one is not sent again. */
    private final long[] openSentStartNs = new long[IoOpCode.COUNT];

    private final long[] openSentIoCount = new long[IoOpCode.COUNT];
    private String lastStatus;
    private String lastSummaryKey;
    private int waSent;
    private long lastWriteNs = System.nanoTime();

    SseStream(String runId, SeriesQuery query, RunViews views, ObjectMapper json, OutputStream out) {
        this.runId = runId;
        this.query = query;
        this.views = views;
        this.json = json;
        this.out = out;
        Arrays.fill(nextFromNs, query.fromNs());
        Arrays.fill(openSentStartNs, Long.MIN_VALUE);
    }

    /**
     * Sends what is new; called by the scheduler and on announced changes, one call at a time.
     *
     * @throws IOException when the client went away (the caller ends the stream)
     */
    synchronized void poll() throws IOException {
        StringBuilder batch = new StringBuilder();
        try {
            String status = views.status(runId).orElse("UNKNOWN");
            for (int op : query.ops()) {
                if (nextFromNs[op] > query.toNs()) {
                    continue;
                }
                List<WindowMetrics> windows = views.series(runId, op, nextFromNs[op], query.toNs());
                for (WindowMetrics w : windows) {
                    event(batch, "window", ReportTables.POINT.json(w).put("op", IoOpCode.name(op)));
                    nextFromNs[op] = w.getWindowStartNs() + 1;
                }
                Optional<WindowMetrics> open = views.openWindow(runId, op);
                if (open.isPresent()) {
                    WindowMetrics w = open.get();
                    boolean fresh = w.getWindowStartNs() >= nextFromNs[op] && w.getWindowStartNs() <= query.toNs();
                    boolean changed =
                            w.getWindowStartNs() != openSentStartNs[op] || w.getIoCount() != openSentIoCount[op];
                    if (fresh && changed) {
                        event(batch, "open", openPoint(w, op));
                        openSentStartNs[op] = w.getWindowStartNs();
                        openSentIoCount[op] = w.getIoCount();
                    }
                }
            }
            List<WriteAmplification> wa = views.waSeries(runId);
            for (int i = waSent; i < wa.size(); i++) {
                event(batch, "wa", ApiJson.waInterval(wa.get(i)));
            }
            waSent = wa.size();
            if (!status.equals(lastStatus)) {
                ObjectNode s = json.createObjectNode().put("runId", runId).put("status", status);
                event(batch, "status", s);
                lastStatus = status;
            }
            Optional<RunSummary> summary = views.summary(runId);
            if (summary.isPresent()) {
                RunSummary s = summary.get();
                String key = s.getStatus() + "/" + s.getIoCount() + "/" + s.getDurationNs() + "/"
                        + (s.getWriteAmplification() == null
                                ? ""
                                : s.getWriteAmplification().getToTimeNs());
                if (!key.equals(lastSummaryKey)) {
                    event(batch, "summary", SummaryJson.of(s, null, null));
                    lastSummaryKey = key;
                }
            }
        } catch (InvalidStateStoreException e) {
            // stores rebalancing or restoring: nothing new this time, the next poll catches up
        }
        if (batch.length() == 0 && System.nanoTime() - lastWriteNs < KEEPALIVE_NS) {
            return;
        }
        if (batch.length() == 0) {
            batch.append(": keepalive\n\n");
        }
        out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        lastWriteNs = System.nanoTime();
    }

    /** A series point of a window still open, marked provisional. */
    static ObjectNode openPoint(WindowMetrics w, int op) {
        return ReportTables.POINT.json(w).put("op", IoOpCode.name(op)).put("provisional", true);
    }

    private void event(StringBuilder batch, String name, ObjectNode data) throws IOException {
        batch.append("event: ")
                .append(name)
                .append('\n')
                .append("data: ")
                .append(json.writeValueAsString(data))
                .append("\n\n");
    }
}
