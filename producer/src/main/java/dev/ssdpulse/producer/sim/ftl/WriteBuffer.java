package dev.ssdpulse.producer.sim.ftl;

/**
 * The controller's write buffer (SRAM page buffers, or a DRAM write cache when configured larger), divided
 * evenly among the planes: the host stream assigns each unit to a plane as it arrives (its write pointer stripes
 * pages over the planes), and the unit is acknowledged once that plane's share has a free slot. A page's slots
 * are freed when its program completes. So a host write that has to wait, waits for the operations ahead of its
 * page on its own plane (GC copies and erases, other host pages): its latency reflects how busy its plane is,
 * which is where a drive's latency layers come from.
 *
 * <p>Programs on a plane run in issue order, so each plane's releases come in time order: a ring per plane, no
 * heap. A release earlier than the plane's last one is held to it (the slots free in order).
 */
public final class WriteBuffer {
    private static final int UNIT_BITS = 12;
    private static final long MAX_UNITS = (1L << UNIT_BITS) - 1;

    private final int unitsPerPlane;
    /** Per plane, a ring of releases: time shifted left by UNIT_BITS, the unit count in the low bits. */
    private final long[][] ring;

    private final int[] head;
    private final int[] size;
    private final int[] usedUnits;
    private final long[] lastReleaseNs;
    private long drainedAtNs;

    /** @param unitsPerPlane buffer slots (4 KiB units) per plane: at least two pages' worth */
    public WriteBuffer(int planes, int unitsPerPlane) {
        if (unitsPerPlane < 2) {
            throw new IllegalArgumentException("write buffer needs at least two units per plane, got " + unitsPerPlane);
        }
        this.unitsPerPlane = unitsPerPlane;
        // at most one release per unit held, plus one
        int capacity = Integer.highestOneBit(unitsPerPlane) << 1;
        this.ring = new long[planes][capacity];
        this.head = new int[planes];
        this.size = new int[planes];
        this.usedUnits = new int[planes];
        this.lastReleaseNs = new long[planes];
    }

    /** @return the time a slot for one unit is free on {@code plane}, at or after {@code atNs} */
    public long acquire(int plane, long atNs) {
        long[] r = ring[plane];
        int mask = r.length - 1;
        int h = head[plane];
        int n = size[plane];
        int used = usedUnits[plane];
        long t = atNs;
        while (n > 0 && r[h] >>> UNIT_BITS <= t) {
            used -= (int) (r[h] & MAX_UNITS);
            h = h + 1 & mask;
            n--;
        }
        while (used >= unitsPerPlane) {
            if (n == 0) {
                throw new IllegalStateException(
                        "write buffer share of " + unitsPerPlane + " units is smaller than a page");
            }
            t = Math.max(t, r[h] >>> UNIT_BITS);
            used -= (int) (r[h] & MAX_UNITS);
            h = h + 1 & mask;
            n--;
        }
        head[plane] = h;
        size[plane] = n;
        usedUnits[plane] = used + 1;
        return t;
    }

    /** {@code units} slots of {@code plane} become free at {@code atNs} (their page's program completes). */
    public void release(int plane, int units, long atNs) {
        if (units < 1 || units > MAX_UNITS || atNs < 0) {
            throw new IllegalArgumentException("release of " + units + " units at " + atNs + " ns");
        }
        long t = Math.max(atNs, lastReleaseNs[plane]);
        lastReleaseNs[plane] = t;
        drainedAtNs = Math.max(drainedAtNs, t);
        long[] r = ring[plane];
        r[head[plane] + size[plane]++ & r.length - 1] = t << UNIT_BITS | units;
    }

    /** Time every buffered unit issued so far is on flash (a FLUSH completes then). */
    public long drainedAtNs() {
        return drainedAtNs;
    }
}
