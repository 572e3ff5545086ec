package dev.ssdpulse.producer.sim.nand;

/**
 * The order of NAND operations on each plane: what a new operation waits behind. Operations are split into
 * the <em>issued</em> ones (started on the plane by a given time, or let in ahead of the queue: they run to
 * completion, nothing preempts them) and the <em>queued</em> ones (reserved in FIFO order but not started
 * yet). A queued operation (GC page read or copy, erase, GC's metadata or parity program, and the host path's
 * page programs while the drive is short of erased blocks) goes behind everything on its plane; a priority
 * operation (a host read, the host path's page programs otherwise) goes behind the issued operations only, overtaking
 * everything queued, which moves back by the time it takes. So a host command never waits for more than the operation
 * in progress on its plane and the host operations let in before it, while GC work queued in page-sized
 * operations (copy by copy, the erase on its own) runs between host operations. The queued erases are
 * counted ({@link #queuedErases}): a block whose erase has not started is not free yet, which is what decides
 * when host programs must queue behind GC (the FTL's {@code HostWriteAdmission}).
 *
 * <p>Completion times are computed when an operation is reserved (the simulator needs no per-NAND-op events),
 * so when a host operation overtakes queued operations the completions already handed out for those are not
 * moved back: the queue's end is (later operations start after it), but e.g. a GC erase's completion (which
 * a foreground-GC stall waits for) or an urgent host page's release is early by the host operations that
 * overtook it while it was queued. Error bound: the time (tR + transfer, or tPROG) of the host operations
 * that overtake a queued operation; the plane's busy time is conserved exactly, and which operations are
 * still queued ({@link #queuedErases}) is always current.
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
    /** Erases among the queued operations. */
    private static final int QUEUED_ERASES = 6;
    /**
     * Marks an erase's entry in the ring (times stay below 2^62 ns, 146 years), so the queued erases are
     * counted as they are issued without a second ring.
     */
    private static final long ERASE_FLAG = 1L << 62;
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
        appendQueued(plane, startNs, endNs, settledNs, false);
    }

    /**
     * As {@link #appendQueued(int, long, long, long)}; {@code erase}: the operation is a block erase (counted while
     * queued).
     */
    public void appendQueued(int plane, long startNs, long endNs, long settledNs, boolean erase) {
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
        if (erase) {
            q = push(plane, q, n, endNs - shift | ERASE_FLAG);
            q[QUEUED_ERASES]++;
        } else {
            q = push(plane, q, n, endNs - shift);
        }
        q[BUSY_UNTIL] = endNs;
    }

    /**
     * Erases reserved on {@code plane} that have not started by {@code atNs} (nor been started by an earlier
     * look): their blocks are back in the free pool's count but not erased yet.
     */
    public int queuedErases(int plane, long atNs) {
        long[] q = planes[plane];
        // asked before every host-path program: skip the issuing pass (and its stores) when the head has not started
        if (q[QUEUED_ERASES] != 0 && q[HEAD_START] + q[SHIFT] < atNs) {
            issueStartedBy(q, atNs);
        }
        return (int) q[QUEUED_ERASES];
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
        long erases = q[QUEUED_ERASES];
        while (n > 0) {
            long entry = q[RING + h];
            if (entry < 0) {
                start = ~entry; // the next operation starts after an idle gap
            } else if (start + shift < atNs) {
                if (entry >= ERASE_FLAG) {
                    entry ^= ERASE_FLAG;
                    erases--;
                }
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
        q[QUEUED_ERASES] = erases;
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
