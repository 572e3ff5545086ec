package dev.ssdpulse.producer.sim.nand;

/**
 * The order of NAND operations on each plane: what a new operation waits behind. Operations are split into
 * the <em>issued</em> ones (started on the plane by a given time, or let in ahead of the queue: they run to
 * completion, nothing preempts them) and the <em>queued</em> ones (reserved in FIFO order but not started
 * yet). A queued operation (host page program, GC page read or copy, erase, metadata or parity program) goes
 * behind everything on its plane; a priority operation (a host read) goes behind the issued operations only,
 * overtaking everything queued, which moves back by the time it takes. So a host read never waits for more
 * than the operation in progress on its plane and the host reads let in before it, while GC work queued in
 * page-sized operations (copy by copy, the erase on its own) runs between host reads.
 *
 * <p>Completion times are computed when an operation is reserved (the simulator needs no per-NAND-op events),
 * so when a read overtakes queued operations the completions already handed out for those are not moved
 * back: the queue's end is (later operations start after it), but e.g. a buffered host page's release is
 * early by the reads that overtook it while it was queued. Error bound: the read time (tR + transfer) of
 * the host reads that overtake a queued operation; the plane's busy time is conserved exactly.
 *
 * <p>Queued operations become issued lazily, when a read or a new operation looks at the plane: by the read's
 * time, or by the time before which no read will be issued any more (the host's latest command; not the new
 * operation's own time, as a GC erase is issued at the time its victim's reads are done, far ahead). So a
 * plane keeps only the operations not started yet, and a write-only stream keeps the queues short.
 */
public final class PlaneScheduler {
    private static final int INITIAL_CAPACITY = 16;

    /** Per plane: when the issued operations (the one in progress and the priority ones behind it) end. */
    private final long[] issuedUntilNs;
    /** Per plane: when everything reserved on it ends (the last queued operation, else the issued ones). */
    private final long[] busyUntilNs;
    /** Per plane: how far priority operations have moved the queued ones back since they were recorded. */
    private final long[] shiftNs;
    /** Per plane: when the first queued operation starts, minus the shift at its recording. */
    private final long[] headStartNs;
    /**
     * Per plane: the ends of the queued operations, a ring, each minus the shift at its recording (kept
     * without their starts, which doubled the memory traffic of a GC-heavy run): an operation starts when the
     * one before it ends, unless it was queued behind an idle gap, which an entry {@code ~start} before it
     * records (rare: an operation issued for later than the plane is busy).
     */
    private final long[][] queuedEndNs;
    private final int[] head;
    private final int[] size;

    public PlaneScheduler(int planes) {
        issuedUntilNs = new long[planes];
        busyUntilNs = new long[planes];
        shiftNs = new long[planes];
        headStartNs = new long[planes];
        queuedEndNs = new long[planes][INITIAL_CAPACITY];
        head = new int[planes];
        size = new int[planes];
    }

    /**
     * When an operation issued at {@code atNs} behind everything on {@code plane} can start at the earliest.
     * {@code settledNs}: no read will be issued before this time any more (the host's commands arrive in time
     * order), so what has started by then can no longer be overtaken.
     */
    public long queuedStartNs(int plane, long atNs, long settledNs) {
        if (size[plane] > 0 && headStartNs[plane] + shiftNs[plane] < settledNs) {
            issueStartedBy(plane, settledNs);
        }
        return Math.max(atNs, busyUntilNs[plane]);
    }

    /**
     * Records an operation queued behind everything on {@code plane}, from {@link #queuedStartNs} with the
     * same {@code settledNs}.
     */
    public void appendQueued(int plane, long startNs, long endNs, long settledNs) {
        int n = size[plane];
        long shift = shiftNs[plane];
        if (n == 0) {
            if (startNs < settledNs) {
                // started already, so no read can overtake it: issued at once, nothing to keep
                issuedUntilNs[plane] = endNs;
                busyUntilNs[plane] = endNs;
                return;
            }
            headStartNs[plane] = startNs - shift;
        } else if (startNs > busyUntilNs[plane]) {
            n = push(plane, n, ~(startNs - shift));
        }
        push(plane, n, endNs - shift);
        busyUntilNs[plane] = endNs;
    }

    private int push(int plane, int n, long entry) {
        long[] ends = queuedEndNs[plane];
        if (n == ends.length) {
            ends = grow(plane);
        }
        ends[(head[plane] + n) & (ends.length - 1)] = entry;
        size[plane] = n + 1;
        return n + 1;
    }

    /**
     * When an operation issued at {@code atNs} ahead of the queue can start at the earliest: after the
     * operation in progress on {@code plane} at {@code atNs} and the priority operations issued before it.
     */
    public long priorityStartNs(int plane, long atNs) {
        issueStartedBy(plane, atNs);
        return Math.max(atNs, issuedUntilNs[plane]);
    }

    /**
     * Records an operation from {@link #priorityStartNs} that works on the plane for {@code serviceNs} and
     * holds it until {@code endNs} (a read's register until its data is out over a busy channel). The queued
     * operations move back by its overlap with them, at most {@code serviceNs}: waiting for the channel is
     * not plane work, and charging it to the queue would count the channel's backlog once per read.
     */
    public void insertPriority(int plane, long startNs, long serviceNs, long endNs) {
        if (startNs < issuedUntilNs[plane]) {
            throw new IllegalArgumentException("priority operation at " + startNs + " ns starts before the issued ones end ("
                    + issuedUntilNs[plane] + " ns)");
        }
        issuedUntilNs[plane] = endNs;
        if (size[plane] > 0) {
            long overlapNs = endNs - (headStartNs[plane] + shiftNs[plane]);
            if (overlapNs > 0) {
                long moveNs = Math.min(overlapNs, serviceNs);
                shiftNs[plane] += moveNs;
                busyUntilNs[plane] += moveNs;
            }
        }
        busyUntilNs[plane] = Math.max(busyUntilNs[plane], endNs);
    }

    /** When everything reserved on {@code plane} so far ends. */
    public long busyUntilNs(int plane) {
        return busyUntilNs[plane];
    }

    /** Entries (operations and gaps before them) queued on {@code plane} and not started as of the last look at it. */
    public int queuedOps(int plane) {
        return size[plane];
    }

    /** Moves the queued operations that start before {@code atNs} to the issued ones (they cannot be overtaken any more). */
    private void issueStartedBy(int plane, long atNs) {
        int n = size[plane];
        if (n == 0) {
            return;
        }
        long[] ends = queuedEndNs[plane];
        int mask = ends.length - 1;
        long shift = shiftNs[plane];
        int h = head[plane];
        long start = headStartNs[plane];
        long issued = issuedUntilNs[plane];
        while (n > 0) {
            long entry = ends[h];
            if (entry < 0) {
                start = ~entry; // the next operation starts after an idle gap
            } else if (start + shift < atNs) {
                start = entry;
                issued = Math.max(issued, entry + shift);
            } else {
                break;
            }
            h = (h + 1) & mask;
            n--;
        }
        head[plane] = h;
        size[plane] = n;
        headStartNs[plane] = start;
        issuedUntilNs[plane] = issued;
    }

    private long[] grow(int plane) {
        long[] ends = queuedEndNs[plane];
        int n = size[plane];
        long[] grown = new long[ends.length * 2];
        for (int i = 0; i < n; i++) {
            grown[i] = ends[(head[plane] + i) & (ends.length - 1)];
        }
        queuedEndNs[plane] = grown;
        head[plane] = 0;
        return grown;
    }
}
