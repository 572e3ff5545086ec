package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The latency scatter of a run as the HTTP API answers it: columns, not objects, so a million points transfer and
 * parse fast. Two encodings of the same content:
 *
 * <ul>
 *   <li>JSON: {@code {runId, thresholdNs, ops[], windows:{startNs[], sizeNs[], ioCount[], atOrAboveThreshold[],
 *       keptAtOrAboveThreshold[], shown[]}, points:{timeNs[], latencyNs[], op[]}}}; integers, exact.</li>
 *   <li>binary ({@code format=binary}, {@code application/octet-stream}), what the dashboard reads into typed
 *       arrays without parsing: little-endian; header {@code "SSDSCAT1"}, int32 windowCount, int32 pointCount,
 *       float64 thresholdNs; then per window the float64 columns startNs, sizeNs, ioCount, atOrAboveThreshold,
 *       keptAtOrAboveThreshold, shown; then float64 timeNs[pointCount], float64 latencyNs[pointCount],
 *       uint8 op[pointCount]. float64 holds every integer below 2^53 exactly: 104 days in ns.</li>
 * </ul>
 * {@code timeNs} is the I/O's completion time since the run's start; {@code shown} counts the window's points in
 * the answer (after the op filter).
 */
final class ScatterExport {
    static final String BINARY_TYPE = "application/octet-stream";
    static final byte[] MAGIC = "SSDSCAT1".getBytes(StandardCharsets.US_ASCII);
    private static final JsonFactory JSON = new JsonFactory();
    private static final String[] OPS = {"READ", "WRITE", "TRIM", "FLUSH"};
    /** The per-window columns before {@code shown}, in the order of both formats. */
    private static final Map<String, ToLongFunction<LatencyScatter>> WINDOW_COLUMNS = new LinkedHashMap<>();

    static {
        WINDOW_COLUMNS.put("startNs", LatencyScatter::getWindowStartNs);
        WINDOW_COLUMNS.put("sizeNs", LatencyScatter::getWindowSizeNs);
        WINDOW_COLUMNS.put("ioCount", LatencyScatter::getIoCount);
        WINDOW_COLUMNS.put("atOrAboveThreshold", LatencyScatter::getAtOrAboveThresholdCount);
        WINDOW_COLUMNS.put("keptAtOrAboveThreshold", LatencyScatter::getKeptAtOrAboveThresholdCount);
    }

    private ScatterExport() {}

    enum Format {
        JSON,
        BINARY;

        static Format parse(String text) {
            if (text == null || text.equalsIgnoreCase("json")) {
                return JSON;
            }
            if (text.equalsIgnoreCase("binary")) {
                return BINARY;
            }
            throw ApiException.badParameter("format", "'" + text + "' is not json or binary");
        }
    }

    /** @param opMask bit i set: op i is wanted */
    static byte[] encode(String runId, List<LatencyScatter> windows, int opMask, Format format) {
        int points = 0;
        int[] shown = new int[windows.size()];
        for (int w = 0; w < windows.size(); w++) {
            for (int op : windows.get(w).getOps()) {
                if ((opMask & (1 << op)) != 0) {
                    shown[w]++;
                }
            }
            points += shown[w];
        }
        return format == Format.BINARY ? binary(windows, opMask, shown, points) : json(runId, windows, opMask, shown);
    }

    /** The windows of a run share one threshold (a restored run keeps its sampler's settings): the latest one's. */
    private static long threshold(List<LatencyScatter> windows) {
        return windows.isEmpty() ? -1 : windows.get(windows.size() - 1).getThresholdNs();
    }

    private static byte[] binary(List<LatencyScatter> windows, int opMask, int[] shown, int points) {
        int n = windows.size();
        ByteBuffer b = ByteBuffer.allocate(24 + 6 * 8 * n + 17 * points).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(n).putInt(points).putDouble(threshold(windows));
        WINDOW_COLUMNS.values().forEach(column -> windows.forEach(w -> b.putDouble(column.applyAsLong(w))));
        for (int s : shown) {
            b.putDouble(s);
        }
        int timeAt = b.position();
        int latencyAt = timeAt + 8 * points;
        int opAt = latencyAt + 8 * points;
        int i = 0;
        for (LatencyScatter w : windows) {
            List<Long> offsets = w.getCompletionOffsetsNs();
            List<Long> latencies = w.getLatenciesNs();
            List<Integer> ops = w.getOps();
            for (int k = 0; k < ops.size(); k++) {
                int op = ops.get(k);
                if ((opMask & (1 << op)) == 0) {
                    continue;
                }
                b.putDouble(timeAt + 8 * i, w.getWindowStartNs() + offsets.get(k));
                b.putDouble(latencyAt + 8 * i, latencies.get(k));
                b.put(opAt + i, (byte) op);
                i++;
            }
        }
        return b.array();
    }

    private static byte[] json(String runId, List<LatencyScatter> windows, int opMask, int[] shown) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + windows.size() * 64 + 26 * sum(shown));
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("runId", runId);
            if (windows.isEmpty()) {
                g.writeNullField("thresholdNs");
            } else {
                g.writeNumberField("thresholdNs", threshold(windows));
            }
            g.writeArrayFieldStart("ops");
            for (String op : OPS) {
                g.writeString(op);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("windows");
            for (var column : WINDOW_COLUMNS.entrySet()) {
                column(g, column.getKey(), windows, column.getValue());
            }
            g.writeArrayFieldStart("shown");
            for (int s : shown) {
                g.writeNumber(s);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeObjectFieldStart("points");
            g.writeArrayFieldStart("timeNs");
            forEachPoint(
                    windows,
                    opMask,
                    (w, k) -> g.writeNumber(
                            w.getWindowStartNs() + w.getCompletionOffsetsNs().get(k)));
            g.writeEndArray();
            g.writeArrayFieldStart("latencyNs");
            forEachPoint(
                    windows, opMask, (w, k) -> g.writeNumber(w.getLatenciesNs().get(k)));
            g.writeEndArray();
            g.writeArrayFieldStart("op");
            forEachPoint(windows, opMask, (w, k) -> g.writeNumber(w.getOps().get(k)));
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private interface PointWriter {
        void write(LatencyScatter window, int index) throws IOException;
    }

    private static void forEachPoint(List<LatencyScatter> windows, int opMask, PointWriter writer) throws IOException {
        for (LatencyScatter w : windows) {
            List<Integer> ops = w.getOps();
            for (int k = 0; k < ops.size(); k++) {
                if ((opMask & (1 << ops.get(k))) != 0) {
                    writer.write(w, k);
                }
            }
        }
    }

    private static void column(
            JsonGenerator g, String name, List<LatencyScatter> windows, ToLongFunction<LatencyScatter> field)
            throws IOException {
        g.writeArrayFieldStart(name);
        for (LatencyScatter w : windows) {
            g.writeNumber(field.applyAsLong(w));
        }
        g.writeEndArray();
    }

    private static int sum(int[] values) {
        int total = 0;
        for (int v : values) {
            total += v;
        }
        return total;
    }
}
