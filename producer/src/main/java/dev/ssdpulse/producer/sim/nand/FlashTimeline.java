package dev.ssdpulse.producer.sim.nand;

/**
 * Resource reservations of the flash back end, in virtual ns. Every plane and every channel has a
 * busy-until time; an operation issued at time t starts when its resources are free, so operations on
 * one resource queue in issue order (FIFO, non-preemptive: a read issued behind a 3 ms erase waits for
 * it, as on drives without erase suspend). Because the simulator issues operations in non-decreasing
 * virtual time, computing the completion at issue is exact for this FIFO model and needs no per-NAND-op
 * events, which is what makes a million host I/Os per second possible.
 *
 * <p>Buses (channels and the host link) are modelled as fluid servers: their capacity is consumed from
 * the time an operation is issued, and the transfer ends no earlier than data-ready + transfer time.
 * A strict busy-until on a bus would let one read whose array phase ends far in the future (behind a
 * queue on its plane) reserve the bus then, leaving a hole no other plane's transfer could use; real
 * controllers reorder bus transfers freely. Error bound: a transfer can overlap others by at most its
 * own duration (tens of us), while the long-run bus capacity is exact.
 *
 * <p>Planes of one die are separate resources: this assumes the controller always pairs operations into
 * multi-plane commands, which drives do for striped writes and GC. It slightly overstates parallelism
 * for isolated reads on two planes of a die (error bound: at most planesPerDie x on a single die's read
 * throughput; channel and host-link limits still apply).
 *
 * <p>Background (GC) work is not reserved at once: each plane has a FIFO of GC operations (page reads,
 * page programs, erases) that run one at a time in the plane's idle time, between host operations. A host
 * operation issued on a plane waits for the GC operation in progress, not for the queue behind it, so GC
 * interleaves with host commands at page granularity. To keep GC's cost, a plane's queue may hold at most
 * {@code backlogLimitNs} of work: a host program on a plane whose queue is longer first waits for the
 * excess (the GC-on state of a drive at steady state); host reads never do (reads take priority over
 * queued GC work). GC operations use no channel time (the queue runs the array part and the page's own
 * transfer as one duration; error: GC's share of channel bandwidth, small on drives whose planes, not
 * channels, limit writes).
 */
public final class FlashTimeline {
    private final NandTiming timing;
    private final int[] channelOfPlane;
    private final long[] planeBusyUntilNs;
    private final long[] channelBusyUntilNs;
    private final double hostLinkNsPerByte;
    private long hostLinkBusyUntilNs;
    private boolean enabled = true;
    // per plane: queued GC operation durations (a growable ring), their sum, and when the op in progress ends
    private final long[][] gcOps;
    private final int[] gcHead;
    private final int[] gcSize;
    private final long[] gcQueuedNs;
    private final long[] gcFreeAtNs;
    private final long backlogLimitNs;

    /**
     * @param hostLinkMBps host interface payload rate (SATA 6G ~550 MB/s, PCIe 3.0 x4 ~3500 MB/s)
     */
    public FlashTimeline(NandGeometry geometry, NandTiming timing, double hostLinkMBps) {
        this(geometry, timing, hostLinkMBps, geometry.pagesPerBlock() * timing.programNs());
    }

    /** @param backlogLimitNs GC work a plane may hold queued before host programs on it wait for the excess */
    public FlashTimeline(NandGeometry geometry, NandTiming timing, double hostLinkMBps, long backlogLimitNs) {
        this.timing = timing;
        this.backlogLimitNs = backlogLimitNs;
        int planes = geometry.planes();
        this.channelOfPlane = new int[planes];
        for (int p = 0; p < planes; p++) {
            channelOfPlane[p] = geometry.channelOfDie(geometry.dieOfPlane(p));
        }
        this.planeBusyUntilNs = new long[planes];
        this.channelBusyUntilNs = new long[geometry.channels()];
        this.hostLinkNsPerByte = 1000.0 / hostLinkMBps;
        this.gcOps = new long[planes][64];
        this.gcHead = new int[planes];
        this.gcSize = new int[planes];
        this.gcQueuedNs = new long[planes];
        this.gcFreeAtNs = new long[planes];
    }

    /**
     * Untimed mode for the static prefill: operations complete at their issue time and reserve nothing,
     * which is what a sequential fill followed by enough idle time to finish it looks like.
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** Page read into the register, then {@code bytes} out over the channel. */
    public long read(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long arrayDoneNs = Math.max(atNs, planeFreeNs(plane, atNs, false)) + timing.readNs();
        long doneNs = fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, arrayDoneNs, timing.channelTransferNs(bytes));
        planeBusyUntilNs[plane] = doneNs; // the page register is held until the data is out
        return doneNs;
    }

    /** Data in over the channel (into the cache register), then the array program. */
    public long program(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long inDoneNs = fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, atNs, timing.channelTransferNs(bytes));
        long doneNs = Math.max(inDoneNs, planeFreeNs(plane, atNs, true)) + timing.programNs();
        planeBusyUntilNs[plane] = doneNs;
        return doneNs;
    }

    /** A GC page read of {@code bytes} queued on {@code plane}; @return when the queue would finish it */
    public long gcRead(int plane, int bytes, long atNs) {
        return enqueue(plane, timing.readNs() + timing.channelTransferNs(bytes), atNs);
    }

    /** A GC page program queued on {@code plane}. */
    public long gcProgram(int plane, int bytes, long atNs) {
        return enqueue(plane, timing.channelTransferNs(bytes) + timing.programNs(), atNs);
    }

    /** A GC erase queued on {@code plane}. */
    public long gcErase(int plane, long atNs) {
        return enqueue(plane, timing.eraseNs(), atNs);
    }

    /**
     * Runs everything queued on {@code plane} now, ahead of later host operations (foreground GC: the host
     * waits for it). @return when the plane's queue is empty
     */
    public long flushGc(int plane, long atNs) {
        if (!enabled) {
            return atNs;
        }
        drain(plane, atNs);
        long t = Math.max(Math.max(planeBusyUntilNs[plane], gcFreeAtNs[plane]), atNs) + gcQueuedNs[plane];
        gcSize[plane] = 0;
        gcQueuedNs[plane] = 0;
        gcFreeAtNs[plane] = t;
        return t;
    }

    /** GC work queued on {@code plane} (ns), after what has run by {@code atNs}. */
    public long gcBacklogNs(int plane, long atNs) {
        drain(plane, atNs);
        return gcQueuedNs[plane];
    }

    private long enqueue(int plane, long durationNs, long atNs) {
        if (!enabled) {
            return atNs;
        }
        drain(plane, atNs);
        if (gcSize[plane] == gcOps[plane].length) {
            long[] old = gcOps[plane];
            long[] grown = new long[old.length * 2];
            for (int i = 0; i < gcSize[plane]; i++) {
                grown[i] = old[(gcHead[plane] + i) % old.length];
            }
            gcOps[plane] = grown;
            gcHead[plane] = 0;
        }
        long[] ring = gcOps[plane];
        ring[(gcHead[plane] + gcSize[plane]) % ring.length] = durationNs;
        gcSize[plane]++;
        gcQueuedNs[plane] += durationNs;
        // projected completion if nothing else used the plane
        return Math.max(Math.max(planeBusyUntilNs[plane], gcFreeAtNs[plane]), atNs) + gcQueuedNs[plane];
    }

    /** Starts every queued GC op that can start before {@code atNs} (in the plane's idle time). */
    private void drain(int plane, long atNs) {
        long start = Math.max(planeBusyUntilNs[plane], gcFreeAtNs[plane]);
        long[] ring = gcOps[plane];
        while (gcSize[plane] > 0 && start < atNs) {
            long d = ring[gcHead[plane]];
            gcHead[plane] = gcHead[plane] + 1 == ring.length ? 0 : gcHead[plane] + 1;
            gcSize[plane]--;
            gcQueuedNs[plane] -= d;
            start += d;
        }
        gcFreeAtNs[plane] = Math.max(gcFreeAtNs[plane], start);
    }

    /**
     * When a host operation issued at {@code atNs} can start on {@code plane}: after the host operations
     * before it and the GC op in progress; a program also after the GC backlog beyond the limit.
     */
    private long planeFreeNs(int plane, long atNs, boolean program) {
        drain(plane, atNs);
        long free = Math.max(planeBusyUntilNs[plane], gcFreeAtNs[plane]);
        if (program && gcQueuedNs[plane] > backlogLimitNs) {
            // GC falls behind: the excess runs first, op by op
            long start = Math.max(free, atNs);
            long[] ring = gcOps[plane];
            while (gcQueuedNs[plane] > backlogLimitNs) {
                long d = ring[gcHead[plane]];
                gcHead[plane] = gcHead[plane] + 1 == ring.length ? 0 : gcHead[plane] + 1;
                gcSize[plane]--;
                gcQueuedNs[plane] -= d;
                start += d;
            }
            gcFreeAtNs[plane] = start;
            free = start;
        }
        return free;
    }

    public long erase(int plane, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long doneNs = Math.max(atNs, planeFreeNs(plane, atNs, true)) + timing.eraseNs();
        planeBusyUntilNs[plane] = doneNs;
        return doneNs;
    }

    /**
     * Payload over the host interface (shared by both directions, as on SATA), issued at {@code issueNs}
     * with the data ready at {@code readyNs}.
     */
    public long hostTransfer(int bytes, long issueNs, long readyNs) {
        if (!enabled) {
            return readyNs;
        }
        long xferNs = (long) (bytes * hostLinkNsPerByte);
        hostLinkBusyUntilNs = Math.max(hostLinkBusyUntilNs, issueNs) + xferNs;
        return Math.max(readyNs + xferNs, hostLinkBusyUntilNs);
    }

    private static long fluid(long[] busyUntilNs, int index, long issueNs, long readyNs, long transferNs) {
        long consumed = Math.max(busyUntilNs[index], issueNs) + transferNs;
        busyUntilNs[index] = consumed;
        return Math.max(readyNs + transferNs, consumed);
    }
}
