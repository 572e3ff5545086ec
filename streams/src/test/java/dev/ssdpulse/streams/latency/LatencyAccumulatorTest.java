package dev.ssdpulse.streams.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.streams.codec.BinaryWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyAccumulatorTest {

    /** Log-normal-ish SSD latencies around 100 us with a tail into tens of ms. */
    static long[] latencies(int n, long seed) {
        Random random = new Random(seed);
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            double v = Math.exp(Math.log(100_000) + random.nextGaussian() * 0.8);
            if (random.nextInt(1000) == 0) {
                v *= 300;
            }
            values[i] = Math.max(1, (long) v);
        }
        return values;
    }

    static long exactNearestRank(long[] sorted, double percentile) {
        long rank = (long) Math.ceil(percentile / 100.0 * sorted.length - 1e-9);
        rank = Math.max(1, Math.min(rank, sorted.length));
        return sorted[(int) rank - 1];
    }

    @Test
    void exactStatisticsAndBins() {
        LatencyAccumulator acc = new LatencyAccumulator();
        long[] values = {10, 49_999, 50_000, 10_000_000, 30_000_000, 60_000_000, 12_000_000_000L};
        for (long v : values) {
            acc.record(v);
        }
        assertThat(acc.count()).isEqualTo(7);
        assertThat(acc.sumNs()).isEqualTo(Arrays.stream(values).sum());
        assertThat(acc.minNs()).isEqualTo(10);
        assertThat(acc.maxNs()).isEqualTo(12_000_000_000L);
        assertThat(acc.binCount(0)).isEqualTo(2);
        assertThat(acc.binCount(1)).isEqualTo(1);
        assertThat(acc.binCount(20)).isEqualTo(1);
        assertThat(acc.countAtOrAbove(10_000_000)).isEqualTo(4);
        assertThat(acc.countAtOrAbove(30_000_000)).isEqualTo(3);
        assertThat(acc.countAtOrAbove(50_000_000)).isEqualTo(2);
        assertThat(acc.countAtOrAbove(10_000_000_000L)).isEqualTo(1);
        assertThatThrownBy(() -> acc.countAtOrAbove(12_345)).hasMessageContaining("not a bin edge");
        assertThat(acc.percentileNs(100)).isEqualTo(12_000_000_000L);
        assertThat(acc.meanNs()).isEqualTo(Arrays.stream(values).sum() / 7.0);
    }

    @Test
    void emptyAccumulatorReportsZeros() {
        LatencyAccumulator acc = new LatencyAccumulator();
        assertThat(acc.minNs()).isZero();
        assertThat(acc.maxNs()).isZero();
        assertThat(acc.percentileNs(99)).isZero();
        assertThat(acc.encodeHistogramCompressed()).isEmpty();
        assertThat(LatencyAccumulator.decode(acc.encode())).isEqualTo(acc);
    }

    @Test
    void percentilesWithinOneThousandthOfExactNearestRank() {
        long[] values = latencies(200_000, 42);
        LatencyAccumulator acc = new LatencyAccumulator();
        for (long v : values) {
            acc.record(v);
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double p : new double[] {0, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999, 100}) {
            long exact = exactNearestRank(sorted, p);
            long estimate = acc.percentileNs(p);
            assertThat(estimate).as("p%s", p).isGreaterThanOrEqualTo(exact);
            assertThat((double) (estimate - exact) / exact)
                    .as("relative error at p%s", p)
                    .isLessThanOrEqualTo(0.001);
        }
    }

    @Test
    void ceilRankIsUsedNotRoundedRank() {
        LatencyAccumulator acc = new LatencyAccumulator();
        // 3 values: p50 -> rank ceil(1.5) = 2 -> 2000 (HdrHistogram's rounded rank 2 as well); p34 -> ceil(1.02) = 2
        acc.record(1000);
        acc.record(2000);
        acc.record(3000);
        assertThat(acc.percentileNs(34)).isEqualTo(2000);
        assertThat(acc.percentileNs(33)).isEqualTo(1000);
        assertThat(acc.percentileNs(0)).isEqualTo(1000);
        assertThatThrownBy(() -> acc.percentileNs(100.5)).hasMessageContaining("0..100");
    }

    @Test
    void valuesAboveOneHourAreExactInMaxAndBinsAndClampedInHistogram() {
        LatencyAccumulator acc = new LatencyAccumulator();
        long twoHours = 7_200_000_000_000L;
        acc.record(twoHours);
        acc.record(1000);
        assertThat(acc.maxNs()).isEqualTo(twoHours);
        assertThat(acc.binCount(20)).isEqualTo(1);
        assertThat(acc.percentileNs(100)).isEqualTo(twoHours);
        assertThat(LatencyAccumulator.decode(acc.encode()).maxNs()).isEqualTo(twoHours);
        assertThat(LatencyAccumulator.decode(acc.encode())).isEqualTo(acc);
    }

    @Test
    void mergeEqualsRecordingEverythingInOne() {
        long[] values = latencies(50_000, 3);
        LatencyAccumulator all = new LatencyAccumulator();
        LatencyAccumulator a = new LatencyAccumulator();
        LatencyAccumulator b = new LatencyAccumulator();
        for (int i = 0; i < values.length; i++) {
            all.record(values[i]);
            (i % 3 == 0 ? a : b).record(values[i]);
        }
        a.merge(b);
        assertThat(a).isEqualTo(all);
        assertThat(a.hashCode()).isEqualTo(all.hashCode());
        assertThat(a.encode()).isEqualTo(all.encode());
        assertThat(a.percentileNs(99.9)).isEqualTo(all.percentileNs(99.9));
    }

    @Test
    void mergeRejectsDifferentBins() {
        LatencyAccumulator a = new LatencyAccumulator();
        LatencyAccumulator b = new LatencyAccumulator(LatencyBins.of(1000, 2000));
        b.record(5);
        assertThatThrownBy(() -> a.merge(b)).hasMessageContaining("different bins");
    }

    @Test
    void encodingIsIndependentOfRecordingOrder() {
        long[] values = latencies(20_000, 11);
        List<Long> shuffled = new ArrayList<>();
        for (long v : values) {
            shuffled.add(v);
        }
        Collections.shuffle(shuffled, new Random(5));
        LatencyAccumulator inOrder = new LatencyAccumulator();
        LatencyAccumulator reordered = new LatencyAccumulator();
        for (long v : values) {
            inOrder.record(v);
        }
        for (long v : shuffled) {
            reordered.record(v);
        }
        assertThat(reordered).isEqualTo(inOrder);
        assertThat(reordered.encode()).isEqualTo(inOrder.encode());
        assertThat(uncompressed(reordered)).isEqualTo(uncompressed(inOrder));
    }

    @Test
    void encodeDecodeRoundTripsBothFormatsAndCustomBins() {
        LatencyAccumulator acc = new LatencyAccumulator(LatencyBins.parse("1us,10us,100us"));
        for (long v : latencies(10_000, 9)) {
            acc.record(v);
        }
        LatencyAccumulator compressed = LatencyAccumulator.decode(acc.encode());
        LatencyAccumulator plain = LatencyAccumulator.decode(uncompressed(acc));
        assertThat(compressed).isEqualTo(acc);
        assertThat(plain).isEqualTo(acc);
        assertThat(compressed.bins()).isEqualTo(acc.bins());
        assertThat(compressed.percentileNs(99)).isEqualTo(acc.percentileNs(99));
        compressed.record(5);
        assertThat(compressed).isNotEqualTo(acc);
    }

    @Test
    void decodeRejectsCorruptInput() {
        LatencyAccumulator acc = new LatencyAccumulator();
        acc.record(100);
        byte[] bytes = acc.encode();
        assertThatThrownBy(() -> LatencyAccumulator.decode(Arrays.copyOf(bytes, bytes.length - 3)))
                .hasMessageContaining("truncated");
        byte[] wrongVersion = bytes.clone();
        wrongVersion[0] = 9;
        assertThatThrownBy(() -> LatencyAccumulator.decode(wrongVersion)).hasMessageContaining("version 9");
    }

    @Test
    void rejectsNegativeLatency() {
        assertThatThrownBy(() -> new LatencyAccumulator().record(-1)).hasMessageContaining("latencyNs");
    }

    @Test
    void reportsTypicalEncodedSizes() {
        // A 1-s window of a QD32 4 KiB random workload: ~50k I/Os around 100-600 us with a thin tail.
        LatencyAccumulator window = new LatencyAccumulator();
        for (long v : latencies(50_000, 1)) {
            window.record(v);
        }
        int compressed = window.encode().length;
        int plain = uncompressed(window).length;
        System.out.printf(
                "typical 1-s window (50k I/Os): encoded %d B compressed, %d B uncompressed%n", compressed, plain);
        assertThat(compressed).isLessThan(plain);
        assertThat(compressed).isLessThan(8_192);
    }

    @Test
    void onePassPercentilesEqualSingleCalls() {
        LatencyAccumulator acc = new LatencyAccumulator();
        for (long v : latencies(30_000, 21)) {
            acc.record(v);
        }
        double[] ps = {99.9999, 50, 0, 100, 90, 99.9, 12.5};
        long[] together = acc.percentilesNs(ps);
        for (int i = 0; i < ps.length; i++) {
            assertThat(together[i]).as("p%s", ps[i]).isEqualTo(acc.percentileNs(ps[i]));
        }
        assertThat(new LatencyAccumulator().percentilesNs(50, 99)).containsExactly(0, 0);
        assertThatThrownBy(() -> acc.percentilesNs(50, -1)).hasMessageContaining("0..100");
    }

    /** The hot-store form (histogram without Deflate), as the window aggregator writes it. */
    private static byte[] uncompressed(LatencyAccumulator acc) {
        BinaryWriter out = new BinaryWriter(1024);
        acc.encodeInto(out, false);
        return out.toByteArray();
    }
}
