package dev.ssdpulse.streams.report.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ScatterRasterTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /** A window of I/Os completing at {@code offsetsMs} with {@code latenciesMs}, all WRITE; threshold 10 ms. */
    private static LatencyScatter window(long startS, long[] offsetsMs, double[] latenciesMs) {
        List<Long> offsets = new ArrayList<>();
        List<Long> latencies = new ArrayList<>();
        List<Integer> ops = new ArrayList<>();
        int outliers = 0;
        for (int i = 0; i < offsetsMs.length; i++) {
            offsets.add(offsetsMs[i] * MS);
            latencies.add((long) (latenciesMs[i] * MS));
            ops.add(IoOp.WRITE.ordinal());
            outliers += latenciesMs[i] >= 10 ? 1 : 0;
        }
        return LatencyScatter.newBuilder()
                .setRunId("r")
                .setWindowStartNs(startS * S)
                .setWindowSizeNs(S)
                .setThresholdNs(10 * MS)
                .setIoCount(offsetsMs.length * 10L)
                .setAtOrAboveThresholdCount(outliers)
                .setKeptAtOrAboveThresholdCount(outliers)
                .setCompletionOffsetsNs(offsets)
                .setLatenciesNs(latencies)
                .setOps(ops)
                .build();
    }

    @Test
    void everyPointLandsOnItsPixelAndEveryOutlierOnTop() throws Exception {
        // 100 px for 0..100 s, 40 px for 0.01..100 ms (10 px a decade)
        ScatterRaster raster = new ScatterRaster(100, 40, 100, 0.01, 100, 3, 2);
        // a dense cloud at 1 ms over the whole run, and one outlier at 50 s, 20 ms in its middle
        long[] offsets = new long[1_000];
        double[] latencies = new double[offsets.length];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = i;
            latencies[i] = 1.0;
        }
        for (int s = 0; s < 100; s++) {
            raster.add(window(s, offsets, latencies));
        }
        raster.add(window(50, new long[] {500}, new double[] {20.0}));
        raster.add(window(70, new long[] {0}, new double[] {90.0}));
        ScatterRaster.Picture picture = raster.finish();
        assertThat(picture.pointsDrawn()).isEqualTo(100_002);
        assertThat(picture.outliersDrawn()).isEqualTo(2);
        assertThat(picture.atOrAboveThreshold()).isEqualTo(2);
        assertThat(picture.ioCount()).isEqualTo(100 * 10_000L + 20);
        assertThat(picture.thresholdNs()).isEqualTo(10 * MS);
        assertThat(picture.ops()).containsExactly(IoOp.WRITE);
        // the slowest, exact, slowest first
        assertThat(picture.slowest()).extracting(ScatterRaster.Point::latencyMs).containsExactly(90.0, 20.0);
        assertThat(picture.slowest().get(0).timeS()).isEqualTo(70.0);

        BufferedImage image = ImageIO.read(new ByteArrayInputStream(picture.png()));
        assertThat(image.getWidth()).isEqualTo(100);
        assertThat(image.getHeight()).isEqualTo(40);
        int write = Palette.awt(Palette.op("WRITE")).getRGB() & 0xffffff;
        // 1 ms: 2 decades above 0.01 ms, 10 px each from the bottom: row 40 - 20 = 20; every column has a point
        for (int x = 0; x < 100; x++) {
            assertThat(alpha(image, x, 20)).as("column %d", x).isEqualTo(255);
        }
        // the densest pixels darkest; the outlier at (50 s, 20 ms): row 40 - 33 = 6, a square around it, in the
        // op's own colour (its pixel's only point)
        assertThat(image.getRGB(50, 6) & 0xffffff).isEqualTo(write);
        assertThat(alpha(image, 49, 5)).isEqualTo(255);
        assertThat(alpha(image, 51, 7)).isEqualTo(255);
        // nothing where no I/O fell
        assertThat(alpha(image, 20, 30)).isZero();
    }

    private static int alpha(BufferedImage image, int x, int y) {
        return image.getRGB(x, y) >>> 24;
    }

    @Test
    void aPointBeyondTheRangeIsDrawnOnTheEdgeNotLost() {
        ScatterRaster raster = new ScatterRaster(10, 10, 10, 0.1, 10, 1, 0);
        raster.add(window(20, new long[] {0}, new double[] {500.0}));
        ScatterRaster.Picture picture = raster.finish();
        assertThat(picture.outliersDrawn()).isEqualTo(1);
        assertThat(picture.slowest()).isEmpty();
    }

    @Test
    void aGeometryWithoutRoomIsRefused() {
        assertThatThrownBy(() -> new ScatterRaster(0, 10, 1, 0.1, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScatterRaster(10, 10, 1, 1, 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
