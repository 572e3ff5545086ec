package dev.ssdpulse.streams.latency;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Latency of a set of I/Os: exact count, sum, min, max and fixed-bin counts, plus an HdrHistogram
 * (1 ns .. 1 h, 3 significant digits) for percentiles. Not thread-safe; one instance per window / op / phase.
 *
 * <p><b>Sum overflow bound.</b> The exact sum is a {@code long}: it overflows only after 9.2e18 ns of
 * summed latency, i.e. 292 years of summed service time (e.g. 1e12 I/Os at 9.2 ms each). A 5,000-s QD32
 * run sums at most 5,000 s x 32 = 1.6e14 ns. {@link #record} and {@link #merge} use exact arithmetic and
 * throw instead of wrapping.
 *
 * <p><b>Histogram range.</b> Values above 1 h (3.6e12 ns) are clamped to 1 h in the histogram only; count,
 * sum, min, max and bins stay exact, and percentiles are clamped to the exact [min, max], so a percentile
 * above 1 h reads as 1 h unless it is the maximum itself.
 *
 * <p><b>Memory.</b> The histogram starts covering 1 ns .. 4095 ns (a few KB) and grows by powers of two
 * as larger values arrive, up to 1 h. The covered range is a function of the maximum recorded value only
 * (never of arrival order), so the encoded bytes of two accumulators with the same values are identical.
 * A fixed 1 ns .. 1 h long-count histogram would cost ~256 KB per instance.
 */
public final class LatencyAccumulator {
    /** Highest value the histogram tracks: 1 h in ns. */
    public static final long HISTOGRAM_MAX_NS = 3_600_000_000_000L;
    /** HdrHistogram precision; relative error of a percentile <= 1/1024 (< 0.1 %). */
    public static final int SIGNIFICANT_DIGITS = 3;

    private static final long INITIAL_HIGHEST_NS = (1L << 12) - 1;

    static final int FORMAT_VERSION = 1;
    static final int FLAG_CUSTOM_BINS = 1;
    static final int FLAG_COMPRESSED = 2;

    private final LatencyBins bins;
    private final long[] binCounts;
    private long count;
    private long sumNs;
    private long minNs = Long.MAX_VALUE;
    private long maxNs = Long.MIN_VALUE;
    private Histogram histogram;

    public LatencyAccumulator() {
        this(LatencyBins.iometer());
    }

    public LatencyAccumulator(LatencyBins bins) {
        this.bins = bins;
        this.binCounts = new long[bins.binCount()];
        this.histogram = new Histogram(1, INITIAL_HIGHEST_NS, SIGNIFICANT_DIGITS);
    }

    /** Records one latency. @throws IllegalArgumentException when negative */
    public void record(long latencyNs) {
        if (latencyNs < 0) {
            throw new IllegalArgumentException("latencyNs must be >= 0, was " + latencyNs);
        }
        count++;
        sumNs = Math.addExact(sumNs, latencyNs);
        if (latencyNs < minNs) {
            minNs = latencyNs;
        }
        if (latencyNs > maxNs) {
            maxNs = latencyNs;
        }
        binCounts[bins.binIndex(latencyNs)]++;
        long clamped = Math.min(latencyNs, HISTOGRAM_MAX_NS);
        if (clamped > histogram.getHighestTrackableValue()) {
            growTo(clamped);
        }
        histogram.recordValue(clamped);
    }

    /** Adds another accumulator's I/Os. @throws IllegalArgumentException when the bins differ */
    public void merge(LatencyAccumulator other) {
        if (!bins.equals(other.bins)) {
            throw new IllegalArgumentException(
                    "cannot merge latency accumulators with different bins: " + bins + " vs " + other.bins);
        }
        if (other.count == 0) {
            return;
        }
        count = Math.addExact(count, other.count);
        sumNs = Math.addExact(sumNs, other.sumNs);
        minNs = Math.min(minNs, other.minNs);
        maxNs = Math.max(maxNs, other.maxNs);
        for (int i = 0; i < binCounts.length; i++) {
            binCounts[i] += other.binCounts[i];
        }
        long otherMax = other.histogram.getMaxValue();
        if (otherMax > histogram.getHighestTrackableValue()) {
            growTo(otherMax);
        }
        histogram.add(other.histogram);
    }

    /**
     * Replaces the histogram by one covering {@code value}. The new range is the smallest 2^k - 1 >= value
     * (capped at 1 h), a function of the value alone, which keeps encodings independent of arrival order.
     */
    private void growTo(long value) {
        long highest = Math.min(HISTOGRAM_MAX_NS, (Long.highestOneBit(value) << 1) - 1);
        Histogram bigger = new Histogram(1, Math.max(highest, INITIAL_HIGHEST_NS), SIGNIFICANT_DIGITS);
        bigger.add(histogram);
        histogram = bigger;
    }

    public LatencyBins bins() {
        return bins;
    }

    public long count() {
        return count;
    }

    public long sumNs() {
        return sumNs;
    }

    /** Exact minimum, 0 when empty. */
    public long minNs() {
        return count == 0 ? 0 : minNs;
    }

    /** Exact maximum, 0 when empty. */
    public long maxNs() {
        return count == 0 ? 0 : maxNs;
    }

    /** Mean latency in ns, 0 when empty. */
    public double meanNs() {
        return count == 0 ? 0.0 : (double) sumNs / count;
    }

    /** Exact count of bin {@code index} (see {@link LatencyBins#binIndex}). */
    public long binCount(int index) {
        return binCounts[index];
    }

    public long[] binCounts() {
        return binCounts.clone();
    }

    /** Exact number of I/Os with latency >= {@code thresholdNs}; the threshold must be one of the edges. */
    public long countAtOrAbove(long thresholdNs) {
        long[] edges = bins.upperBoundsNs();
        int edge = Arrays.binarySearch(edges, thresholdNs);
        if (edge < 0) {
            throw new IllegalArgumentException(
                    thresholdNs + " ns is not a bin edge of " + bins + "; exact counts exist only at edges");
        }
        long total = 0;
        for (int i = edge + 1; i < binCounts.length; i++) {
            total += binCounts[i];
        }
        return total;
    }

    /**
     * Latency at a percentile (0..100) by nearest rank: the value of the ceil(p/100 x count)-th smallest
     * I/O (rank at least 1). The histogram returns the highest value equivalent to that I/O's bucket,
     * clamped to the exact [min, max]; so the result r and the exact nearest-rank value v satisfy
     * v <= r <= v x (1 + 1/1024), i.e. relative error < 0.1 % (values <= 1 h). p = 100 gives the exact max.
     * Note: HdrHistogram's own getValueAtPercentile rounds the rank to nearest instead of ceil, which can
     * pick the neighbouring I/O; the ceil rank is the textbook nearest-rank definition fio logs are compared with.
     *
     * @return 0 when empty
     */
    public long percentileNs(double percentile) {
        return percentilesNs(percentile)[0];
    }

    /**
     * Several percentiles in one pass over the histogram, same semantics as {@link #percentileNs}; results in
     * the order asked.
     */
    public long[] percentilesNs(double... percentiles) {
        long[] result = new long[percentiles.length];
        if (count == 0) {
            for (double p : percentiles) {
                checkPercentile(p);
            }
            return result;
        }
        long[] ranks = new long[percentiles.length];
        Integer[] order = new Integer[percentiles.length];
        for (int i = 0; i < percentiles.length; i++) {
            ranks[i] = rankOf(percentiles[i]);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(ranks[a], ranks[b]));
        int next = 0;
        long seen = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            while (next < order.length && ranks[order[next]] <= seen) {
                int at = order[next++];
                result[at] = ranks[at] == count
                        ? maxNs
                        : Math.max(minNs, Math.min(maxNs, histogram.highestEquivalentValue(v.getValueIteratedTo())));
            }
        }
        while (next < order.length) {
            result[order[next++]] = maxNs;
        }
        return result;
    }

    private static void checkPercentile(double percentile) {
        if (!(percentile >= 0.0 && percentile <= 100.0)) {
            throw new IllegalArgumentException("percentile must be within 0..100, was " + percentile);
        }
    }

    private long rankOf(double percentile) {
        checkPercentile(percentile);
        long rank = BigDecimal.valueOf(percentile)
                .multiply(BigDecimal.valueOf(count))
                .divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING)
                .longValueExact();
        return Math.max(1, Math.min(rank, count));
    }

    /** Only the HdrHistogram's compressed encoding (the LatencyStats.hdrHistogram field); empty when count is 0. */
    public byte[] encodeHistogramCompressed() {
        if (count == 0) {
            return new byte[0];
        }
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Arrays.copyOf(buffer.array(), length);
    }

    /** Full exact state, histogram Deflate-compressed: for storage and output (smallest). */
    public byte[] encode() {
        BinaryWriter out = new BinaryWriter(256);
        encodeInto(out, true);
        return out.toByteArray();
    }

    /**
     * Layout: version byte, flags byte, [edge count + edges when bins are not IOMeter's], count, sum, min, max,
     * bin counts (varints), histogram block (HdrHistogram's own encoding, empty when count is 0).
     */
    public void encodeInto(BinaryWriter out, boolean compressHistogram) {
        int flags = (bins.isIometer() ? 0 : FLAG_CUSTOM_BINS) | (compressHistogram ? FLAG_COMPRESSED : 0);
        out.writeByte(FORMAT_VERSION).writeByte(flags);
        if (!bins.isIometer()) {
            out.writeUnsignedVarLong(bins.edgeCount());
            for (int i = 0; i < bins.edgeCount(); i++) {
                out.writeUnsignedVarLong(bins.upperBoundNs(i));
            }
        }
        out.writeUnsignedVarLong(count)
                .writeUnsignedVarLong(sumNs)
                .writeUnsignedVarLong(minNs())
                .writeUnsignedVarLong(maxNs());
        for (long binCount : binCounts) {
            out.writeUnsignedVarLong(binCount);
        }
        if (count == 0) {
            out.writeUnsignedVarLong(0);
            return;
        }
        // HdrHistogram's compressed encoder indexes buffer.array() from 0, so it gets a buffer of its own.
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = compressHistogram
                ? histogram.encodeIntoCompressedByteBuffer(buffer)
                : histogram.encodeIntoByteBuffer(buffer);
        out.writeUnsignedVarLong(length);
        out.writeBytes(buffer.array(), 0, length);
    }

    public static LatencyAccumulator decode(byte[] bytes) {
        BinaryReader in = new BinaryReader(bytes, "latency accumulator");
        LatencyAccumulator result = decodeFrom(in);
        in.expectEnd();
        return result;
    }

    public static LatencyAccumulator decodeFrom(BinaryReader in) {
        int version = in.readByte("version");
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException("latency accumulator: unsupported format version " + version
                    + " (expected " + FORMAT_VERSION + ")");
        }
        int flags = in.readByte("flags");
        LatencyBins bins = LatencyBins.iometer();
        if ((flags & FLAG_CUSTOM_BINS) != 0) {
            int edges = in.readCount("edge count", 4096);
            long[] bounds = new long[edges];
            for (int i = 0; i < edges; i++) {
                bounds[i] = in.readUnsignedVarLong("edge");
            }
            bins = LatencyBins.of(bounds);
        }
        LatencyAccumulator acc = new LatencyAccumulator(bins);
        acc.count = in.readUnsignedVarLong("count");
        acc.sumNs = in.readUnsignedVarLong("sumNs");
        long min = in.readUnsignedVarLong("minNs");
        long max = in.readUnsignedVarLong("maxNs");
        long binTotal = 0;
        for (int i = 0; i < acc.binCounts.length; i++) {
            acc.binCounts[i] = in.readUnsignedVarLong("bin count");
            binTotal += acc.binCounts[i];
        }
        if (binTotal != acc.count) {
            throw new IllegalArgumentException(
                    "latency accumulator: bin counts add up to " + binTotal + " but count is " + acc.count);
        }
        byte[] hist = in.readBlock("histogram");
        if (acc.count > 0) {
            acc.minNs = min;
            acc.maxNs = max;
            ByteBuffer buffer = ByteBuffer.wrap(hist);
            try {
                Histogram decoded = (flags & FLAG_COMPRESSED) != 0
                        ? Histogram.decodeFromCompressedByteBuffer(buffer, 0)
                        : Histogram.decodeFromByteBuffer(buffer, 0);
                if (decoded.getTotalCount() != acc.count) {
                    throw new IllegalArgumentException("latency accumulator: histogram holds " + decoded.getTotalCount()
                            + " values but count is " + acc.count);
                }
                // decoding turns auto-resize on; growth must stay in growTo() to keep encodings order-independent
                decoded.setAutoResize(false);
                acc.histogram = decoded;
            } catch (DataFormatException e) {
                throw new IllegalArgumentException("latency accumulator: corrupt compressed histogram", e);
            }
        }
        return acc;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LatencyAccumulator)) {
            return false;
        }
        LatencyAccumulator that = (LatencyAccumulator) o;
        return count == that.count
                && sumNs == that.sumNs
                && minNs() == that.minNs()
                && maxNs() == that.maxNs()
                && bins.equals(that.bins)
                && Arrays.equals(binCounts, that.binCounts)
                && histogram.equals(that.histogram);
    }

    @Override
    public int hashCode() {
        int h = Long.hashCode(count);
        h = 31 * h + Long.hashCode(sumNs);
        h = 31 * h + Long.hashCode(minNs());
        h = 31 * h + Long.hashCode(maxNs());
        return 31 * h + Arrays.hashCode(binCounts);
    }

    @Override
    public String toString() {
        return "LatencyAccumulator[count=" + count + ", meanNs=" + meanNs() + ", minNs=" + minNs() + ", maxNs="
                + maxNs() + "]";
    }
}
