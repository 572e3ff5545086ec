package dev.ssdpulse.producer.sim.ftl.admission;

/**
 * Whether a host page program may overtake the GC work queued on its plane. Firmware runs GC
 * in the background, between host commands, as long as enough erased blocks are left, and gives it priority
 * over host writes (foreground, "urgent" GC) once they run low, so the host cannot outrun reclamation. The
 * model counts a plane's erased free blocks as its free blocks minus the erases still queued on it (GC returns
 * a victim to the free pool when it books the victim's erase, which host programs overtaking it delay), and
 * admits a host program ahead of the queue while that count x planes is at least the drive's forced-GC
 * watermark ({@code GcThresholds.forcedFreeBlocks()}) and at least 1; otherwise the program queues behind
 * everything booked on the plane, erases included.
 *
 * <p>Why the second bound is enough for the free pool never to run dry: a plane's free pool is a FIFO of blocks
 * in the order they were released, and its queued erases run in that order too, so the queued erases are those
 * of the newest releases. With at least one more free block than queued erases, the block at the head of the
 * pool (the next one allocated) and every block allocated before it have their erase issued; a program
 * admitted ahead of the queue still runs after the issued operations, so it never lands on a block that is not
 * erased yet. The rule is the invariant: a program is admitted only with an erased free block to spare,
 * which {@link #lowestErasedFreeAdmitted} reports (and the tests check).
 */
public final class HostWriteAdmission {
    /** The two things admission looks at; the block manager and the flash timeline in the drive. */
    public interface PlaneState {
        /** Blocks in the plane's free pool (erase booked or done). */
        int freeBlocks(int plane);

        /** Erases booked on the plane that have not started by {@code atNs}. */
        int queuedErases(int plane, long atNs);
    }

    private final PlaneState state;
    private final int planes;
    private final int urgentFreeBlocks;
    private long admittedPrograms;
    private long urgentPrograms;
    private int lowestErasedFreeAdmitted = Integer.MAX_VALUE;

    /**
     * @param urgentFreeBlocks the drive's low watermark of erased free blocks (each plane is held to its share,
     *                         as the GC thresholds are): below it host programs wait for GC
     */
    public HostWriteAdmission(PlaneState state, int planes, int urgentFreeBlocks) {
        this.state = state;
        this.planes = planes;
        this.urgentFreeBlocks = urgentFreeBlocks;
    }

    /** True if a host page program on {@code plane} at {@code atNs} may go ahead of the queued GC work. */
    public boolean mayOvertake(int plane, long atNs) {
        int erasedFree = state.freeBlocks(plane) - state.queuedErases(plane, atNs);
        if (!toSpare(erasedFree)) {
            urgentPrograms++;
            return false;
        }
        admittedPrograms++;
        lowestErasedFreeAdmitted = Math.min(lowestErasedFreeAdmitted, erasedFree);
        return true;
    }

    /**
     * The same rule for the programs the host path makes for the controller's bookkeeping (the parity page of a
     * stripe of host pages, a map segment a host write or TRIM evicted from the map cache): they belong to the
     * host's write stream (firmware writes them as part of it, and a map-cache slot is not reused before its
     * dirty segment is out), so they go ahead of GC with the host pages, and behind it in the urgent case.
     * Not counted among the host programs above (they go outside the data pool's blocks).
     */
    public boolean mayBookkeepingOvertake(int plane, long atNs) {
        return toSpare(state.freeBlocks(plane) - state.queuedErases(plane, atNs));
    }

    private boolean toSpare(int erasedFree) {
        return erasedFree >= 1 && (long) erasedFree * planes >= urgentFreeBlocks;
    }

    /** Host programs admitted ahead of the queued work so far. */
    public long admittedPrograms() {
        return admittedPrograms;
    }

    /** Host programs that queued behind GC (erased free blocks below the watermark, or none to spare) so far. */
    public long urgentPrograms() {
        return urgentPrograms;
    }

    /**
     * The fewest erased free blocks a plane had when a host program was admitted ahead of the queue (MAX_VALUE if none
     * was).
     */
    public int lowestErasedFreeAdmitted() {
        return lowestErasedFreeAdmitted;
    }
}
