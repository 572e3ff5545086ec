package dev.ssdpulse.producer.sim.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Counts the modes (layers) of a histogram by topographic prominence, the usual way to count peaks of a
 * noisy 1-D distribution without smoothing it first.
 *
 * <p>Picture the bins as a skyline and lower a water level from the highest bin down. Each bin that surfaces
 * either starts a new island (a local peak) or joins the island(s) next to it; when two islands meet at a
 * bin, the one with the lower peak ends there, and that bin's count is its saddle: the deepest valley between
 * that peak and any higher one. A peak is a <em>mode</em> when
 * <ul>
 *   <li>its valley is deep: saddle &lt;= {@code valleyRatio} x the peak's count (0.5: the histogram drops to
 *       half the peak or lower on the way to any higher peak; the highest peak has no saddle), and</li>
 *   <li>it is not noise: the peak bin holds at least {@code minShare} of all samples.</li>
 * </ul>
 * A shoulder on a slope (no valley) and a one-bin spike of a few samples are not modes; two humps with a
 * valley between them are two, however close. Equal neighbouring bins form one plateau, counted once. The
 * result depends on the binning: with log bins, use the same bins per decade when comparing runs.
 */
public final class HistogramModes {
    private final double valleyRatio;
    private final double minShare;

    /**
     * A mode: its peak bin, the peak's count, and the saddle that separates it from a higher peak (0 for the highest).
     */
    public record Mode(int bin, long count, long saddle) {}

    public HistogramModes(double valleyRatio, double minShare) {
        if (!(valleyRatio > 0 && valleyRatio < 1) || !(minShare >= 0 && minShare < 1)) {
            throw new IllegalArgumentException("valleyRatio must be in (0, 1) and minShare in [0, 1)");
        }
        this.valleyRatio = valleyRatio;
        this.minShare = minShare;
    }

    /** The modes of {@code counts}, in bin order. */
    public List<Mode> modes(long[] counts) {
        int n = counts.length;
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return List.of();
        }
        // bins from the highest count down; equal counts left to right, so a plateau surfaces as one island
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order, (a, b) -> counts[a] != counts[b] ? Long.compare(counts[b], counts[a]) : Integer.compare(a, b));
        int[] island = new int[n]; // union-find parent, -1 while under water
        Arrays.fill(island, -1);
        int[] peakOf = new int[n]; // the peak bin of the island whose root is i
        long[] saddle = new long[n];
        Arrays.fill(saddle, -1); // -1: still alive (never merged into a higher island)
        for (int bin : order) {
            if (counts[bin] == 0) {
                break;
            }
            island[bin] = bin;
            peakOf[bin] = bin;
            for (int neighbour : new int[] {bin - 1, bin + 1}) {
                if (neighbour < 0 || neighbour >= n || island[neighbour] < 0) {
                    continue;
                }
                int a = root(island, bin);
                int b = root(island, neighbour);
                if (a == b) {
                    continue;
                }
                int higher = higherPeak(counts, peakOf[a], peakOf[b]) == peakOf[a] ? a : b;
                int lower = higher == a ? b : a;
                if (peakOf[lower] != bin) {
                    saddle[peakOf[lower]] = counts[bin];
                } else {
                    saddle[bin] = counts[bin]; // the new bin joins a higher island: a slope, not a peak
                }
                island[lower] = higher;
            }
        }
        // a bin that surfaced next to an island was never a peak: its saddle is its own count, never a mode
        List<Mode> out = new ArrayList<>();
        double minCount = minShare * total;
        for (int bin = 0; bin < n; bin++) {
            if (counts[bin] == 0 || counts[bin] < minCount) {
                continue;
            }
            if (saddle[bin] < 0) {
                out.add(new Mode(bin, counts[bin], 0)); // the highest peak
            } else if (saddle[bin] <= valleyRatio * counts[bin]) {
                out.add(new Mode(bin, counts[bin], saddle[bin]));
            }
        }
        return out;
    }

    /** How many modes {@code counts} has. */
    public int count(long[] counts) {
        return modes(counts).size();
    }

    private static int higherPeak(long[] counts, int p, int q) {
        if (counts[p] != counts[q]) {
            return counts[p] > counts[q] ? p : q;
        }
        return Math.min(p, q);
    }

    private static int root(int[] island, int i) {
        while (island[i] != i) {
            island[i] = island[island[i]];
            i = island[i];
        }
        return i;
    }
}
