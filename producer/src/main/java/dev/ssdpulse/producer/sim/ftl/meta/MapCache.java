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
 * misses alike, and sequential streams touch a segment only while they pass it; FIFO costs one byte lookup per
 * access (a ring of cached segment ids plus one state byte per segment), where LRU's list relinking cost a
 * third of the simulator's time in GC-heavy runs.
 */
public final class MapCache {
    /** Flag of {@link #update} and {@link #lookup}: the segment was not cached and is read from flash. */
    public static final int MISS = 1;
    /** Flag of {@link #update} and {@link #lookup}: making room evicted a dirty segment, which is written to flash. */
    public static final int WRITE_BACK = 2;

    private static final byte ABSENT = 0;
    private static final byte CLEAN = 1;
    private static final byte DIRTY = 2;

    private final IntDivisor unitsPerSegment;
    private final byte[] state;
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
        this.state = new byte[segments];
        this.ring = new int[Math.min(capacitySegments, segments)];
    }

    /**
     * The mapping of {@code lpn} changed: its segment is loaded if needed and dirtied.
     *
     * @return {@link #MISS} and {@link #WRITE_BACK} flags
     */
    public int update(int lpn) {
        return access(lpn, DIRTY);
    }

    /** The mapping of {@code lpn} is looked up (a host read): its segment is loaded if needed. @return the flags */
    public int lookup(int lpn) {
        return access(lpn, CLEAN);
    }

    private int access(int lpn, byte touched) {
        int s = unitsPerSegment.divide(lpn);
        lastSegment = s;
        byte current = state[s];
        if (current != ABSENT) {
            if (touched == DIRTY) {
                state[s] = DIRTY;
            }
            return 0;
        }
        loads++;
        int flags = MISS;
        if (size == ring.length) {
            int victim = ring[next];
            if (state[victim] == DIRTY) {
                flags |= WRITE_BACK;
            }
            state[victim] = ABSENT;
        } else {
            size++;
        }
        ring[next] = s;
        next = next + 1 == ring.length ? 0 : next + 1;
        state[s] = touched;
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
