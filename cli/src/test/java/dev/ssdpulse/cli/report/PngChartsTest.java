package dev.ssdpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PngChartsTest {
    /** The first series' colour (the dashboard's first run colour), READ's too. */
    private static final int SERIES_0_RGB = 0x2b6cb0;

    @TempDir
    Path dir;

    /** Pixels of the first series' colour in rows [fromRow, toRow). */
    private static int seriesPixels(BufferedImage image, int fromRow, int toRow) {
        int n = 0;
        for (int y = fromRow; y < toRow; y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += (image.getRGB(x, y) & 0xffffff) == SERIES_0_RGB ? 1 : 0;
            }
        }
        return n;
    }

    @Test
    void aValueMissingAsNaNIsAGapAndDoesNotBreakTheAxes() throws Exception {
        // WA per interval: an interval without host writes has no WA
        double[] t = {0, 1, 2, 3, 4, 5, 6, 7};
        double[] wa = {1.2, 1.9, Double.NaN, Double.NaN, 2.8, 3.1, 3.0, 3.2};
        Path file = dir.resolve("wa.png");
        PngCharts.lineChart(
                file,
                "run: write amplification",
                "run time (s)",
                "WA",
                List.of(new PngCharts.Series("WA per interval", t, wa)),
                List.of(),
                false);
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image.getWidth()).isEqualTo(1200);
        assertThat(image.getHeight()).isEqualTo(520);
        assertThat(seriesPixels(image, PngCharts.TOP, image.getHeight() - PngCharts.BOTTOM))
                .as("the line is drawn inside the plot")
                .isGreaterThan(100);
        assertThat(seriesPixels(image, 0, PngCharts.TOP))
                .as("nothing drawn above the plot (NaN axes)")
                .isZero();
    }

    @Test
    void aSeriesWithNoValueAtAllDrawsNoLine() throws Exception {
        Path file = dir.resolve("empty.png");
        PngCharts.lineChart(
                file,
                "no WA yet",
                "run time (s)",
                "WA",
                List.of(new PngCharts.Series(
                        "WA per interval", new double[] {0, 1, 2}, new double[] {Double.NaN, Double.NaN, Double.NaN})),
                List.of(),
                false);
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(seriesPixels(image, 0, image.getHeight() - PngCharts.BOTTOM)).isZero();
    }

    @Test
    void theScatterDrawsEveryOutlierAboveTheSampledCloud() throws Exception {
        // 500 s of WRITEs in a cloud at 0.1-2.1 ms, 40 a second, and three READ outliers far above it
        SplittableRandom random = new SplittableRandom(1);
        PngCharts.ScatterAxes axes = new PngCharts.ScatterAxes(500, 0.01, 1000);
        ScatterRaster raster = axes.raster();
        for (int second = 0; second < 500; second++) {
            List<Long> offsets = new ArrayList<>();
            List<Long> latencies = new ArrayList<>();
            List<Integer> ops = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                offsets.add(i * 25_000_000L);
                boolean outlier = i == 0 && (second == 25 || second == 225 || second == 425);
                latencies.add(outlier ? 150_000_000L : (long) ((0.1 + random.nextDouble() * 2) * 1e6));
                ops.add(outlier ? IoOp.READ.ordinal() : IoOp.WRITE.ordinal());
            }
            raster.add(LatencyScatter.newBuilder()
                    .setRunId("r")
                    .setWindowStartNs(second * 1_000_000_000L)
                    .setWindowSizeNs(1_000_000_000L)
                    .setThresholdNs(10_000_000L)
                    .setIoCount(40)
                    .setAtOrAboveThresholdCount(second % 200 == 25 ? 1 : 0)
                    .setKeptAtOrAboveThresholdCount(second % 200 == 25 ? 1 : 0)
                    .setCompletionOffsetsNs(offsets)
                    .setLatenciesNs(latencies)
                    .setOps(ops)
                    .build());
        }
        ScatterRaster.Picture picture = raster.finish();
        assertThat(picture.outliersDrawn()).isEqualTo(3);
        Path file = dir.resolve("scatter.png");
        PngCharts.scatterChart(file, "run: latency scatter", axes, raster, picture, List.of());
        BufferedImage image = ImageIO.read(file.toFile());
        // every READ pixel is an outlier square: 3 squares of 3x3, plus the legend box (12x12)
        assertThat(seriesPixels(image, PngCharts.TOP, image.getHeight() - PngCharts.BOTTOM))
                .isEqualTo(27);
        assertThat(seriesPixels(image, image.getHeight() - 30, image.getHeight()))
                .isEqualTo(144);
    }
}
