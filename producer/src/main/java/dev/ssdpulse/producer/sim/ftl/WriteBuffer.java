package dev.ssdpulse.producer.sim.ftl;

import java.util.Arrays;

/**
 * The controller's write buffer (SRAM page buffer, or a DRAM write cache when configured larger). A host
 * unit is acknowledged once it has a buffer slot; the slots of a page are freed when that page's program
 * completes. Pending releases sit in a min-heap by completion time, so a page stuck behind GC on one
 * plane does not hold back slots freed by pages on other planes.
 */
public final class WriteBuffer {
    /**
     * A heap entry is a release: its time shifted left by this many bits, its unit count in them. One long
     * per entry (times and counts in two arrays touched two cache lines per heap level), compared on the time
     * alone, so the heap moves exactly as with separate arrays and equal times pop in the same order (which
     * decides whether a later, earlier-stamped write waits: results depend on it).
     */
    private static final int UNIT_BITS = 8;

    private static final long MAX_UNITS = (1L << UNIT_BITS) - 1;
    private static final long MAX_RELEASE_NS = Long.MAX_VALUE >>> UNIT_BITS;
    /** Fills the slots past the last entry, so a sift-down needs no check that a right child exists. */
    private static final long EMPTY = Long.MAX_VALUE;

    private final int capacityUnits;
    private final long[] heap;
    private int size;
    private int usedUnits;
    private long lastReleaseNs;

    public WriteBuffer(int capacityUnits) {
        if (capacityUnits < 1) {
            throw new IllegalArgumentException("write buffer needs at least one unit");
        }
        this.capacityUnits = capacityUnits;
        // at most one entry per unit, plus the EMPTY slot a sift-down may read past the last one
        this.heap = new long[capacityUnits + 2];
        Arrays.fill(heap, EMPTY);
    }

    /** @return the time a slot for one unit is available, at or after {@code atNs} */
    public long acquire(long atNs) {
        long t = atNs;
        while (releaseNs(heap[0]) <= t) { // an empty heap's root is EMPTY, later than any time
            popMin();
        }
        while (usedUnits >= capacityUnits) {
            if (size == 0) {
                throw new IllegalStateException("write buffer of " + capacityUnits + " units is smaller than one page");
            }
            t = Math.max(t, releaseNs(heap[0]));
            popMin();
        }
        usedUnits++;
        return t;
    }

    /** {@code units} slots become free at {@code atNs} (their page program completes). */
    public void release(int units, long atNs) {
        if (units < 0 || units > MAX_UNITS || atNs < 0 || atNs >= MAX_RELEASE_NS) {
            throw new IllegalArgumentException(
                    "release of " + units + " units at " + atNs + " ns outside the buffer's range");
        }
        lastReleaseNs = Math.max(lastReleaseNs, atNs);
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (releaseNs(heap[parent]) <= atNs) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = atNs << UNIT_BITS | units;
    }

    /** Time every buffered unit issued so far is on flash (a FLUSH completes then). */
    public long drainedAtNs() {
        return lastReleaseNs;
    }

    private static long releaseNs(long entry) {
        return entry >>> UNIT_BITS;
    }

    /**
     * Removes the earliest release. Floyd's variant of the sift-down: the hole at the root moves down to a
     * leaf along the earlier child (picked without a branch: which child is earlier is a coin toss the CPU
     * mispredicted half the time, and the pop was 14 % of a GC-heavy run), then the heap's last entry moves up
     * from there past every entry not earlier than it. That leaves each entry where the usual sift-down
     * (stop at the first child not earlier than the moved entry, take the right child only if strictly
     * earlier) puts it, so the heap, and the order equal times pop in, are unchanged.
     */
    private void popMin() {
        usedUnits -= (int) (heap[0] & MAX_UNITS);
        int last = --size;
        long moved = heap[last];
        heap[last] = EMPTY;
        if (last == 0) {
            heap[0] = EMPTY;
            return;
        }
        int i = 0;
        int child;
        while ((child = 2 * i + 1) < last) {
            // the right child is at most index last, EMPTY when it is not an entry; + 1 if strictly earlier
            child += (int) ((releaseNs(heap[child + 1]) - releaseNs(heap[child])) >>> 63);
            heap[i] = heap[child];
            i = child;
        }
        long t = releaseNs(moved);
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (releaseNs(heap[parent]) < t) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = moved;
    }
}
