package dev.ssdpulse.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PngChartsTest {
    private static final int SERIES_0_RGB = 0x1f77b4;

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
        int n = 20_000;
        double[] t = new double[n];
        double[] ms = new double[n];
        byte[] ops = new byte[n];
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            t[i] = i / 40.0;
            ms[i] = 0.1 + random.nextDouble() * 2;
            ops[i] = 1;
        }
        // three outliers of op READ (colour 0) far above the cloud of WRITEs
        for (int i : new int[] {1000, 9000, 17000}) {
            ms[i] = 150;
            ops[i] = 0;
        }
        Path file = dir.resolve("scatter.png");
        PngCharts.scatterChart(
                file,
                "run: latency scatter",
                t,
                ms,
                ops,
                List.of("READ", "WRITE", "TRIM", "FLUSH"),
                10,
                500,
                List.of());
        BufferedImage image = ImageIO.read(file.toFile());
        // every READ pixel is an outlier square: 3 squares of 3x3, plus the legend box (12x12)
        assertThat(seriesPixels(image, PngCharts.TOP, image.getHeight() - PngCharts.BOTTOM))
                .isEqualTo(27);
        assertThat(seriesPixels(image, image.getHeight() - 30, image.getHeight()))
                .isEqualTo(144);
    }
}
