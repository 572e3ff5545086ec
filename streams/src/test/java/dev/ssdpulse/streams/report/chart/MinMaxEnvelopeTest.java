package dev.ssdpulse.streams.report.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class MinMaxEnvelopeTest {
    private static double[] seconds(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        return x;
    }

    private static int bucketOf(MinMaxEnvelope.Buckets b, double x) {
        int best = 0;
        for (int i = 0; i < b.size(); i++) {
            best = Math.abs(b.x()[i] - x) < Math.abs(b.x()[best] - x) ? i : best;
        }
        return best;
    }

    @Test
    void aOneSecondDropAndSpikeOfAFiveThousandSecondRunStayInTheBand() {
        double[] x = seconds(5_000);
        double[] y = new double[x.length];
        Arrays.fill(y, 4_000);
        y[1_234] = 0; // a stall
        y[3_210] = 35_000; // a burst
        for (int i = 4_000; i < 5_000; i++) {
            y[i] = 270; // a cliff
        }
        MinMaxEnvelope.Buckets b = MinMaxEnvelope.of(x, y, 500);
        assertThat(b.size()).isEqualTo(500);
        int stall = bucketOf(b, 1_234);
        assertThat(b.min()[stall]).isZero();
        assertThat(b.max()[stall]).isEqualTo(4_000);
        // the mean of 10 one-second windows: the bucket's rate
        assertThat(b.mean()[stall]).isCloseTo(3_600, within(1e-9));
        assertThat(b.max()[bucketOf(b, 3_210)]).isEqualTo(35_000);
        // the cliff where it was, to the bucket (10 s)
        int cliff = bucketOf(b, 4_000);
        assertThat(b.x()[cliff]).isBetween(3_995.0, 4_010.0);
        assertThat(b.mean()[cliff + 1]).isEqualTo(270);
        assertThat(b.mean()[cliff - 1]).isEqualTo(4_000);
        for (int i = 1; i < b.size(); i++) {
            assertThat(b.x()[i]).isGreaterThan(b.x()[i - 1]);
        }
    }

    @Test
    void aBucketWithoutAValueIsAGap() {
        double[] x = seconds(1_000);
        double[] y = new double[x.length];
        Arrays.fill(y, 11.0);
        for (int i = 500; i < 520; i++) {
            y[i] = Double.NaN; // intervals without host writes: no WA
        }
        y[700] = Double.NaN; // one missing value among its bucket's: no gap
        MinMaxEnvelope.Buckets b = MinMaxEnvelope.of(x, y, 100);
        assertThat(Arrays.stream(b.mean()).filter(Double::isNaN).count()).isEqualTo(2);
        assertThat(b.mean()[70]).isEqualTo(11.0);
    }

    @Test
    void aShortSeriesKeepsEveryPoint() {
        MinMaxEnvelope.Buckets b = MinMaxEnvelope.of(new double[] {0, 1, 2}, new double[] {5, 6, 7}, 550);
        assertThat(b.x()).containsExactly(0, 1, 2);
        assertThat(b.mean()).containsExactly(5, 6, 7);
        assertThat(b.min()).isEqualTo(b.max());
    }
}
