package dev.ssdpulse.producer.sim.ftl;

/**
 * The controller's write buffer (SRAM page buffer, or a DRAM write cache when configured larger). A host
 * unit is acknowledged once it has a buffer slot; the slots of a page are freed when that page's program
 * completes. Pending releases sit in a min-heap by completion time, so a page stuck behind GC on one
 * plane does not hold back slots freed by pages on other planes.
 */
public final class WriteBuffer {
    private final int capacityUnits;
    private final long[] releaseAtNs;
    private final int[] releaseUnits;
    private int size;
    private int usedUnits;
    private long lastReleaseNs;

    public WriteBuffer(int capacityUnits) {
        if (capacityUnits < 1) {
            throw new IllegalArgumentException("write buffer needs at least one unit");
        }
        this.capacityUnits = capacityUnits;
        this.releaseAtNs = new long[capacityUnits + 1];
        this.releaseUnits = new int[capacityUnits + 1];
    }

    /** @return the time a slot for one unit is available, at or after {@code atNs} */
    public long acquire(long atNs) {
        long t = atNs;
        while (size > 0 && releaseAtNs[0] <= t) {
            popMin();
        }
        while (usedUnits >= capacityUnits) {
            if (size == 0) {
                throw new IllegalStateException("write buffer of " + capacityUnits + " units is smaller than one page");
            }
            t = Math.max(t, releaseAtNs[0]);
            popMin();
        }
        usedUnits++;
        return t;
    }

    /** {@code units} slots become free at {@code atNs} (their page program completes). */
    public void release(int units, long atNs) {
        lastReleaseNs = Math.max(lastReleaseNs, atNs);
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (releaseAtNs[parent] <= atNs) {
                break;
            }
            releaseAtNs[i] = releaseAtNs[parent];
            releaseUnits[i] = releaseUnits[parent];
            i = parent;
        }
        releaseAtNs[i] = atNs;
        releaseUnits[i] = units;
    }

    /** Time every buffered unit issued so far is on flash (a FLUSH completes then). */
    public long drainedAtNs() {
        return lastReleaseNs;
    }

    private void popMin() {
        usedUnits -= releaseUnits[0];
        int last = --size;
        if (last == 0) {
            return;
        }
        long t = releaseAtNs[last];
        int u = releaseUnits[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && releaseAtNs[child + 1] < releaseAtNs[child]) {
                child++;
            }
            if (releaseAtNs[child] >= t) {
                break;
            }
            releaseAtNs[i] = releaseAtNs[child];
            releaseUnits[i] = releaseUnits[child];
            i = child;
        }
        releaseAtNs[i] = t;
        releaseUnits[i] = u;
    }
}
