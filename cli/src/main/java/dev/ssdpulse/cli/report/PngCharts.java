package dev.ssdpulse.cli.report;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.chart.Palette;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Plain Java2D charts for {@code report --png}: time series (linear or log y) with phase markers, the latency
 * scatter and bar charts, in the dashboard's colours ({@link Palette}). Headless; no dependency beyond the JDK.
 */
public final class PngCharts {
    private static final int WIDTH = 1200;
    private static final int HEIGHT = 520;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    static final int TOP = 50;
    static final int BOTTOM = 60;

    private PngCharts() {}

    /** A line; {@code color} a CSS hex colour of {@link Palette}, null: the run palette's next. */
    public record Series(String name, double[] x, double[] y, String color) {
        public Series(String name, double[] x, double[] y) {
            this(name, x, y, null);
        }
    }

    /** A vertical marker on the x axis (phase start). */
    public record Marker(double x, String label) {}

    public static void lineChart(
            Path file,
            String title,
            String xLabel,
            String yLabel,
            List<Series> series,
            List<Marker> markers,
            boolean logY)
            throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image, title);
        double xMin = Double.MAX_VALUE;
        double xMax = -Double.MAX_VALUE;
        double yMin = Double.MAX_VALUE;
        double yMax = -Double.MAX_VALUE;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                xMin = Math.min(xMin, s.x()[i]);
                xMax = Math.max(xMax, s.x()[i]);
                if (Double.isFinite(s.y()[i]) && (!logY || s.y()[i] > 0)) {
                    yMin = Math.min(yMin, s.y()[i]);
                    yMax = Math.max(yMax, s.y()[i]);
                }
            }
        }
        if (xMin > xMax) {
            xMin = 0;
            xMax = 1;
        }
        if (yMin > yMax) {
            yMin = logY ? 1 : 0;
            yMax = logY ? 10 : 1;
        }
        if (!logY) {
            yMin = Math.min(0, yMin);
            yMax = yMax <= yMin ? yMin + 1 : yMax * 1.05;
        } else {
            yMin = Math.pow(10, Math.floor(Math.log10(yMin)));
            yMax = Math.pow(10, Math.ceil(Math.log10(yMax)));
            if (yMax <= yMin) {
                yMax = yMin * 10;
            }
        }
        if (xMax <= xMin) {
            xMax = xMin + 1;
        }
        Axes axes = new Axes(xMin, xMax, yMin, yMax, logY);
        axes.draw(g, xLabel, yLabel);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (Marker m : markers) {
            int px = axes.px(m.x());
            g.setColor(Palette.awt(Palette.PHASE));
            g.setStroke(
                    new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
            g.drawLine(px, TOP, px, HEIGHT - BOTTOM);
            g.setColor(Palette.awt(Palette.PHASE_TEXT));
            g.drawString(m.label(), px + 3, TOP + 12);
        }
        g.setStroke(new BasicStroke(1.5f));
        for (int s = 0; s < series.size(); s++) {
            Series ser = series.get(s);
            Color color = Palette.awt(ser.color() != null ? ser.color() : Palette.run(s));
            g.setColor(color);
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < ser.x().length; i++) {
                if (!Double.isFinite(ser.y()[i]) || (logY && ser.y()[i] <= 0)) {
                    // NaN marks "no value" (e.g. WA of an interval without host writes): a gap, not a zero
                    prevX = -1;
                    continue;
                }
                int px = axes.px(ser.x()[i]);
                int py = axes.py(ser.y()[i]);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, px, py);
                } else if (ser.x().length == 1) {
                    g.fillOval(px - 2, py - 2, 4, 4);
                }
                prevX = px;
                prevY = py;
            }
            g.setColor(color);
            g.fillRect(LEFT + 10 + s * 170, HEIGHT - 22, 12, 12);
            g.setColor(Color.DARK_GRAY);
            g.drawString(ser.name(), LEFT + 26 + s * 170, HEIGHT - 12);
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    /** The scatter's axes: x the run's time, y whole decades of latency around the run's and the threshold. */
    public record ScatterAxes(double endS, double yMinMs, double yMaxMs) {
        /** An empty picture of the plot area, one pixel per point, outliers 3x3. */
        public ScatterRaster raster() {
            return new ScatterRaster(WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, endS, yMinMs, yMaxMs, 3, 0);
        }
    }

    /** The axes of a run's scatter, from its summary (duration, minimum and maximum latency of every op). */
    public static ScatterAxes scatterAxes(RunSummary summary) {
        double lo = Outliers.THRESHOLDS_NS[0] / 1e6;
        double hi = lo;
        for (OpSummary op : summary.getOps()) {
            if (op.getIoCount() > 0) {
                lo = Math.min(lo, Math.max(1e-6, op.getLatency().getMinNs() / 1e6));
                hi = Math.max(hi, op.getLatency().getMaxNs() / 1e6);
            }
        }
        double yMin = Math.pow(10, Math.floor(Math.log10(lo)));
        double yMax = Math.pow(10, Math.ceil(Math.log10(hi)));
        double endS = summary.getDurationNs() / 1e9;
        return new ScatterAxes(endS > 0 ? endS : 1, yMin, yMax > yMin ? yMax : yMin * 10);
    }

    /**
     * The latency scatter: x run time (s), y latency (ms, log); the points are {@code raster}'s picture (the
     * dashboard's and the HTML report's drawing: a pixel per sampled I/O in its op's colour, every I/O at or above
     * the threshold a square on top, so none hides in the sampled cloud).
     */
    public static void scatterChart(
            Path file,
            String title,
            ScatterAxes scatterAxes,
            ScatterRaster raster,
            ScatterRaster.Picture picture,
            List<Marker> markers)
            throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image, title);
        Axes axes = new Axes(0, scatterAxes.endS(), scatterAxes.yMinMs(), scatterAxes.yMaxMs(), true);
        axes.draw(g, "run time (s)", "latency (ms, log)");
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (Marker m : markers) {
            int px = axes.px(m.x());
            g.setColor(Palette.awt(Palette.PHASE));
            g.setStroke(
                    new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 4f}, 0f));
            g.drawLine(px, TOP, px, HEIGHT - BOTTOM);
            g.setColor(Palette.awt(Palette.PHASE_TEXT));
            g.drawString(m.label(), px + 3, TOP + 12);
        }
        g.drawImage(raster.image(), LEFT, TOP, null);
        double thresholdMs = picture.thresholdNs() / 1e6;
        int ty = axes.py(thresholdMs);
        g.setColor(Palette.awt(Palette.THRESHOLD));
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 3f}, 0f));
        g.drawLine(LEFT, ty, WIDTH - RIGHT, ty);
        g.setColor(Palette.awt(Palette.THRESHOLD_TEXT));
        g.drawString(String.format(Locale.ROOT, ">= %s ms: every I/O", Axes.format(thresholdMs)), LEFT + 4, ty - 4);
        int slot = 0;
        for (IoOp op : picture.ops()) {
            g.setColor(Palette.awt(Palette.op(op.name())));
            g.fillRect(LEFT + 10 + slot * 120, HEIGHT - 22, 12, 12);
            g.setColor(Color.DARK_GRAY);
            g.drawString(op.name(), LEFT + 26 + slot * 120, HEIGHT - 12);
            slot++;
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    public static void barChart(
            Path file, String title, String yLabel, List<String> labels, long[] values, List<Integer> highlighted)
            throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image, title);
        long max = 1;
        for (long v : values) {
            max = Math.max(max, v);
        }
        double yMax = Math.pow(10, Math.ceil(Math.log10(max + 1)));
        Axes axes = new Axes(0, labels.size(), 0.5, yMax, true);
        axes.draw(g, "latency bin", yLabel);
        double w = (WIDTH - LEFT - RIGHT) / (double) labels.size();
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        for (int i = 0; i < labels.size(); i++) {
            int x = (int) (LEFT + i * w + 2);
            g.setColor(Palette.awt(highlighted.contains(i) ? Palette.OUTLIER : Palette.BAR));
            if (values[i] > 0) {
                int y = axes.py(values[i]);
                g.fillRect(x, y, (int) w - 4, HEIGHT - BOTTOM - y);
                g.setColor(Color.DARK_GRAY);
                g.drawString(String.format(Locale.ROOT, "%,d", values[i]), x, y - 3);
            }
            g.setColor(Color.DARK_GRAY);
            g.drawString(labels.get(i), x, HEIGHT - BOTTOM + 28 + (i % 2) * 11);
        }
        g.dispose();
        ImageIO.write(image, "png", file.toFile());
    }

    private static Graphics2D canvas(BufferedImage image, String title) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 28);
        return g;
    }

    private record Axes(double xMin, double xMax, double yMin, double yMax, boolean logY) {
        int px(double x) {
            return (int) Math.round(LEFT + (x - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT));
        }

        int py(double y) {
            double f = logY
                    ? (Math.log10(y) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))
                    : (y - yMin) / (yMax - yMin);
            return (int) Math.round(HEIGHT - BOTTOM - f * (HEIGHT - TOP - BOTTOM));
        }

        void draw(Graphics2D g, String xLabel, String yLabel) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            // Log axes get a line per decade; linear ones five even steps.
            int ticks = logY ? (int) Math.round(Math.log10(yMax) - Math.ceil(Math.log10(yMin))) : 5;
            for (int i = 0; i <= ticks; i++) {
                double y = logY ? Math.pow(10, Math.ceil(Math.log10(yMin)) + i) : yMin + i * (yMax - yMin) / ticks;
                int py = py(y);
                g.setColor(Palette.awt(Palette.GRID));
                g.drawLine(LEFT, py, WIDTH - RIGHT, py);
                g.setColor(Color.DARK_GRAY);
                g.drawString(format(y), 8, py + 4);
            }
            for (int i = 0; i <= 10; i++) {
                double x = xMin + i * (xMax - xMin) / 10;
                int px = px(x);
                g.setColor(Color.DARK_GRAY);
                g.drawLine(px, HEIGHT - BOTTOM, px, HEIGHT - BOTTOM + 4);
                if (!"latency bin".equals(xLabel)) {
                    g.drawString(format(x), px - 10, HEIGHT - BOTTOM + 16);
                }
            }
            g.setColor(Color.BLACK);
            g.drawLine(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM);
            g.drawLine(LEFT, TOP, LEFT, HEIGHT - BOTTOM);
            g.drawString(xLabel, WIDTH / 2, HEIGHT - BOTTOM + 40);
            g.drawString(yLabel, 8, TOP - 8);
        }

        private static String format(double v) {
            double a = Math.abs(v);
            if (a >= 1e6) {
                return String.format(Locale.ROOT, "%.1fM", v / 1e6);
            }
            if (a >= 1e3) {
                return String.format(Locale.ROOT, "%.1fk", v / 1e3);
            }
            if (a >= 1 || a == 0) {
                return String.format(Locale.ROOT, "%.0f", v);
            }
            return String.format(Locale.ROOT, "%.3g", v);
        }
    }
}
