package dev.ssdpulse.producer.sim.ftl.meta;

import dev.ssdpulse.producer.sim.util.IntDivisor;

/**
 * The controller's cache of mapping-table segments (write-back, FIFO replacement). A segment covers
 * {@code unitsPerSegment} consecutive logical units; updating a unit's mapping dirties its segment, and a
 * dirty segment is written to flash when it is evicted. A DRAM-less controller caches only a few MiB of
 * map at most, so random 4 KiB writes over gigabytes dirty a new segment almost every time, while a
 * sequential write dirties one segment per {@code unitsPerSegment} units.
 *
 * <p>Why FIFO rather than LRU: with updates spread over far more segments than the cache holds, every
 * policy misses alike, and sequential streams touch a segment only while they pass it; FIFO costs one
 * byte lookup per update (a ring of cached segment ids plus one state byte per segment), where LRU's list
 * relinking cost a third of the simulator's time in GC-heavy runs.
 */
public final class MapCache {
    private static final byte ABSENT = 0;
    private static final byte DIRTY = 2;

    private final IntDivisor unitsPerSegment;
    private final byte[] state;
    private final int[] ring;
    private int next;
    private int size;
    private long loads;

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
     * The mapping of {@code lpn} changed.
     *
     * @return true if that evicted a dirty segment, which the caller writes to flash
     */
    public boolean update(int lpn) {
        int s = unitsPerSegment.divide(lpn);
        if (state[s] != ABSENT) {
            state[s] = DIRTY;
            return false;
        }
        loads++;
        boolean evictedDirty = false;
        if (size == ring.length) {
            int victim = ring[next];
            evictedDirty = state[victim] == DIRTY;
            state[victim] = ABSENT;
        } else {
            size++;
        }
        ring[next] = s;
        next = next + 1 == ring.length ? 0 : next + 1;
        state[s] = DIRTY;
        return evictedDirty;
    }

    /** Segments read from flash into the cache so far (map misses). */
    public long loads() {
        return loads;
    }
}
