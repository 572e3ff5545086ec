package dev.ssdpulse.producer.sim.ftl.meta;

/**
 * The controller's cache of mapping-table segments (LRU, write-back). A segment covers
 * {@code unitsPerSegment} consecutive logical units; updating a unit's mapping dirties its segment, and a
 * dirty segment is written to flash when it is evicted. A DRAM-less controller caches only a few MiB of
 * map at most, so random 4 KiB writes over gigabytes dirty a new segment almost every time, while a
 * sequential write dirties one segment per {@code unitsPerSegment} units.
 *
 * <p>Intrusive doubly linked list over segment ids in primitive arrays: O(1) per update, 12 bytes per
 * segment of the logical space.
 */
public final class MapCache {
    private static final byte ABSENT = 0;
    private static final byte CLEAN = 1;
    private static final byte DIRTY = 2;

    private final int unitsPerSegment;
    private final int capacitySegments;
    private final byte[] state;
    private final int[] prev;
    private final int[] next;
    private int head = -1; // most recently used
    private int tail = -1;
    private int size;
    private long loads;

    public MapCache(int logicalUnits, int unitsPerSegment, int capacitySegments) {
        if (unitsPerSegment < 1 || capacitySegments < 1) {
            throw new IllegalArgumentException("unitsPerSegment and capacitySegments must be >= 1");
        }
        this.unitsPerSegment = unitsPerSegment;
        this.capacitySegments = capacitySegments;
        int segments = (int) (((long) logicalUnits + unitsPerSegment - 1) / unitsPerSegment);
        this.state = new byte[segments];
        this.prev = new int[segments];
        this.next = new int[segments];
    }

    /**
     * The mapping of {@code lpn} changed.
     *
     * @return true if that evicted a dirty segment, which the caller writes to flash
     */
    public boolean update(int lpn) {
        int s = lpn / unitsPerSegment;
        boolean evictedDirty = false;
        if (state[s] == ABSENT) {
            loads++;
            if (size == capacitySegments) {
                int victim = tail;
                unlink(victim);
                evictedDirty = state[victim] == DIRTY;
                state[victim] = ABSENT;
                size--;
            }
            pushFront(s);
            size++;
        } else if (head != s) {
            unlink(s);
            pushFront(s);
        }
        state[s] = DIRTY;
        return evictedDirty;
    }

    /** Segments read from flash into the cache so far (map misses). */
    public long loads() {
        return loads;
    }

    private void pushFront(int s) {
        prev[s] = -1;
        next[s] = head;
        if (head >= 0) {
            prev[head] = s;
        }
        head = s;
        if (tail < 0) {
            tail = s;
        }
    }

    private void unlink(int s) {
        int p = prev[s];
        int n = next[s];
        if (p >= 0) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            tail = p;
        }
    }
}
