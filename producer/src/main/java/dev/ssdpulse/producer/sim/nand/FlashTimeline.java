package dev.ssdpulse.producer.sim.nand;

/**
 * Resource reservations of the flash back end, in virtual ns. Every plane and every channel has a
 * busy-until time; an operation issued at time t starts when its resources are free, so operations on
 * one resource queue in issue order, host reads excepted (below); nothing preempts an operation once it has
 * started (a read issued during a 3 ms erase waits for it, as on drives without erase suspend). Because the
 * simulator issues operations in non-decreasing virtual time, computing the completion at issue is exact
 * for this FIFO model and needs no per-NAND-op events, which is what makes a million host I/Os per second
 * possible (reads overtaking queued work bend this: see {@link PlaneScheduler} for the bound).
 *
 * <p>Buses (channels and the host link) are modelled as fluid servers: their capacity is consumed from
 * the time an operation is issued, and the transfer ends no earlier than data-ready + transfer time.
 * A strict busy-until on a bus would let one read whose array phase ends far in the future (behind a
 * queue on its plane) reserve the bus then, leaving a hole no other plane's transfer could use; real
 * controllers reorder bus transfers freely. Error bound: a transfer can overlap others by at most its
 * own duration (tens of us), while the long-run bus capacity is exact.
 *
 * <p>Order on a plane ({@link PlaneScheduler}): host reads ({@link #read}) and the host path's page programs
 * (data, and the parity and map pages host writes cause) admitted ahead of GC ({@link #hostProgram}) overtake
 * the operations queued on their plane and wait only for the one in progress (and the host operations before
 * them); everything else (GC page reads ({@link #queuedRead}), copies and erases, GC's parity and map pages,
 * and the host path's programs while the drive is short of erased blocks ({@link #program})) queues in issue
 * order. So GC, reserved page by page when it runs,
 * interleaves with host commands at page granularity. Whether a host program may overtake is the FTL's
 * decision (it knows the free blocks; this timeline counts the erases not started yet,
 * {@link #queuedErases}): when the erased free blocks run low, host programs queue behind the GC work booked
 * before them, so host writes cannot outrun reclamation (the write buffer fills and the host waits).
 *
 * <p>Planes of one die are separate resources: this assumes the controller always pairs operations into
 * multi-plane commands, which drives do for striped writes and GC. It slightly overstates parallelism
 * for isolated reads on two planes of a die (error bound: at most planesPerDie x on a single die's read
 * throughput; channel and host-link limits still apply).
 */
public final class FlashTimeline {
    private final NandTiming timing;
    private final int[] channelOfPlane;
    private final PlaneScheduler scheduler;
    private final long[] channelBusyUntilNs;
    /**
     * Per channel: the transfers of host reads and admitted host programs alone, which go ahead of the queued
     * operations' transfers.
     */
    private final long[] channelHostBusyUntilNs;

    private final double hostLinkNsPerByte;
    private long hostLinkBusyUntilNs;
    /** The latest host command's issue time: host commands (and so host reads) arrive in time order. */
    private long hostIssuedNs;

    private boolean enabled = true;
    // the channel time of the last read and program size: a double division per NAND op showed as 3 % of a
    // GC-heavy run, and nearly every program moves one page and most reads a whole page
    private int lastReadBytes = -1;
    private long lastReadTransferNs;
    private int lastProgramBytes = -1;
    private long lastProgramTransferNs;

    /**
     * @param hostLinkMBps host interface payload rate (SATA 6G ~550 MB/s, PCIe 3.0 x4 ~3500 MB/s)
     */
    public FlashTimeline(NandGeometry geometry, NandTiming timing, double hostLinkMBps) {
        this.timing = timing;
        int planes = geometry.planes();
        this.channelOfPlane = new int[planes];
        for (int p = 0; p < planes; p++) {
            channelOfPlane[p] = geometry.channelOfDie(geometry.dieOfPlane(p));
        }
        this.scheduler = new PlaneScheduler(planes);
        this.channelBusyUntilNs = new long[geometry.channels()];
        this.channelHostBusyUntilNs = new long[geometry.channels()];
        this.hostLinkNsPerByte = 1000.0 / hostLinkMBps;
    }

    /**
     * Untimed mode for the static prefill: operations complete at their issue time and reserve nothing,
     * which is what a sequential fill followed by enough idle time to finish it looks like.
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * A host page read: into the register ahead of the operations queued on the plane (after the one in
     * progress), then {@code bytes} out over the channel.
     */
    public long read(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long startNs = scheduler.priorityStartNs(plane, atNs);
        transferNsFor(bytes);
        // the channel serves host reads first too: the read waits for other reads' transfers only, and the
        // capacity it takes moves the queued transfers back
        int channel = channelOfPlane[plane];
        long doneNs = fluid(channelHostBusyUntilNs, channel, atNs, startNs + timing.readNs(), lastReadTransferNs);
        channelBusyUntilNs[channel] = Math.max(channelBusyUntilNs[channel], atNs) + lastReadTransferNs;
        scheduler.insertPriority(
                plane, startNs, timing.readNs() + lastReadTransferNs, doneNs); // register held until the data is out
        return doneNs;
    }

    /** A background (GC) page read: queued behind everything issued on the plane so far, as programs and erases are. */
    public long queuedRead(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long startNs = scheduler.queuedStartNs(plane, atNs, hostIssuedNs);
        long doneNs = readDoneNs(plane, bytes, atNs, startNs);
        scheduler.appendQueued(plane, startNs, doneNs, hostIssuedNs);
        return doneNs;
    }

    private long readDoneNs(int plane, int bytes, long atNs, long startNs) {
        transferNsFor(bytes);
        return fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, startNs + timing.readNs(), lastReadTransferNs);
    }

    private void transferNsFor(int readBytes) {
        if (readBytes != lastReadBytes) {
            lastReadBytes = readBytes;
            lastReadTransferNs = timing.channelTransferNs(readBytes);
        }
    }

    /**
     * Data in over the channel (into the cache register), then the array program, queued behind everything
     * on the plane (GC copies and their parity and map pages, host-path pages while erased blocks are short).
     */
    public long program(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        programTransferNsFor(bytes);
        long inDoneNs = fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, atNs, lastProgramTransferNs);
        long startNs = Math.max(inDoneNs, scheduler.queuedStartNs(plane, atNs, hostIssuedNs));
        long doneNs = startNs + timing.programNs();
        scheduler.appendQueued(plane, startNs, doneNs, hostIssuedNs);
        return doneNs;
    }

    /**
     * A host page program admitted ahead of the queued work: its data goes over the channel ahead of the queued
     * transfers, and it is issued to the plane when the data is in, behind the operation in progress then
     * (and host operations issued before it); the queued operations move back by the program time.
     */
    public long hostProgram(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        programTransferNsFor(bytes);
        int channel = channelOfPlane[plane];
        long inDoneNs = fluid(channelHostBusyUntilNs, channel, atNs, atNs, lastProgramTransferNs);
        channelBusyUntilNs[channel] = Math.max(channelBusyUntilNs[channel], atNs) + lastProgramTransferNs;
        long startNs = scheduler.priorityStartNs(plane, inDoneNs);
        long doneNs = startNs + timing.programNs();
        scheduler.insertPriority(plane, startNs, timing.programNs(), doneNs);
        return doneNs;
    }

    private void programTransferNsFor(int bytes) {
        if (bytes != lastProgramBytes) {
            lastProgramBytes = bytes;
            lastProgramTransferNs = timing.channelTransferNs(bytes);
        }
    }

    public long erase(int plane, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long startNs = scheduler.queuedStartNs(plane, atNs, hostIssuedNs);
        long doneNs = startNs + timing.eraseNs();
        scheduler.appendQueued(plane, startNs, doneNs, hostIssuedNs, true);
        return doneNs;
    }

    /**
     * Erases reserved on {@code plane} that will not have started by {@code atNs} (a host program issued then
     * could overtake them): those blocks are counted free but are not erased yet. 0 in untimed mode.
     */
    public int queuedErases(int plane, long atNs) {
        return scheduler.queuedErases(plane, atNs);
    }

    /**
     * Payload over the host interface (shared by both directions, as on SATA), issued at {@code issueNs}
     * with the data ready at {@code readyNs}.
     */
    public long hostTransfer(int bytes, long issueNs, long readyNs) {
        if (!enabled) {
            return readyNs;
        }
        hostIssuedNs = Math.max(hostIssuedNs, issueNs);
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
