package dev.ssdpulse.streams.report.chart;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * The latency scatter of a run as pixels: x the I/O's completion time (linear, from 0), y its latency (log), one
 * pixel per kept I/O in its op's colour, and every kept I/O at or above the run's scatter threshold as a square on
 * top, so that no outlier hides in the sampled cloud — the dashboard's drawing, done once on the JVM for the HTML
 * report and {@code report --png}. Where points pile up the pixel darkens with their number (log scale, eight
 * shades, the sample and the outliers each scaled to their own densest pixel): a garbage-collecting drive at
 * QD32 keeps thousands of outliers a second, which as squares alone would merge into one block and hide the
 * latency layers. A 5,000-s run keeps millions of points; as a picture they cost a few hundred KB (a 33-colour
 * PNG) where as vector marks they cost tens of MB and minutes of a browser's time.
 *
 * <p>Windows are added one by one as they are read ({@link #add}), so no run's points are ever all in memory; the
 * ranges must be known first (a run's duration and its summary's minimum and maximum latency; a point beyond them
 * is drawn on the edge). Alongside the picture it keeps the exact counts and the slowest I/Os themselves
 * ({@link Picture#slowest}), to be listed: a pixel's position is only as exact as the pixel.
 */
public final class ScatterRaster {
    private static final int OPS = IoOp.values().length;
    /** Shades of an op's colour, from the colour itself (one point) to 55 % darker (the densest pixel). */
    private static final int SHADES = 8;

    private static final double DARKEST = 0.55;

    private final int widthPx;
    private final int heightPx;
    private final double xMaxS;
    private final double logYMin;
    private final double logYSpan;
    private final int outlierSizePx;
    private final int slowestKept;
    /** Per pixel: sampled I/Os there and the op of the last; outliers likewise, drawn over the sample. */
    private final int[] sampleCounts;

    private final byte[] sampleOps;
    private final int[] outlierCounts;
    private final byte[] outlierOps;

    private final PriorityQueue<Point> slowest = new PriorityQueue<>(Comparator.comparingDouble(Point::latencyMs));
    private final boolean[] opsPresent = new boolean[OPS];
    private long pointsDrawn;
    private long outliersDrawn;
    private long ioCount;
    private long atOrAboveThreshold;
    private long keptAtOrAboveThreshold;
    private long thresholdNs = -1;

    /** One kept I/O: completion time (s since the run's start), latency (ms) and op. */
    public record Point(double timeS, double latencyMs, IoOp op) {}

    /**
     * The finished scatter.
     *
     * @param png                    the picture: widthPx x heightPx, transparent where no I/O fell
     * @param pointsDrawn            kept I/Os drawn (the sample and every kept outlier)
     * @param outliersDrawn          of those, at or above the threshold
     * @param ioCount                I/Os of the windows (all, drawn or not)
     * @param atOrAboveThreshold     I/Os at or above the threshold: all of them are drawn unless a window had more
     *                               than the sampler's cap ({@code keptAtOrAboveThreshold} is then smaller)
     * @param thresholdNs            the scatter threshold (-1: no window)
     * @param slowest                the slowest kept I/Os, slowest first
     * @param ops                    the ops that have points
     */
    public record Picture(
            byte[] png,
            int widthPx,
            int heightPx,
            double xMaxS,
            double yMinMs,
            double yMaxMs,
            long pointsDrawn,
            long outliersDrawn,
            long ioCount,
            long atOrAboveThreshold,
            long keptAtOrAboveThreshold,
            long thresholdNs,
            List<Point> slowest,
            List<IoOp> ops) {}

    /**
     * @param xMaxS         time at the right edge (the left one is 0)
     * @param yMinMs        latency at the bottom edge (> 0)
     * @param yMaxMs        latency at the top edge
     * @param outlierSizePx side of an outlier's square (>= 1)
     * @param slowestKept   how many of the slowest I/Os to keep for {@link Picture#slowest}
     */
    public ScatterRaster(
            int widthPx, int heightPx, double xMaxS, double yMinMs, double yMaxMs, int outlierSizePx, int slowestKept) {
        if (widthPx < 1 || heightPx < 1 || !(xMaxS > 0) || !(yMinMs > 0) || !(yMaxMs > yMinMs) || outlierSizePx < 1) {
            throw new IllegalArgumentException("bad scatter geometry: " + widthPx + "x" + heightPx + " px, 0.." + xMaxS
                    + " s, " + yMinMs + ".." + yMaxMs + " ms, outliers " + outlierSizePx + " px");
        }
        this.widthPx = widthPx;
        this.heightPx = heightPx;
        this.xMaxS = xMaxS;
        this.logYMin = Math.log10(yMinMs);
        this.logYSpan = Math.log10(yMaxMs) - logYMin;
        this.outlierSizePx = outlierSizePx;
        this.slowestKept = slowestKept;
        this.sampleCounts = new int[widthPx * heightPx];
        this.sampleOps = new byte[widthPx * heightPx];
        this.outlierCounts = new int[widthPx * heightPx];
        this.outlierOps = new byte[widthPx * heightPx];
    }

    /** Draws one stored window's kept I/Os. */
    public void add(LatencyScatter w) {
        ioCount += w.getIoCount();
        atOrAboveThreshold += w.getAtOrAboveThresholdCount();
        keptAtOrAboveThreshold += w.getKeptAtOrAboveThresholdCount();
        thresholdNs = w.getThresholdNs();
        List<Long> offsets = w.getCompletionOffsetsNs();
        List<Long> latencies = w.getLatenciesNs();
        List<Integer> ops = w.getOps();
        for (int i = 0; i < latencies.size(); i++) {
            long latencyNs = latencies.get(i);
            if (latencyNs <= 0) {
                continue;
            }
            int op = Math.floorMod(ops.get(i), OPS);
            double timeS = (w.getWindowStartNs() + offsets.get(i)) / 1e9;
            double latencyMs = latencyNs / 1e6;
            int x = clamp((int) (timeS / xMaxS * widthPx), widthPx);
            int y = clamp((int) ((1 - (Math.log10(latencyMs) - logYMin) / logYSpan) * heightPx), heightPx);
            opsPresent[op] = true;
            pointsDrawn++;
            if (latencyNs >= w.getThresholdNs()) {
                outliersDrawn++;
                square(x, y, (byte) op);
            } else {
                sampleCounts[y * widthPx + x]++;
                sampleOps[y * widthPx + x] = (byte) op;
            }
            if (slowestKept > 0
                    && (slowest.size() < slowestKept
                            || latencyMs > slowest.peek().latencyMs())) {
                slowest.add(new Point(timeS, latencyMs, IoOp.values()[op]));
                if (slowest.size() > slowestKept) {
                    slowest.poll();
                }
            }
        }
    }

    /** As the dashboard: a square from one pixel before the point. */
    private void square(int x, int y, byte op) {
        for (int dy = -1; dy < outlierSizePx - 1; dy++) {
            int yy = y + dy;
            if (yy < 0 || yy >= heightPx) {
                continue;
            }
            for (int dx = -1; dx < outlierSizePx - 1; dx++) {
                int xx = x + dx;
                if (xx >= 0 && xx < widthPx) {
                    outlierCounts[yy * widthPx + xx]++;
                    outlierOps[yy * widthPx + xx] = op;
                }
            }
        }
    }

    private static int clamp(int v, int size) {
        return Math.max(0, Math.min(size - 1, v));
    }

    /** The picture so far: transparent, or an op's colour in one of its shades. */
    public BufferedImage image() {
        byte[] r = new byte[1 + OPS * SHADES];
        byte[] g = new byte[r.length];
        byte[] b = new byte[r.length];
        for (int op = 0; op < OPS; op++) {
            int rgb = Palette.awt(Palette.op(op)).getRGB();
            for (int shade = 0; shade < SHADES; shade++) {
                double f = 1 - DARKEST * shade / (SHADES - 1);
                int index = 1 + op * SHADES + shade;
                r[index] = (byte) Math.round(((rgb >> 16) & 0xff) * f);
                g[index] = (byte) Math.round(((rgb >> 8) & 0xff) * f);
                b[index] = (byte) Math.round((rgb & 0xff) * f);
            }
        }
        IndexColorModel colours = new IndexColorModel(8, r.length, r, g, b, 0);
        BufferedImage image = new BufferedImage(widthPx, heightPx, BufferedImage.TYPE_BYTE_INDEXED, colours);
        WritableRaster raster = image.getRaster();
        double logMaxSample = Math.log(Math.max(2, max(sampleCounts)));
        double logMaxOutlier = Math.log(Math.max(2, max(outlierCounts)));
        for (int y = 0; y < heightPx; y++) {
            for (int x = 0; x < widthPx; x++) {
                int i = y * widthPx + x;
                int index = 0;
                if (outlierCounts[i] > 0) {
                    index = 1 + outlierOps[i] * SHADES + shade(outlierCounts[i], logMaxOutlier);
                } else if (sampleCounts[i] > 0) {
                    index = 1 + sampleOps[i] * SHADES + shade(sampleCounts[i], logMaxSample);
                }
                raster.setSample(x, y, 0, index);
            }
        }
        return image;
    }

    private static int shade(int count, double logMax) {
        return (int) Math.round((SHADES - 1) * Math.log(count) / logMax);
    }

    private static int max(int[] counts) {
        int max = 0;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        return max;
    }

    /** The finished scatter: the picture as a PNG (deflate at its strongest: the bytes go into a page). */
    public Picture finish() {
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageWriter writer = ImageIO.getImageWritersByFormatName("png").next();
        try (ImageOutputStream out = ImageIO.createImageOutputStream(png)) {
            writer.setOutput(out);
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(0f);
            writer.write(null, new IIOImage(image(), null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the scatter as PNG", e);
        } finally {
            writer.dispose();
        }
        List<Point> slow = new ArrayList<>(slowest);
        slow.sort(Comparator.comparingDouble(Point::latencyMs).reversed());
        List<IoOp> ops = new ArrayList<>();
        for (int op = 0; op < OPS; op++) {
            if (opsPresent[op]) {
                ops.add(IoOp.values()[op]);
            }
        }
        return new Picture(
                png.toByteArray(),
                widthPx,
                heightPx,
                xMaxS,
                Math.pow(10, logYMin),
                Math.pow(10, logYMin + logYSpan),
                pointsDrawn,
                outliersDrawn,
                ioCount,
                atOrAboveThreshold,
                keptAtOrAboveThreshold,
                thresholdNs,
                List.copyOf(slow),
                List.copyOf(ops));
    }
}
