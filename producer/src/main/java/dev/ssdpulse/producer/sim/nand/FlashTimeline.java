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
 */
public final class FlashTimeline {
    private final NandTiming timing;
    private final int[] channelOfPlane;
    private final long[] planeBusyUntilNs;
    private final long[] channelBusyUntilNs;
    private final double hostLinkNsPerByte;
    private long hostLinkBusyUntilNs;
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
        this.planeBusyUntilNs = new long[planes];
        this.channelBusyUntilNs = new long[geometry.channels()];
        this.hostLinkNsPerByte = 1000.0 / hostLinkMBps;
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
        if (bytes != lastReadBytes) {
            lastReadBytes = bytes;
            lastReadTransferNs = timing.channelTransferNs(bytes);
        }
        long arrayDoneNs = Math.max(atNs, planeBusyUntilNs[plane]) + timing.readNs();
        long doneNs = fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, arrayDoneNs, lastReadTransferNs);
        planeBusyUntilNs[plane] = doneNs; // the page register is held until the data is out
        return doneNs;
    }

    /** Data in over the channel (into the cache register), then the array program. */
    public long program(int plane, int bytes, long atNs) {
        if (!enabled) {
            return atNs;
        }
        if (bytes != lastProgramBytes) {
            lastProgramBytes = bytes;
            lastProgramTransferNs = timing.channelTransferNs(bytes);
        }
        long inDoneNs = fluid(channelBusyUntilNs, channelOfPlane[plane], atNs, atNs, lastProgramTransferNs);
        long doneNs = Math.max(inDoneNs, planeBusyUntilNs[plane]) + timing.programNs();
        planeBusyUntilNs[plane] = doneNs;
        return doneNs;
    }

    public long erase(int plane, long atNs) {
        if (!enabled) {
            return atNs;
        }
        long doneNs = Math.max(atNs, planeBusyUntilNs[plane]) + timing.eraseNs();
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
