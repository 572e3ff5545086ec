package dev.ssdpulse.producer.sim.nand;

/**
 * The order of NAND operations on each plane: what a new operation waits behind. Operations are split into
 * the <em>issued</em> ones (started on the plane by a given time, or let in ahead of the queue: they run to
 * completion, nothing preempts them) and the <em>queued</em> ones (reserved in FIFO order but not started
 * yet). A queued operation (a host page's program, a GC page read or copy, an erase, a parity or map page) goes
 * behind everything on its plane; a priority operation (a host read, or the map segment a host command misses)
 * goes behind the issued operations only, overtaking everything queued, which moves back by the time it
 * takes. So a host read never waits for more than the operation in progress on its plane and the host reads
 * let in before it.
 *
 * <p>Completion times are computed when an operation is reserved (the simulator needs no per-NAND-op events),
 * so when a read overtakes queued operations the completions already handed out for those are not moved back:
 * the queue's end is (later operations start after it), but e.g. a host page's buffer release is early by the
 * reads that overtook it while it was queued. Error bound: the time (tR + transfer) of the reads that overtake
 * a queued operation; the plane's busy time is conserved exactly.
 *
 * <p>Queued operations become issued lazily, when a read or a new operation looks at the plane: by the read's
 * time, or by the time before which no read will be issued any more (the host's latest command; not the new
 * operation's own time, as a GC erase is issued at the time its victim's reads are done, far ahead). So a
 * plane keeps only the operations not started yet, and a write-only stream keeps the queues short.
 */
public final class PlaneScheduler {
    private static final int INITIAL_CAPACITY = 16;

    // A plane's state and its ring sit in one long[] (the header below, then the ring): every NAND operation
    // reads and updates most of it, and one array touched per operation instead of seven kept the
    // scheduler's bookkeeping in fewer cache lines and bounds checks (it was 14 % of a GC-heavy run).
    /** When the issued operations (the one in progress and the priority ones behind it) end. */
    private static final int ISSUED_UNTIL = 0;
    /** When everything reserved on the plane ends (the last queued operation, else the issued ones). */
    private static final int BUSY_UNTIL = 1;
    /** How far priority operations have moved the queued ones back since they were recorded. */
    private static final int SHIFT = 2;
    /** When the first queued operation starts, minus the shift at its recording. */
    private static final int HEAD_START = 3;
    /** Ring index of the first queued operation's entry. */
    private static final int HEAD = 4;
    /** Entries in the ring. */
    private static final int SIZE = 5;
    /**
     * From here on: the ends of the queued operations, a ring (its length a power of two), each minus the
     * shift at its recording (kept without their starts, which doubled the memory traffic of a GC-heavy run):
     * an operation starts when the one before it ends, unless it was queued behind an idle gap, which an entry
     * {@code ~start} before it records (rare: an operation issued for later than the plane is busy).
     */
    private static final int RING = 8;

    private final long[][] planes;

    public PlaneScheduler(int planes) {
        this.planes = new long[planes][RING + INITIAL_CAPACITY];
    }

    /**
     * When an operation issued at {@code atNs} behind everything on {@code plane} can start at the earliest.
     * {@code settledNs}: no read will be issued before this time any more (the host's commands arrive in time
     * order), so what has started by then can no longer be overtaken.
     */
    public long queuedStartNs(int plane, long atNs, long settledNs) {
        long[] q = planes[plane];
        if (q[SIZE] > 0 && q[HEAD_START] + q[SHIFT] < settledNs) {
            issueStartedBy(q, settledNs);
        }
        return Math.max(atNs, q[BUSY_UNTIL]);
    }

    /**
     * Records an operation queued behind everything on {@code plane}, from {@link #queuedStartNs} with the
     * same {@code settledNs}.
     */
    public void appendQueued(int plane, long startNs, long endNs, long settledNs) {
        long[] q = planes[plane];
        int n = (int) q[SIZE];
        long shift = q[SHIFT];
        if (n == 0) {
            if (startNs < settledNs) {
                // started already, so no read can overtake it: issued at once, nothing to keep
                q[ISSUED_UNTIL] = endNs;
                q[BUSY_UNTIL] = endNs;
                return;
            }
            q[HEAD_START] = startNs - shift;
        } else if (startNs > q[BUSY_UNTIL]) {
            q = push(plane, q, n++, ~(startNs - shift));
        }
        q = push(plane, q, n, endNs - shift);
        q[BUSY_UNTIL] = endNs;
    }

    /** Appends {@code entry} behind the ring's {@code n} entries; returns the plane's array (new if it grew). */
    private long[] push(int plane, long[] q, int n, long entry) {
        if (n == q.length - RING) {
            q = grow(plane, q);
        }
        q[RING + ((int) q[HEAD] + n & q.length - RING - 1)] = entry;
        q[SIZE] = n + 1;
        return q;
    }

    /**
     * When an operation issued at {@code atNs} ahead of the queue can start at the earliest: after the
     * operation in progress on {@code plane} at {@code atNs} and the priority operations issued before it.
     */
    public long priorityStartNs(int plane, long atNs) {
        long[] q = planes[plane];
        if (q[SIZE] > 0 && q[HEAD_START] + q[SHIFT] < atNs) {
            issueStartedBy(q, atNs);
        }
        return Math.max(atNs, q[ISSUED_UNTIL]);
    }

    /**
     * Records an operation from {@link #priorityStartNs} that works on the plane for {@code serviceNs} and
     * holds it until {@code endNs} (a read's register until its data is out over a busy channel). The queued
     * operations move back by its overlap with them, at most {@code serviceNs}: waiting for the channel is
     * not plane work, and charging it to the queue would count the channel's backlog once per read.
     */
    public void insertPriority(int plane, long startNs, long serviceNs, long endNs) {
        long[] q = planes[plane];
        if (startNs < q[ISSUED_UNTIL]) {
            throw new IllegalArgumentException("priority operation at " + startNs
                    + " ns starts before the issued ones end (" + q[ISSUED_UNTIL] + " ns)");
        }
        q[ISSUED_UNTIL] = endNs;
        if (q[SIZE] > 0) {
            long overlapNs = endNs - (q[HEAD_START] + q[SHIFT]);
            if (overlapNs > 0) {
                long moveNs = Math.min(overlapNs, serviceNs);
                q[SHIFT] += moveNs;
                q[BUSY_UNTIL] += moveNs;
            }
        }
        q[BUSY_UNTIL] = Math.max(q[BUSY_UNTIL], endNs);
    }

    /** When everything reserved on {@code plane} so far ends. */
    public long busyUntilNs(int plane) {
        return planes[plane][BUSY_UNTIL];
    }

    /** Entries (operations and gaps before them) queued on {@code plane} and not started as of the last look at it. */
    public int queuedOps(int plane) {
        return (int) planes[plane][SIZE];
    }

    /**
     * Moves the queued operations that start before {@code atNs} to the issued ones (they cannot be overtaken any
     * more).
     */
    private static void issueStartedBy(long[] q, long atNs) {
        int n = (int) q[SIZE];
        if (n == 0) {
            return;
        }
        int mask = q.length - RING - 1;
        long shift = q[SHIFT];
        int h = (int) q[HEAD];
        long start = q[HEAD_START];
        long issued = q[ISSUED_UNTIL];
        while (n > 0) {
            long entry = q[RING + h];
            if (entry < 0) {
                start = ~entry; // the next operation starts after an idle gap
            } else if (start + shift < atNs) {
                start = entry;
                issued = Math.max(issued, entry + shift);
            } else {
                break;
            }
            h = h + 1 & mask;
            n--;
        }
        q[HEAD] = h;
        q[SIZE] = n;
        q[HEAD_START] = start;
        q[ISSUED_UNTIL] = issued;
    }

    private long[] grow(int plane, long[] q) {
        int capacity = q.length - RING;
        int n = (int) q[SIZE];
        int h = (int) q[HEAD];
        long[] grown = new long[RING + capacity * 2];
        System.arraycopy(q, 0, grown, 0, RING);
        for (int i = 0; i < n; i++) {
            grown[RING + i] = q[RING + (h + i & capacity - 1)];
        }
        grown[HEAD] = 0;
        planes[plane] = grown;
        return grown;
    }
}
