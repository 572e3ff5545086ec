package dev.ssdpulse.streams.report.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MinMaxDecimationTest {
    private static double[] seconds(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        return x;
    }

    @Test
    void aOneSecondDropAndSpikeOfAFiveThousandSecondRunStay() {
        double[] x = seconds(5_000);
        double[] y = new double[x.length];
        Arrays.fill(y, 4_000);
        y[1_234] = 0; // a stall
        y[3_210] = 35_000; // a burst
        for (int i = 4_000; i < 5_000; i++) {
            y[i] = 270; // a cliff
        }
        MinMaxDecimation.Points p = MinMaxDecimation.decimate(x, y, 550);
        assertThat(p.size()).isLessThanOrEqualTo(2 * 550);
        assertThat(p.y()).contains(0.0, 35_000.0, 4_000.0, 270.0);
        // in x order, the drop at its own time
        for (int i = 1; i < p.size(); i++) {
            assertThat(p.x()[i]).isGreaterThan(p.x()[i - 1]);
        }
        int drop = Arrays.stream(p.y()).boxed().toList().indexOf(0.0);
        assertThat(p.x()[drop]).isEqualTo(1_234.0);
        // the cliff starts where it did, to the bucket (5,000 s / 550 buckets: 9.1 s)
        double firstLow = p.x()[Arrays.stream(p.y()).boxed().toList().indexOf(270.0)];
        assertThat(firstLow).isBetween(4_000.0, 4_010.0);
    }

    @Test
    void aShortSeriesIsDrawnAsItIs() {
        double[] x = seconds(600);
        double[] y = x.clone();
        MinMaxDecimation.Points p = MinMaxDecimation.decimate(x, y, 300);
        assertThat(p.x()).isSameAs(x);
        assertThat(p.y()).isSameAs(y);
    }

    @Test
    void aGapStaysAGap() {
        double[] x = seconds(5_000);
        double[] y = new double[x.length];
        Arrays.fill(y, 11.0);
        y[2_500] = Double.NaN; // an interval without host writes: no WA
        MinMaxDecimation.Points p = MinMaxDecimation.decimate(x, y, 100);
        assertThat(Arrays.stream(p.y()).filter(Double::isNaN).count()).isEqualTo(1);
        assertThat(p.size()).isLessThanOrEqualTo(3 * 100);
    }
}
