package dev.ssdpulse.producer.sim.ftl.meta;

import dev.ssdpulse.producer.sim.util.IntDivisor;

/**
 * The controller's cache of mapping-table segments (write-back, FIFO replacement). A segment covers
 * {@code unitsPerSegment} consecutive logical units; a segment that is not cached is read from flash first (a
 * miss), updating a unit's mapping dirties its segment, and a dirty segment is written to flash when it is
 * evicted. A DRAM-less controller caches only a few MiB of map at most, so random 4 KiB writes over gigabytes
 * miss almost every time, while a sequential write misses once per {@code unitsPerSegment} units.
 *
 * <p>Why FIFO rather than LRU: with accesses spread over far more segments than the cache holds, every policy
 * misses alike, and sequential streams touch a segment only while they pass it; FIFO costs one bit lookup per
 * access (a ring of cached segment ids plus a cached and a dirty bit per segment), where LRU's list relinking
 * cost a third of the simulator's time in GC-heavy runs. Bits rather than a state byte per segment: the bit sets
 * (10 KB each on the 2012 preset) stay in the CPU's cache beside the forward map's random accesses.
 */
public final class MapCache {
    /** Flag of {@link #update} and {@link #lookup}: the segment was not cached and is read from flash. */
    public static final int MISS = 1;
    /** Flag of {@link #update} and {@link #lookup}: making room evicted a dirty segment, which is written to flash. */
    public static final int WRITE_BACK = 2;

    private final IntDivisor unitsPerSegment;
    private final long[] cached;
    private final long[] dirty;
    private final int[] ring;
    private int next;
    private int size;
    private long loads;
    private int lastSegment;

    public MapCache(int logicalUnits, int unitsPerSegment, int capacitySegments) {
        if (unitsPerSegment < 1 || capacitySegments < 1) {
            throw new IllegalArgumentException("unitsPerSegment and capacitySegments must be >= 1");
        }
        this.unitsPerSegment = new IntDivisor(unitsPerSegment);
        int segments = (int) (((long) logicalUnits + unitsPerSegment - 1) / unitsPerSegment);
        this.cached = new long[(segments + 63) >>> 6];
        this.dirty = new long[(segments + 63) >>> 6];
        this.ring = new int[Math.min(capacitySegments, segments)];
    }

    /**
     * The mapping of {@code lpn} changed: its segment is loaded if needed and dirtied.
     *
     * @return {@link #MISS} and {@link #WRITE_BACK} flags
     */
    public int update(int lpn) {
        return access(lpn, true);
    }

    /** The mapping of {@code lpn} is looked up (a host read): its segment is loaded if needed. @return the flags */
    public int lookup(int lpn) {
        return access(lpn, false);
    }

    private int access(int lpn, boolean dirties) {
        int s = unitsPerSegment.divide(lpn);
        lastSegment = s;
        int word = s >>> 6;
        long bit = 1L << s;
        if ((cached[word] & bit) != 0) {
            if (dirties) {
                dirty[word] |= bit;
            }
            return 0;
        }
        loads++;
        int flags = MISS;
        if (size == ring.length) {
            int victim = ring[next];
            int victimWord = victim >>> 6;
            long victimBit = 1L << victim;
            if ((dirty[victimWord] & victimBit) != 0) {
                flags |= WRITE_BACK;
                dirty[victimWord] &= ~victimBit;
            }
            cached[victimWord] &= ~victimBit;
        } else {
            size++;
        }
        ring[next] = s;
        next = next + 1 == ring.length ? 0 : next + 1;
        cached[word] |= bit;
        if (dirties) {
            dirty[word] |= bit;
        }
        return flags;
    }

    /** The segment of the last {@link #update} or {@link #lookup}. */
    public int lastSegment() {
        return lastSegment;
    }

    /** Segments read from flash into the cache so far (map misses). */
    public long loads() {
        return loads;
    }
}
