package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * A run's per-window metrics as the report's lines over time: the windows that lie wholly inside a time span (a
 * phase, or the run), so that neither the window cut short by the span's start nor the one cut by its end — a few
 * I/Os each — reads as a collapse; times in s from an origin of choice (the run's start, or a phase's, so that runs
 * side by side start at 0).
 */
final class RunWindows {
    private RunWindows() {}

    /** Window start times (s from the origin) and a value per window, in time order. */
    record Line(double[] timeS, double[] values) {
        boolean isEmpty() {
            return timeS.length == 0;
        }

        /** The lowest value (NaN for no window). */
        double min() {
            double min = Double.NaN;
            for (double v : values) {
                min = Double.isNaN(min) || v < min ? v : min;
            }
            return min;
        }
    }

    /**
     * Each whole window of {@code [fromNs, toNs]}, its value summed over the ops (IOPS, MB/s: all directions).
     *
     * @param originNs time 0 of the line, ns since the run's start
     */
    static Line totals(
            List<WindowMetrics> windows, long fromNs, long toNs, long originNs, ToDoubleFunction<WindowMetrics> value) {
        Map<Long, Double> perWindow = new TreeMap<>();
        for (WindowMetrics w : windows) {
            if (inside(w, fromNs, toNs)) {
                perWindow.merge(w.getWindowStartNs(), value.applyAsDouble(w), Double::sum);
            }
        }
        return line(perWindow, originNs);
    }

    /** Each whole window of {@code [fromNs, toNs]} per op (latency statistics do not add up across ops). */
    static Map<IoOp, Line> perOp(
            List<WindowMetrics> windows, long fromNs, long toNs, long originNs, ToDoubleFunction<WindowMetrics> value) {
        Map<IoOp, Map<Long, Double>> byOp = new EnumMap<>(IoOp.class);
        for (WindowMetrics w : windows) {
            if (inside(w, fromNs, toNs)) {
                byOp.computeIfAbsent(w.getOp(), k -> new TreeMap<>()).put(w.getWindowStartNs(), value.applyAsDouble(w));
            }
        }
        Map<IoOp, Line> lines = new EnumMap<>(IoOp.class);
        byOp.forEach((op, perWindow) -> lines.put(op, line(perWindow, originNs)));
        return lines;
    }

    private static boolean inside(WindowMetrics w, long fromNs, long toNs) {
        return w.getWindowStartNs() >= fromNs && w.getWindowStartNs() + w.getWindowSizeNs() <= toNs;
    }

    private static Line line(Map<Long, Double> perWindow, long originNs) {
        double[] t = new double[perWindow.size()];
        double[] v = new double[t.length];
        int i = 0;
        for (var e : perWindow.entrySet()) {
            t[i] = (e.getKey() - originNs) / 1e9;
            v[i++] = e.getValue();
        }
        return new Line(t, v);
    }
}
