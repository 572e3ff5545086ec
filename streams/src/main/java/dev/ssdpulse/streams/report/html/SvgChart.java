package dev.ssdpulse.streams.report.html;

import static dev.ssdpulse.streams.report.Table.escapeHtml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Charts as inline SVG for the self-contained HTML report: no script, no font or library to fetch, the same
 * bytes for the same data. Each chart's root carries {@code data-points}, the number of data points drawn, so a
 * test (or a reader's script) can tell a drawn chart from an empty frame. Coordinates are rounded to 0.1 px:
 * finer than a screen shows, and what keeps a 5,000-point series small.
 */
public final class SvgChart {
    static final int WIDTH = 960;
    static final int HEIGHT = 300;
    private static final int LEFT = 72;
    private static final int RIGHT = 16;
    private static final int TOP = 28;
    private static final int BOTTOM = 44;
    private static final String[] PALETTE = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"
    };

    private SvgChart() {}

    /** One line (or point set): x and y of equal length; a NaN y is a gap. Null colour: the palette's next. */
    public record Series(String name, double[] x, double[] y, String color) {
        public Series {
            if (x.length != y.length) {
                throw new IllegalArgumentException("series '" + name + "': " + x.length + " x but " + y.length + " y");
            }
        }
    }

    /** A vertical line at x with a label (a phase start). */
    public record Marker(double x, String label) {}

    /** A shaded x range with a label (a steady-state window). */
    public record Band(double fromX, double toX, String label) {}

    /** The conventional colour of an I/O direction, so every chart of a report agrees. */
    public static String opColor(String op) {
        return switch (op) {
            case "READ" -> PALETTE[0];
            case "WRITE" -> PALETTE[1];
            case "TRIM" -> PALETTE[2];
            default -> PALETTE[3];
        };
    }

    /** Lines through the points of each series; {@code logY} for latencies. */
    public static String lines(
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Marker> markers,
            List<Band> bands,
            boolean logY) {
        return plot(title, xLabel, yLabel, series, markers, bands, logY, false);
    }

    /** Points only (a scatter), each series one path of dots. */
    public static String points(
            String title, String xLabel, String yLabel, List<Series> series, List<Marker> markers, boolean logY) {
        return plot(title, xLabel, yLabel, series, markers, List.of(), logY, true);
    }

    private static String plot(
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Marker> markers,
            List<Band> bands,
            boolean logY,
            boolean dots) {
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
        Axis x = Axis.linear(xMin, xMax, false);
        Axis y = logY ? Axis.log(yMin, yMax) : Axis.linear(yMin, yMax, true);
        StringBuilder b = new StringBuilder(4096);
        int drawn = 0;
        StringBuilder body = new StringBuilder();
        for (Band band : bands) {
            double x0 = x.px(Math.max(band.fromX(), x.min()), LEFT, WIDTH - RIGHT);
            double x1 = x.px(Math.min(band.toX(), x.max()), LEFT, WIDTH - RIGHT);
            if (x1 > x0) {
                body.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
                                + "height=\"%d\" fill=\"#2ca02c\" fill-opacity=\"0.12\"><title>%s</title></rect>%n",
                        x0,
                        TOP,
                        x1 - x0,
                        HEIGHT - TOP - BOTTOM,
                        escapeHtml(band.label())));
            }
        }
        int colour = 0;
        List<String> legend = new ArrayList<>();
        for (Series s : series) {
            String color = s.color() != null ? s.color() : PALETTE[colour++ % PALETTE.length];
            StringBuilder d = new StringBuilder(s.x().length * 14);
            boolean pen = false;
            int count = 0;
            for (int i = 0; i < s.x().length; i++) {
                double v = s.y()[i];
                if (!Double.isFinite(v) || !Double.isFinite(s.x()[i]) || (logY && v <= 0)) {
                    pen = false;
                    continue;
                }
                double px = x.px(s.x()[i], LEFT, WIDTH - RIGHT);
                double py = y.px(v, HEIGHT - BOTTOM, TOP);
                if (dots) {
                    d.append(String.format(Locale.ROOT, "M%.1f %.1fh0", px, py));
                } else {
                    d.append(String.format(Locale.ROOT, pen ? "L%.1f %.1f" : "M%.1f %.1f", px, py));
                    pen = true;
                }
                count++;
            }
            drawn += count;
            if (count > 0) {
                body.append(
                                dots
                                        ? "<path class=\"series\" fill=\"none\" stroke-linecap=\"round\" "
                                                + "stroke-width=\"2.5\" stroke=\""
                                        : "<path class=\"series\" fill=\"none\" stroke-width=\"1.2\" stroke=\"")
                        .append(color)
                        .append("\" d=\"")
                        .append(d)
                        .append("\"><title>")
                        .append(escapeHtml(s.name()))
                        .append("</title></path>\n");
            }
            legend.add(color + "\u0000" + s.name());
        }
        for (Marker m : markers) {
            if (m.x() < x.min() || m.x() > x.max()) {
                continue;
            }
            double px = x.px(m.x(), LEFT, WIDTH - RIGHT);
            body.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#999\" "
                            + "stroke-dasharray=\"3 3\"/><text x=\"%.1f\" y=\"%d\" class=\"marker\">%s</text>%n",
                    px,
                    px,
                    TOP,
                    HEIGHT - BOTTOM,
                    px + 3,
                    TOP + 10,
                    escapeHtml(m.label())));
        }
        open(b, title, drawn);
        if (drawn == 0) {
            b.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" class=\"empty\">no data</text>%n",
                    WIDTH / 2 - 30,
                    HEIGHT / 2));
        } else {
            axes(b, x, y, xLabel, yLabel);
            b.append(body);
            int lx = LEFT + 8;
            for (String entry : legend) {
                String[] parts = entry.split("\u0000", 2);
                b.append(String.format(
                        Locale.ROOT,
                        "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                                + "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>%n",
                        lx,
                        HEIGHT - 14,
                        parts[0],
                        lx + 14,
                        HEIGHT - 5,
                        escapeHtml(parts[1])));
                lx += 24 + 7 * parts[1].length();
            }
        }
        return b.append("</svg>\n").toString();
    }

    /** Bars of counts over labelled categories, log scale (counts span decades); {@code highlight}ed bars red. */
    public static String bars(
            String title, String yLabel, List<String> labels, long[] values, List<Integer> highlight) {
        long max = 1;
        for (long v : values) {
            max = Math.max(max, v);
        }
        Axis y = Axis.log(1, max);
        StringBuilder b = new StringBuilder(2048);
        int n = values.length;
        int drawn = 0;
        StringBuilder body = new StringBuilder();
        double slot = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, n);
        for (int i = 0; i < n; i++) {
            double x0 = LEFT + i * slot + slot * 0.15;
            if (values[i] > 0) {
                double top = y.px(values[i], HEIGHT - BOTTOM, TOP);
                body.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                                + "height=\"%.1f\" fill=\"%s\"><title>%s: %d</title></rect>%n",
                        x0,
                        top,
                        slot * 0.7,
                        HEIGHT - BOTTOM - top,
                        highlight.contains(i) ? PALETTE[1] : PALETTE[0],
                        escapeHtml(labels.get(i)),
                        values[i]));
                drawn++;
            }
            body.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" class=\"tick\" " + "text-anchor=\"middle\">%s</text>%n",
                    x0 + slot * 0.35,
                    HEIGHT - BOTTOM + 14,
                    escapeHtml(labels.get(i))));
        }
        open(b, title, drawn);
        yAxis(b, y, yLabel);
        return b.append(body).append("</svg>\n").toString();
    }

    /** The root element, with the number of data points drawn, and the chart's title. */
    private static void open(StringBuilder b, String title, int drawn) {
        b.append(String.format(
                Locale.ROOT,
                "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
                        + "viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" data-points=\"%d\" role=\"img\">%n",
                WIDTH,
                HEIGHT,
                WIDTH,
                HEIGHT,
                drawn));
        b.append("<title>").append(escapeHtml(title)).append("</title>\n");
        b.append(String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"18\" class=\"title\">%s</text>%n", LEFT, escapeHtml(title)));
    }

    private static void axes(StringBuilder b, Axis x, Axis y, String xLabel, String yLabel) {
        yAxis(b, y, yLabel);
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n",
                LEFT,
                WIDTH - RIGHT,
                HEIGHT - BOTTOM,
                HEIGHT - BOTTOM));
        for (double t : x.ticks()) {
            double px = x.px(t, LEFT, WIDTH - RIGHT);
            b.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s" + "</text>%n",
                    px,
                    HEIGHT - BOTTOM + 14,
                    Axis.label(t)));
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"end\">%s</text>%n",
                WIDTH - RIGHT,
                HEIGHT - BOTTOM + 28,
                escapeHtml(xLabel)));
    }

    private static void yAxis(StringBuilder b, Axis y, String yLabel) {
        b.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#444\"/>%n",
                LEFT,
                LEFT,
                TOP,
                HEIGHT - BOTTOM));
        for (double t : y.ticks()) {
            double py = y.px(t, HEIGHT - BOTTOM, TOP);
            b.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                            + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n",
                    LEFT,
                    WIDTH - RIGHT,
                    py,
                    py,
                    LEFT - 4,
                    py + 4,
                    Axis.label(t)));
        }
        b.append(String.format(
                Locale.ROOT,
                "<text x=\"12\" y=\"%d\" class=\"axis\" transform=\"rotate(-90 12 %d)\" "
                        + "text-anchor=\"middle\">%s</text>%n",
                (TOP + HEIGHT - BOTTOM) / 2,
                (TOP + HEIGHT - BOTTOM) / 2,
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
                for (double v = min; v <= max + step * 1e-9; v += step) {
                    t.add(Math.abs(v) < step * 1e-9 ? 0 : v);
                }
            }
            return t;
        }

        static String label(double v) {
            if (v != 0 && (Math.abs(v) >= 1e6 || Math.abs(v) < 1e-3)) {
                return String.format(Locale.ROOT, "%.0e", v);
            }
            String s = String.format(Locale.ROOT, "%.3f", v);
            return s.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
    }
}
