package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.chart.MinMaxEnvelope;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Charts as inline SVG for the self-contained HTML report: no script, no font or library to fetch, the same
 * bytes for the same data, in the dashboard's colours ({@link Palette}). A chart is as wide as the page (its
 * viewBox scales; the CSS gives it the width). Each chart's root carries {@code data-points} (the data points it
 * shows), {@code data-series} (its lines or point sets) and {@code data-x-min} / {@code data-x-max} (its x axis),
 * so that a test, or a reader's script, can tell a drawn chart from an empty frame and check its axis; each line
 * is a {@code path.series} with its name in {@code data-series}, a line's range (a WA's bounds) a
 * {@code path.bounds} named alike, a bar a {@code rect.bar} with its exact value in {@code data-value}. A series longer than the chart has room for is
 * drawn as its mean per 2 units of width over a band from the lowest to the highest value there
 * ({@link MinMaxEnvelope}, {@code path.envelope}): a 5,000-point series costs what a 550-point one does, and no
 * drop or spike disappears. Coordinates are rounded to 0.1 unit, finer than a screen shows.
 */
public final class SvgChart {
    static final int WIDTH = 1200;
    /** Height of a chart with one legend line; each further line adds {@link #LEGEND_LINE}. */
    static final int HEIGHT = 340;

    private static final int LEFT = 84;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 62;
    private static final int LEGEND_LINE = 16;
    static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    /** Width of a chart drawn two to a row (average and minimum). */
    static final int HALF_WIDTH = 640;

    static final int PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
    /** Two points (a bucket's min and max) per this many units of width. */
    private static final int UNITS_PER_BUCKET = 2;
    /** A range narrower than this many units everywhere (0.4 % of the plot's height) is not drawn. */
    private static final double HAIR = 1;
    /** How far a series' range stretches the y axis: up to this many times the lines' highest value. */
    private static final double BOUNDS_REACH = 2;
    /** Device pixels of the scatter picture per unit of the chart: sharp on a screen of twice the density. */
    private static final int RASTER_SCALE = 2;

    private SvgChart() {}

    /**
     * One line: x and y of equal length, x ascending; a NaN y is a gap. Null colour: the run palette's next. With
     * {@code low} and {@code high} (null: none), the range each y lies in, drawn as a band with dashed edges where
     * it is wider than a hair (a WA whose counters move in steps); a NaN end: no range known there, an infinite
     * high: no upper bound (the band reaches the chart's top).
     */
    public record Series(
            String name, double[] x, double[] y, String color, boolean dashed, double[] low, double[] high) {
        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException("series '" + name + "': " + x.length + " x but " + y.length + " y");
            }
            if ((low == null) != (high == null)
                    || (low != null && (low.length != x.length || high.length != x.length))) {
                throw new IllegalArgumentException("series '" + name + "': low and high need one value per x");
            }
        }

        public Series(String name, double[] x, double[] y, String color, boolean dashed) {
            this(name, x, y, color, dashed, null, null);
        }

        public Series(String name, double[] x, double[] y, String color) {
            this(name, x, y, color, false);
        }

        /** This line with the range of each of its values. */
        public Series withBounds(double[] low, double[] high) {
            return new Series(name, x, y, color, dashed, low, high);
        }
    }

    /** A vertical line at x with a label (a phase start). */
    public record Marker(double x, String label) {}

    /** A shaded x range with a label (a steady-state window). */
    public record Band(double fromX, double toX, String label) {}

    /** Lines through the points of each series; {@code logY} for latencies. */
    public static String lines(
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Marker> markers,
            List<Band> bands,
            boolean logY) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                double y = s.y()[i];
                if (!Double.isFinite(y) || !Double.isFinite(s.x()[i]) || (logY && y <= 0)) {
                    continue;
                }
                xMin = Math.min(xMin, s.x()[i]);
                xMax = Math.max(xMax, s.x()[i]);
                yMin = Math.min(yMin, y);
                yMax = Math.max(yMax, y);
            }
        }
        // a range reaches the axis as far as BOUNDS_REACH times the lines' highest value: the first intervals of a
        // counter moving in 1-GiB steps allow ratios of 50 and more, which would flatten the lines to the floor
        double linesMax = yMax;
        for (Series s : series) {
            for (int i = 0; s.low() != null && i < s.x().length && Double.isFinite(linesMax); i++) {
                if (!Double.isFinite(s.x()[i]) || !Double.isFinite(s.y()[i])) {
                    continue;
                }
                if (Double.isFinite(s.low()[i]) && (!logY || s.low()[i] > 0)) {
                    yMin = Math.min(yMin, s.low()[i]);
                }
                if (Double.isFinite(s.high()[i])) {
                    yMax = Math.max(yMax, Math.min(s.high()[i], BOUNDS_REACH * linesMax));
                }
            }
        }
        // times, capacities and counts start at 0: an axis of them does too, and ends where the data does
        Axis x = Axis.exact(xMin < 0 ? xMin : 0, xMax);
        Axis y = logY ? Axis.log(yMin, yMax) : Axis.linear(yMin, yMax, true);
        List<String[]> legend = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        bands(body, x, bands);
        // every series' shaded bands first, then the lines over them: no band veils another series' line
        StringBuilder lines = new StringBuilder();
        long drawn = 0;
        int drawnSeries = 0;
        int colour = 0;
        for (Series s : series) {
            String color = s.color() != null ? s.color() : Palette.run(colour++);
            int buckets = PLOT_WIDTH / UNITS_PER_BUCKET;
            // a long series: the mean per bucket as its line, the bucket's lowest to highest as a band under it
            MinMaxEnvelope.Buckets b = s.x().length > buckets
                    ? MinMaxEnvelope.of(s.x(), s.y(), buckets)
                    : new MinMaxEnvelope.Buckets(s.x(), s.y(), s.y(), s.y());
            if (s.x().length > buckets) {
                band(body, b, x, y, logY, color);
            }
            boolean ranged = s.low() != null && bounds(body, s, buckets, x, y, logY, color);
            StringBuilder d = new StringBuilder(b.size() * 13);
            boolean pen = false;
            int count = 0;
            for (int i = 0; i < b.size(); i++) {
                double v = b.mean()[i];
                if (!Double.isFinite(v) || !Double.isFinite(b.x()[i]) || (logY && v <= 0)) {
                    pen = false;
                    continue;
                }
                d.append(String.format(
                        Locale.ROOT,
                        pen ? "L%.1f %.1f" : "M%.1f %.1f",
                        x.px(b.x()[i], LEFT, WIDTH - RIGHT),
                        y.px(v, TOP + PLOT_HEIGHT, TOP)));
                pen = true;
                count++;
            }
            for (int i = 0; i < s.x().length; i++) {
                drawn += Double.isFinite(s.y()[i]) && (!logY || s.y()[i] > 0) ? 1 : 0;
            }
            if (count == 1) {
                // a lone point has no line: a dot
                d.append("h0");
            }
            if (count > 0) {
                drawnSeries++;
                lines.append("<path class=\"series\" data-series=\"")
                        .append(escapeHtml(s.name()))
                        .append("\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"round\" stroke-width=\"")
                        .append(count == 1 ? "5" : "1.6")
                        .append(s.dashed() ? "\" stroke-dasharray=\"6 4" : "")
                        .append("\" stroke=\"")
                        .append(color)
                        .append("\" d=\"")
                        .append(d)
                        .append("\"><title>")
                        .append(escapeHtml(s.name()))
                        .append("</title></path>\n");
            }
            legend.add(new String[] {color, s.name(), s.dashed() ? "dashed" : ""});
            if (ranged) {
                legend.add(new String[] {color, s.name() + ": range the counters' steps allow", "dashed"});
            }
        }
        body.append(lines);
        markers(body, x, markers);
        return chart(title, xLabel, yLabel, x, y, body, legend, drawn, drawnSeries);
    }

    /**
     * The report's scatter: a picture made by {@link #scatterRaster} (its x and y ranges are the chart's axes)
     * placed in the plot area, the threshold line over it, the phases marked.
     */
    public static String raster(String title, ScatterRaster.Picture picture, List<Marker> markers) {
        Axis x = Axis.exact(0, picture.xMaxS());
        Axis y = Axis.log(picture.yMinMs(), picture.yMaxMs());
        StringBuilder body = new StringBuilder();
        body.append(String.format(
                Locale.ROOT,
                "<image class=\"raster\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" preserveAspectRatio=\"none\""
                        + " href=\"data:image/png;base64,%s\"/>%n",
                LEFT,
                TOP,
                PLOT_WIDTH,
                PLOT_HEIGHT,
                Base64.getEncoder().encodeToString(picture.png())));
        if (picture.thresholdNs() > 0) {
            double thresholdMs = picture.thresholdNs() / 1e6;
            double py = y.px(thresholdMs, TOP + PLOT_HEIGHT, TOP);
            body.append(String.format(
                    Locale.ROOT,
                    "<line class=\"threshold\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                            + " stroke-width=\"1.2\" stroke-dasharray=\"5 3\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" class=\"marker\" fill=\"%s\">≥ %s ms: every I/O</text>%n",
                    LEFT,
                    WIDTH - RIGHT,
                    py,
                    py,
                    Palette.THRESHOLD,
                    LEFT + 4,
                    py - 4,
                    Palette.THRESHOLD_TEXT,
                    Axis.label(thresholdMs)));
        }
        markers(body, x, markers);
        List<String[]> legend = new ArrayList<>();
        for (IoOp op : picture.ops()) {
            legend.add(new String[] {Palette.op(op.name()), op.name(), ""});
        }
        return chart(
                title,
                "run time (s)",
                "latency (ms, log)",
                x,
                y,
                body,
                legend,
                picture.pointsDrawn(),
                picture.ops().size());
    }

    /**
     * An empty scatter picture for a run of {@code durationS} whose latencies lie in {@code [minMs, maxMs]}, with
     * the geometry and axes of {@link #raster}: the plot area at twice its size in pixels, x from 0 to the time
     * axis' end, y whole decades around the latencies and the threshold.
     */
    public static ScatterRaster scatterRaster(
            double durationS, double minMs, double maxMs, double thresholdMs, int slowestKept) {
        Axis x = Axis.exact(0, durationS);
        double lo = minMs > 0 ? Math.min(minMs, thresholdMs) : thresholdMs / 1000;
        Axis y = Axis.log(lo, Math.max(maxMs, thresholdMs));
        return new ScatterRaster(
                PLOT_WIDTH * RASTER_SCALE,
                PLOT_HEIGHT * RASTER_SCALE,
                x.max(),
                y.min(),
                y.max(),
                2 * RASTER_SCALE,
                slowestKept);
    }

    /** Bars of counts over labelled categories, log scale (counts span decades); {@code highlight}ed bars red. */
    public static String bars(
            String title, String yLabel, List<String> labels, long[] values, List<Integer> highlight) {
        long max = 1;
        for (long v : values) {
            max = Math.max(max, v);
        }
        Axis y = Axis.log(1, max);
        int n = values.length;
        long drawn = 0;
        StringBuilder body = new StringBuilder();
        double slot = PLOT_WIDTH / (double) Math.max(1, n);
        for (int i = 0; i < n; i++) {
            double x0 = LEFT + i * slot + slot * 0.15;
            if (values[i] > 0) {
                double top = y.px(values[i], TOP + PLOT_HEIGHT, TOP);
                body.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                                + "<title>%s: %s</title></rect>"
                                + "<text x=\"%.1f\" y=\"%.1f\" class=\"value\" text-anchor=\"middle\">%s</text>%n",
                        x0,
                        top,
                        slot * 0.7,
                        TOP + PLOT_HEIGHT - top,
                        highlight.contains(i) ? Palette.OUTLIER : Palette.BAR,
                        escapeHtml(labels.get(i)),
                        ReportFormat.grouped(values[i]),
                        x0 + slot * 0.35,
                        // where a count is wider than its bar, every other one a line higher: none overlaps
                        top
                                - 3
                                - (i % 2 == 1
                                                && 6.2
                                                                * ReportFormat.grouped(values[i])
                                                                        .length()
                                                        > slot
                                        ? 12
                                        : 0),
                        ReportFormat.grouped(values[i])));
                drawn++;
            }
            body.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    x0 + slot * 0.35,
                    TOP + PLOT_HEIGHT + 16,
                    escapeHtml(labels.get(i))));
        }
        StringBuilder b = new StringBuilder(2048);
        open(b, title, WIDTH, HEIGHT, drawn, drawn > 0 ? 1 : 0, null);
        yAxis(b, y, yLabel, WIDTH);
        frame(b, WIDTH);
        return b.append(body).append("</svg>\n").toString();
    }

    /**
     * Bars side by side per category (a run), one per group (average, minimum), linear from 0, each with its value
     * written over it.
     *
     * @param values [group][category]; NaN: no bar
     */
    public static String groupedBars(
            String title,
            String yLabel,
            List<String> categories,
            List<String> groups,
            List<String> groupColors,
            double[][] values,
            int decimals) {
        double max = 0;
        for (double[] group : values) {
            for (double v : group) {
                max = Double.isFinite(v) ? Math.max(max, v) : max;
            }
        }
        Axis y = Axis.linear(0, max, true);
        double slot = (HALF_WIDTH - LEFT - RIGHT) / (double) Math.max(1, categories.size());
        double bar = slot * 0.8 / Math.max(1, groups.size());
        long drawn = 0;
        StringBuilder body = new StringBuilder();
        for (int c = 0; c < categories.size(); c++) {
            double x0 = LEFT + c * slot + slot * 0.1;
            for (int g = 0; g < groups.size(); g++) {
                double v = values[g][c];
                if (!Double.isFinite(v)) {
                    continue;
                }
                double top = y.px(v, TOP + PLOT_HEIGHT, TOP);
                String text = ReportFormat.grouped(v, decimals);
                body.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"bar\" data-group=\"%s\" data-value=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
                                + " height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s</title></rect>"
                                + "<text x=\"%.1f\" y=\"%.1f\" class=\"value\" text-anchor=\"middle\">%s</text>%n",
                        escapeHtml(groups.get(g)),
                        v,
                        x0 + g * bar,
                        top,
                        bar * 0.92,
                        TOP + PLOT_HEIGHT - top,
                        groupColors.get(g),
                        escapeHtml(categories.get(c)),
                        escapeHtml(groups.get(g)),
                        text,
                        x0 + g * bar + bar * 0.46,
                        top - 3,
                        text));
                drawn++;
            }
            // a category's label line by line: a run id, then its drive
            String[] lines = categories.get(c).split("\n");
            for (int l = 0; l < lines.length; l++) {
                body.append(String.format(
                        Locale.ROOT,
                        "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                        x0 + slot * 0.4,
                        TOP + PLOT_HEIGHT + 16 + 13 * l,
                        escapeHtml(lines[l])));
            }
        }
        List<String[]> legend = new ArrayList<>();
        for (int g = 0; g < groups.size(); g++) {
            legend.add(new String[] {groupColors.get(g), groups.get(g), ""});
        }
        int height = HEIGHT + LEGEND_LINE * (legendLines(legend, HALF_WIDTH) - 1);
        StringBuilder b = new StringBuilder(2048);
        open(b, title, HALF_WIDTH, height, drawn, drawn > 0 ? groups.size() : 0, null);
        yAxis(b, y, yLabel, HALF_WIDTH);
        frame(b, HALF_WIDTH);
        b.append(body);
        legend(b, legend, TOP + PLOT_HEIGHT + 50, HALF_WIDTH);
        return b.append("</svg>\n").toString();
    }

    /**
     * One bar of {@link #horizontalBars}: a label (a drive), its value and how it is written, a colour, a badge
     * after the value (null: none), a tooltip, and the key a script or test finds it by ({@code data-key}).
     */
    public record HorizontalBar(
            String key, String label, double value, String valueText, String color, String badge, String tooltip) {}

    /**
     * Bars from 0 to each value, one per line in the order given (the seed reviews' load-time charts: a drive per
     * bar, the shortest first), labels on the left, each value written after its bar, then its badge (late
     * issues) in the outlier colour.
     */
    public static String horizontalBars(String title, String xLabel, List<HorizontalBar> bars) {
        int longest = bars.stream().mapToInt(bar -> bar.label().length()).max().orElse(0);
        int left = (int) Math.min(420, Math.max(LEFT, 16 + 6.6 * longest));
        int right = WIDTH - RIGHT - 240;
        int row = 26;
        int height = TOP + 10 + row * Math.max(1, bars.size()) + 44;
        int plotBottom = height - 44;
        double max = 0;
        for (HorizontalBar bar : bars) {
            max = Double.isFinite(bar.value()) ? Math.max(max, bar.value()) : max;
        }
        Axis x = Axis.linear(0, max, true);
        StringBuilder body = new StringBuilder();
        for (double t : x.ticks()) {
            double px = x.px(t, left, right);
            body.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    px,
                    px,
                    TOP,
                    plotBottom,
                    Palette.GRID,
                    px,
                    plotBottom + 16,
                    Axis.label(t)));
        }
        long drawn = 0;
        for (int i = 0; i < bars.size(); i++) {
            HorizontalBar bar = bars.get(i);
            double y0 = TOP + 10 + i * row;
            body.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    left - 8,
                    y0 + 12,
                    escapeHtml(bar.label())));
            if (!Double.isFinite(bar.value())) {
                continue;
            }
            double end = x.px(bar.value(), left, right);
            body.append(String.format(
                    Locale.ROOT,
                    "<rect class=\"bar\" data-key=\"%s\" data-value=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\""
                            + " height=\"16\" fill=\"%s\"><title>%s</title></rect>"
                            + "<text x=\"%.1f\" y=\"%.1f\" class=\"value\">%s</text>%n",
                    escapeHtml(bar.key()),
                    bar.value(),
                    left,
                    y0,
                    Math.max(0.5, end - left),
                    bar.color(),
                    escapeHtml(bar.tooltip()),
                    end + 5,
                    y0 + 12,
                    escapeHtml(bar.valueText())));
            if (bar.badge() != null) {
                double bx = end + 12 + 6.2 * bar.valueText().length();
                double width = 12 + 6.2 * bar.badge().length();
                body.append(String.format(
                        Locale.ROOT,
                        "<g class=\"badge\" data-key=\"%s\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
                                + " height=\"16\" rx=\"8\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\""
                                + ">%s</text></g>%n",
                        escapeHtml(bar.key()),
                        bx,
                        y0,
                        width,
                        Palette.OUTLIER,
                        bx + 6,
                        y0 + 12,
                        escapeHtml(bar.badge())));
            }
            drawn++;
        }
        StringBuilder b = new StringBuilder(body.length() + 1024);
        open(b, title, WIDTH, height, drawn, drawn > 0 ? 1 : 0, x);
        b.append(body);
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n"
                        + "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"end\">%s</text>%n",
                left,
                left,
                TOP,
                plotBottom,
                Palette.FRAME,
                right,
                plotBottom + 32,
                escapeHtml(xLabel)));
        return b.append("</svg>\n").toString();
    }

    private static String chart(
            String title,
            String xLabel,
            String yLabel,
            Axis x,
            Axis y,
            StringBuilder body,
            List<String[]> legend,
            long drawn,
            int drawnSeries) {
        int height = HEIGHT + LEGEND_LINE * (legendLines(legend, WIDTH) - 1);
        StringBuilder b = new StringBuilder(body.length() + 4096);
        open(b, title, WIDTH, height, drawn, drawnSeries, drawn == 0 ? null : x);
        if (drawn == 0) {
            b.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" class=\"empty\">no data</text>%n",
                    WIDTH / 2 - 30,
                    HEIGHT / 2));
            return b.append("</svg>\n").toString();
        }
        yAxis(b, y, yLabel, WIDTH);
        xAxis(b, x, xLabel);
        b.append(body);
        frame(b, WIDTH);
        legend(b, legend, TOP + PLOT_HEIGHT + 50, WIDTH);
        return b.append("</svg>\n").toString();
    }

    private static int legendLines(List<String[]> legend, int width) {
        int lines = 1;
        double lx = LEFT;
        for (String[] entry : legend) {
            double w = legendWidth(entry[1]);
            if (lx + w > width - RIGHT && lx > LEFT) {
                lines++;
                lx = LEFT;
            }
            lx += w;
        }
        return lines;
    }

    private static double legendWidth(String name) {
        return 34 + 6.6 * name.length();
    }

    private static void legend(StringBuilder b, List<String[]> legend, int top, int width) {
        double lx = LEFT;
        int ly = top;
        for (String[] entry : legend) {
            double w = legendWidth(entry[1]);
            if (lx + w > width - RIGHT && lx > LEFT) {
                ly += LEGEND_LINE;
                lx = LEFT;
            }
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"4\"%s/>"
                            + "<text x=\"%.1f\" y=\"%d\" class=\"legend\">%s</text>%n",
                    lx,
                    lx + 16,
                    ly - 4,
                    ly - 4,
                    entry[0],
                    entry[2].isEmpty() ? "" : " stroke-dasharray=\"5 3\"",
                    lx + 20,
                    ly,
                    escapeHtml(entry[1])));
            lx += w;
        }
    }

    private static void bands(StringBuilder body, Axis x, List<Band> bands) {
        int labelLine = 0;
        for (Band band : bands) {
            double x0 = x.px(Math.max(band.fromX(), x.min()), LEFT, WIDTH - RIGHT);
            double x1 = x.px(Math.min(band.toX(), x.max()), LEFT, WIDTH - RIGHT);
            if (x1 > x0) {
                body.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                                + " fill-opacity=\"%.2f\"><title>%s</title></rect>"
                                + "<text x=\"%.1f\" y=\"%d\" class=\"marker\" fill=\"%s\"%s>%s</text>%n",
                        x0,
                        TOP,
                        x1 - x0,
                        PLOT_HEIGHT,
                        Palette.STEADY,
                        Palette.STEADY_OPACITY,
                        escapeHtml(band.label()),
                        // a band in the right third is labelled to its left, inside the chart
                        x0 > LEFT + PLOT_WIDTH * 2 / 3.0 ? x1 - 4 : x0 + 4,
                        // labels of overlapping windows one above the other
                        TOP + PLOT_HEIGHT - 6 - 13 * labelLine++,
                        Palette.STEADY_TEXT,
                        x0 > LEFT + PLOT_WIDTH * 2 / 3.0 ? " text-anchor=\"end\"" : "",
                        escapeHtml(band.label())));
            }
        }
    }

    /**
     * The band from each bucket's lowest to its highest value, a closed path per stretch without a gap; on a log
     * axis a lowest value of 0 or less is drawn at the axis' bottom.
     */
    private static void band(StringBuilder body, MinMaxEnvelope.Buckets b, Axis x, Axis y, boolean logY, String color) {
        StringBuilder d = new StringBuilder(b.size() * 26);
        int i = 0;
        while (i < b.size()) {
            if (!Double.isFinite(b.max()[i]) || (logY && b.max()[i] <= 0)) {
                i++;
                continue;
            }
            int from = i;
            while (i < b.size() && Double.isFinite(b.max()[i]) && (!logY || b.max()[i] > 0)) {
                i++;
            }
            for (int k = from; k < i; k++) {
                d.append(String.format(
                        Locale.ROOT,
                        k == from ? "M%.1f %.1f" : "L%.1f %.1f",
                        x.px(b.x()[k], LEFT, WIDTH - RIGHT),
                        y.px(b.max()[k], TOP + PLOT_HEIGHT, TOP)));
            }
            for (int k = i - 1; k >= from; k--) {
                double low = logY ? Math.max(b.min()[k], y.min()) : b.min()[k];
                d.append(String.format(
                        Locale.ROOT,
                        "L%.1f %.1f",
                        x.px(b.x()[k], LEFT, WIDTH - RIGHT),
                        y.px(low, TOP + PLOT_HEIGHT, TOP)));
            }
            d.append('Z');
        }
        if (!d.isEmpty()) {
            body.append("<path class=\"envelope\" fill=\"")
                    .append(color)
                    .append("\" fill-opacity=\"0.22\" stroke=\"none\" d=\"")
                    .append(d)
                    .append("\"/>\n");
        }
    }

    /**
     * A series' range: a band from its low to its high values with dashed edges, inside the plot area (a nested
     * viewport clips what lies beyond it: a high without bound is drawn past the top), bucketed as the line is
     * when the series is long (each bucket's lowest low and highest high). Nothing where the range is nowhere
     * wider than {@link #HAIR}: exact counters draw no band. Returns whether a band was drawn.
     */
    private static boolean bounds(
            StringBuilder body, Series s, int buckets, Axis x, Axis y, boolean logY, String color) {
        double beyondTop = y.max() + (y.max() - y.min());
        int n = s.x().length;
        double[] lo = new double[n];
        double[] hi = new double[n];
        for (int i = 0; i < n; i++) {
            boolean known = Double.isFinite(s.y()[i]) && !Double.isNaN(s.low()[i]) && !Double.isNaN(s.high()[i]);
            lo[i] = !known ? Double.NaN : logY && s.low()[i] <= 0 ? y.min() : s.low()[i];
            hi[i] = !known ? Double.NaN : s.high()[i] == Double.POSITIVE_INFINITY ? beyondTop : s.high()[i];
        }
        double[] bx = s.x();
        if (n > buckets) {
            MinMaxEnvelope.Buckets low = MinMaxEnvelope.of(s.x(), lo, buckets);
            bx = low.x();
            lo = low.min();
            hi = MinMaxEnvelope.of(s.x(), hi, buckets).max();
        }
        boolean wide = false;
        for (int i = 0; i < bx.length && !wide; i++) {
            wide = Double.isFinite(lo[i])
                    && Double.isFinite(hi[i])
                    && y.px(lo[i], TOP + PLOT_HEIGHT, TOP) - y.px(hi[i], TOP + PLOT_HEIGHT, TOP) >= HAIR;
        }
        if (!wide) {
            return false;
        }
        StringBuilder area = new StringBuilder(bx.length * 26);
        StringBuilder lowLine = new StringBuilder(bx.length * 13);
        StringBuilder highLine = new StringBuilder(bx.length * 13);
        int i = 0;
        while (i < bx.length) {
            if (!Double.isFinite(lo[i]) || !Double.isFinite(hi[i]) || !Double.isFinite(bx[i])) {
                i++;
                continue;
            }
            int from = i;
            while (i < bx.length && Double.isFinite(lo[i]) && Double.isFinite(hi[i]) && Double.isFinite(bx[i])) {
                i++;
            }
            for (int k = from; k < i; k++) {
                String point = String.format(
                        Locale.ROOT,
                        "%.1f %.1f",
                        x.px(bx[k], LEFT, WIDTH - RIGHT),
                        y.px(hi[k], TOP + PLOT_HEIGHT, TOP));
                area.append(k == from ? 'M' : 'L').append(point);
                highLine.append(k == from ? 'M' : 'L').append(point);
            }
            for (int k = i - 1; k >= from; k--) {
                area.append(String.format(
                        Locale.ROOT,
                        "L%.1f %.1f",
                        x.px(bx[k], LEFT, WIDTH - RIGHT),
                        y.px(lo[k], TOP + PLOT_HEIGHT, TOP)));
            }
            for (int k = from; k < i; k++) {
                lowLine.append(String.format(
                        Locale.ROOT,
                        k == from ? "M%.1f %.1f" : "L%.1f %.1f",
                        x.px(bx[k], LEFT, WIDTH - RIGHT),
                        y.px(lo[k], TOP + PLOT_HEIGHT, TOP)));
            }
            area.append('Z');
        }
        String name = escapeHtml(s.name());
        body.append(String.format(
                        Locale.ROOT,
                        "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" viewBox=\"%d %d %d %d\" overflow=\"hidden\">%n",
                        LEFT,
                        TOP,
                        PLOT_WIDTH,
                        PLOT_HEIGHT,
                        LEFT,
                        TOP,
                        PLOT_WIDTH,
                        PLOT_HEIGHT))
                .append("<path class=\"bounds\" data-series=\"")
                .append(name)
                .append("\" fill=\"")
                .append(color)
                .append("\" fill-opacity=\"0.15\" stroke=\"none\" d=\"")
                .append(area)
                .append("\"><title>")
                .append(name)
                .append(": the lowest to the highest value the counters' steps allow</title></path>\n");
        for (StringBuilder edge : List.of(lowLine, highLine)) {
            body.append("<path class=\"bound\" fill=\"none\" stroke-width=\"1\" stroke-dasharray=\"4 3\" stroke=\"")
                    .append(color)
                    .append("\" d=\"")
                    .append(edge)
                    .append("\"/>\n");
        }
        body.append("</svg>\n");
        return true;
    }

    private static void markers(StringBuilder body, Axis x, List<Marker> markers) {
        // a label goes on the first of three lines where it clears the one before it (phases close in time)
        double[] lineEnds = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (Marker m : markers) {
            if (m.x() < x.min() || m.x() > x.max()) {
                continue;
            }
            double px = x.px(m.x(), LEFT, WIDTH - RIGHT);
            int line = 0;
            while (line < lineEnds.length - 1 && px + 3 < lineEnds[line] + 4) {
                line++;
            }
            lineEnds[line] = px + 3 + 6.2 * m.label().length();
            body.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" class=\"marker\" fill=\"%s\">%s</text>%n",
                    px,
                    px,
                    TOP,
                    TOP + PLOT_HEIGHT,
                    Palette.PHASE,
                    px + 3,
                    TOP + 12 + 12 * line,
                    Palette.PHASE_TEXT,
                    escapeHtml(m.label())));
        }
    }

    /** The root element, with the number of data points and series drawn and the x axis, and the title. */
    private static void open(StringBuilder b, String title, int width, int height, long drawn, int series, Axis x) {
        b.append(String.format(
                Locale.ROOT,
                "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" data-points=\"%d\""
                        + " data-series=\"%d\"%s role=\"img\">%n",
                width,
                height,
                drawn,
                series,
                x == null
                        ? ""
                        : " data-x-min=\"" + Axis.plain(x.min()) + "\" data-x-max=\"" + Axis.plain(x.max()) + "\""));
        b.append("<title>").append(escapeHtml(title)).append("</title>\n");
        b.append(String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"20\" class=\"title\">%s</text>%n", LEFT, escapeHtml(title)));
    }

    private static void frame(StringBuilder b, int width) {
        b.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"%s\"/>%n",
                LEFT,
                TOP,
                width - LEFT - RIGHT,
                PLOT_HEIGHT,
                Palette.FRAME));
    }

    private static void xAxis(StringBuilder b, Axis x, String xLabel) {
        for (double t : x.ticks()) {
            double px = x.px(t, LEFT, WIDTH - RIGHT);
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    px,
                    px,
                    TOP + PLOT_HEIGHT,
                    TOP + PLOT_HEIGHT + 4,
                    Palette.FRAME,
                    px,
                    TOP + PLOT_HEIGHT + 16,
                    Axis.label(t)));
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"end\">%s</text>%n",
                WIDTH - RIGHT,
                TOP + PLOT_HEIGHT + 30,
                escapeHtml(xLabel)));
    }

    private static void yAxis(StringBuilder b, Axis y, String yLabel, int width) {
        for (double t : y.ticks()) {
            double py = y.px(t, TOP + PLOT_HEIGHT, TOP);
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT,
                    width - RIGHT,
                    py,
                    py,
                    Palette.GRID,
                    LEFT - 6,
                    py + 4,
                    Axis.label(t)));
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"14\" y=\"%d\" class=\"axis\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s"
                        + "</text>%n",
                TOP + PLOT_HEIGHT / 2,
                TOP + PLOT_HEIGHT / 2,
                escapeHtml(yLabel)));
    }

    /** A linear or decimal-log scale with round ticks. */
    record Axis(double min, double max, boolean log) {
        static Axis linear(double min, double max, boolean fromZero) {
            if (!Double.isFinite(min) || !Double.isFinite(max)) {
                return new Axis(0, 1, false);
            }
            double lo = fromZero ? Math.min(0, min) : min;
            double hi = max > lo ? max : lo + 1;
            double step = step(lo, hi);
            return new Axis(Math.floor(lo / step) * step, Math.ceil(hi / step) * step, false);
        }

        /** From {@code min} to {@code max} as they are (a time axis ends with the run), ticks at round values. */
        static Axis exact(double min, double max) {
            if (!Double.isFinite(min) || !Double.isFinite(max)) {
                return new Axis(0, 1, false);
            }
            return new Axis(min, max > min ? max : min + 1, false);
        }

        static Axis log(double min, double max) {
            if (!Double.isFinite(min) || !Double.isFinite(max) || min <= 0) {
                return new Axis(1, 10, true);
            }
            double lo = Math.pow(10, Math.floor(Math.log10(min)));
            double hi = Math.pow(10, Math.ceil(Math.log10(max)));
            return new Axis(lo, hi > lo ? hi : lo * 10, true);
        }

        /** A 1, 2 or 5 times a power of ten giving 4 to 10 ticks. */
        private static double step(double lo, double hi) {
            double raw = (hi - lo) / 6;
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double f = raw / p;
            return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
        }

        double px(double v, double from, double to) {
            double f = log
                    ? (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (v - min) / (max - min);
            return from + f * (to - from);
        }

        List<Double> ticks() {
            List<Double> t = new ArrayList<>();
            if (log) {
                for (double v = min; v <= max * 1.0001; v *= 10) {
                    t.add(v);
                }
            } else {
                double step = step(min, max);
                for (double v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
                    t.add(Math.abs(v) < step * 1e-9 ? 0 : v);
                }
            }
            return t;
        }

        /** A tick's label: 6 significant digits at most, no exponent, thousands grouped ("5,000", "0.001"). */
        static String label(double v) {
            return ReportFormat.grouped(plain(v));
        }

        static String plain(double v) {
            if (v == 0 || !Double.isFinite(v)) {
                return "0";
            }
            return BigDecimal.valueOf(v)
                    .round(new MathContext(6))
                    .stripTrailingZeros()
                    .toPlainString();
        }
    }
}
