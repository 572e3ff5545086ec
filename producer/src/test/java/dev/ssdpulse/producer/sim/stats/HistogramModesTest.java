package dev.ssdpulse.producer.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramModesTest {
    private final HistogramModes finder = new HistogramModes(0.5, 0.001);

    @Test
    void oneHumpIsOneMode() {
        assertThat(finder.count(new long[] {0, 1, 5, 20, 50, 30, 10, 2, 0})).isEqualTo(1);
    }

    @Test
    void twoHumpsWithAValleyBelowHalfTheLowerPeakAreTwo() {
        var modes = finder.modes(new long[] {0, 10, 100, 10, 20, 40, 60, 20, 0});
        assertThat(modes).extracting(HistogramModes.Mode::bin).containsExactly(2, 6);
        assertThat(modes.get(1).saddle()).isEqualTo(10);
        assertThat(modes.get(0).saddle()).isZero(); // the highest peak
    }

    @Test
    void aShoulderOrAShallowDipIsNotAMode() {
        // the second hump only dips to 35 before its 60: above half of 60
        assertThat(finder.count(new long[] {0, 10, 100, 50, 35, 60, 20, 0})).isEqualTo(1);
        // a shoulder: no dip at all
        assertThat(finder.count(new long[] {0, 10, 100, 60, 60, 20, 0})).isEqualTo(1);
    }

    @Test
    void aSpikeBelowTheMinimumShareIsNoise() {
        long[] counts = new long[20];
        counts[5] = 100_000;
        counts[4] = counts[6] = 40_000;
        counts[15] = 50; // 50 of 180,050 samples: under 0.1 %
        assertThat(finder.count(counts)).isEqualTo(1);
        counts[15] = 500;
        assertThat(finder.count(counts)).isEqualTo(2);
    }

    @Test
    void aPlateauCountsOnce() {
        assertThat(finder.count(new long[] {0, 50, 50, 50, 0, 0, 30, 30, 0})).isEqualTo(2);
    }

    @Test
    void valleysAreFoundBetweenEveryPairOfPeaksNotOnlyNeighbours() {
        // three peaks; the middle one is lowest and its valley towards the left one is shallow, towards the right deep
        assertThat(finder.count(new long[] {100, 5, 80, 70, 60, 10, 90})).isEqualTo(3);
        assertThat(finder.count(new long[] {100, 70, 80, 5, 90})).isEqualTo(2); // 80's saddle towards 100 is 70
    }

    @Test
    void layersOfALogBinnedLatencyMixtureAreCounted() {
        // five layers at 50 us, 1.35 ms, 2.7 ms, 5.4 ms, 40 ms, each +-3 % jitter, in 20 bins per decade
        LogHistogram h = new LogHistogram(1_000, 8, 20);
        SplittableRandom random = new SplittableRandom(1);
        long[] centresNs = {50_000, 1_350_000, 2_700_000, 5_400_000, 40_000_000};
        int[] weights = {50, 25, 12, 8, 5};
        for (int layer = 0; layer < centresNs.length; layer++) {
            for (int i = 0; i < weights[layer] * 1000; i++) {
                h.add((long) (centresNs[layer] * (1 + 0.03 * (2 * random.nextDouble() - 1))));
            }
        }
        assertThat(finder.count(h.counts())).isEqualTo(5);
        // one lognormal hump of the same size is one mode
        LogHistogram smooth = new LogHistogram(1_000, 8, 20);
        for (int i = 0; i < 100_000; i++) {
            smooth.add((long) (1_000_000 * Math.exp(0.5 * random.nextGaussian())));
        }
        assertThat(finder.count(smooth.counts())).isEqualTo(1);
    }

    @Test
    void logBinsStepByATwentiethOfADecade() {
        LogHistogram h = new LogHistogram(1_000, 6, 20);
        assertThat(h.binOf(1_000)).isZero();
        assertThat(h.binOf(10_000)).isEqualTo(20);
        assertThat(h.binOf(9_999)).isEqualTo(19);
        assertThat(h.binOf(Long.MAX_VALUE)).isEqualTo(h.bins() - 1);
        assertThat(h.lowerEdgeNs(20)).isCloseTo(10_000, org.assertj.core.data.Offset.offset(1e-6));
    }
}
