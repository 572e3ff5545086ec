package dev.ssdpulse.streams.report.chart;

import java.awt.Color;
import java.util.List;

/**
 * The dashboard's colours (dashboard/app.js, charts.js, style.css), for the charts drawn outside the browser —
 * the HTML report's SVG and raster images and {@code report --png} — so that a run looks the same wherever it is
 * drawn: an op, a run of a comparison, a latency statistic, WA, a steady-state band or a phase marker always in
 * the same colour. CSS hex strings; {@link #awt} for Java2D.
 */
public final class Palette {
    /** A run of a comparison, by position (the dashboard's RUN_COLORS); wraps around after eight. */
    public static final List<String> RUNS =
            List.of("#2b6cb0", "#dd6b20", "#2f855a", "#c53030", "#6b46c1", "#b7791f", "#319795", "#d53f8c");

    public static final String LATENCY_MAX = "#c53030";
    public static final String LATENCY_P99 = "#dd6b20";
    public static final String LATENCY_P50 = "#2b6cb0";
    public static final String LATENCY_MEAN = "#718096";
    public static final String WA_CUMULATIVE = "#6b46c1";
    public static final String WA_INTERVAL = "#b794f4";
    /** A bar of the latency distribution; {@link #OUTLIER} for the bins at or above the first outlier threshold. */
    public static final String BAR = "#3182ce";

    public static final String OUTLIER = "#c53030";
    /** The scatter's threshold line and its label. */
    public static final String THRESHOLD = "#c53030";

    public static final String THRESHOLD_TEXT = "#9b2c2c";
    /** A steady-state window: the fill (with {@link #STEADY_OPACITY}) and its label. */
    public static final String STEADY = "#48bb78";

    public static final double STEADY_OPACITY = 0.16;
    public static final String STEADY_TEXT = "#276749";
    /** A phase start: the dashed line and its label. */
    public static final String PHASE = "#805ad5";

    public static final String PHASE_TEXT = "#553c9a";
    public static final String GRID = "#e2e8f0";
    public static final String FRAME = "#a0aec0";
    public static final String TICK_TEXT = "#4a5568";
    public static final String INK = "#2d3748";
    public static final String MUTED = "#718096";

    private static final List<String> OPS = List.of("#2b6cb0", "#dd6b20", "#2f855a", "#6b46c1");

    private Palette() {}

    /** The colour of an I/O direction by its name (READ, WRITE, TRIM, FLUSH); another name gets the muted grey. */
    public static String op(String name) {
        return switch (name) {
            case "READ" -> OPS.get(0);
            case "WRITE" -> OPS.get(1);
            case "TRIM" -> OPS.get(2);
            case "FLUSH" -> OPS.get(3);
            default -> MUTED;
        };
    }

    /** The colour of an I/O direction by its IoOp ordinal (0 READ, 1 WRITE, 2 TRIM, 3 FLUSH). */
    public static String op(int ordinal) {
        return ordinal >= 0 && ordinal < OPS.size() ? OPS.get(ordinal) : MUTED;
    }

    /** The colour of the run at {@code index} in a comparison. */
    public static String run(int index) {
        return RUNS.get(Math.floorMod(index, RUNS.size()));
    }

    /** A CSS hex colour ("#2b6cb0") for Java2D. */
    public static Color awt(String hex) {
        return new Color(Integer.parseInt(hex.substring(1), 16));
    }
}
