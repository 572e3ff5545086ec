package dev.ssdpulse.producer.sim.stats;

/**
 * Latencies counted in logarithmic bins: {@code binsPerDecade} bins per factor of ten from {@code minNs} up,
 * so a latency's bin is its order of magnitude in steps of 10^(1/binsPerDecade) (20 bins per decade: steps of
 * 12.2 %). Latencies below {@code minNs} go to bin 0, those past the last bin to the last one. A log scale is
 * how latency layers are read: an operation ahead on the die adds a fixed time, and the layers of one, two,
 * three operations ahead sit at equal ratios only far out, but at distinct positions everywhere.
 */
public final class LogHistogram {
    private final long minNs;
    private final int binsPerDecade;
    private final long[] counts;
    private final double scale;
    private long total;

    /** @param decades how many factors of ten above {@code minNs} the bins cover */
    public LogHistogram(long minNs, int decades, int binsPerDecade) {
        if (minNs < 1 || decades < 1 || binsPerDecade < 1) {
            throw new IllegalArgumentException("minNs, decades and binsPerDecade must be >= 1");
        }
        this.minNs = minNs;
        this.binsPerDecade = binsPerDecade;
        this.counts = new long[decades * binsPerDecade];
        this.scale = binsPerDecade / Math.log(10);
    }

    public void add(long latencyNs) {
        counts[binOf(latencyNs)]++;
        total++;
    }

    public int binOf(long latencyNs) {
        if (latencyNs <= minNs) {
            return 0;
        }
        int bin = (int) (Math.log((double) latencyNs / minNs) * scale);
        return Math.min(bin, counts.length - 1);
    }

    /** Lower edge of {@code bin} in ns. */
    public double lowerEdgeNs(int bin) {
        return minNs * Math.pow(10, (double) bin / binsPerDecade);
    }

    /** Geometric centre of {@code bin} in ns. */
    public double centreNs(int bin) {
        return minNs * Math.pow(10, (bin + 0.5) / binsPerDecade);
    }

    /** A copy of the counts, bin by bin. */
    public long[] counts() {
        return counts.clone();
    }

    public long total() {
        return total;
    }

    public int bins() {
        return counts.length;
    }
}
