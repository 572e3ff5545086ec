package dev.ssdpulse.producer.sim.ftl;

/**
 * How much GC copying goes ahead of each host page on a plane: firmware's debt-proportional GC. Cleaning a victim
 * that holds v valid units of c copies v units to free c - v, so GC keeps pace with the host when it copies
 * v / (c - v) units per host unit (the victim's copy ratio); it copies {@code gain} times that, so the plane's free
 * blocks grow by (gain - 1) units per host unit while it runs. The gain rises linearly as the plane's free blocks
 * fall from the stop watermark to the urgent one, which throttles the host smoothly (its pages wait behind more
 * copies the less free space is left):
 *
 * <pre>
 *   gain = 1 + MAX_EXTRA_GAIN x (stop - free) / (stop - urgent)      free: the plane's free blocks x planes
 * </pre>
 *
 * so GC breaks even at the stop watermark and copies three times the break-even rate at the urgent one (the free
 * pool then refills twice as fast as the host drains it). The gain is at least 1 wherever GC runs, so while it
 * runs a plane's free blocks do not fall; and bounded, so a host page never waits behind more than three times
 * its break-even copies (a bounded latency, which an unbounded gain near the urgent watermark would not give).
 *
 * <p>On and off are decided for the whole drive (its free blocks against the start and stop watermarks,
 * {@link GcThresholds}), so the planes clean in the same bursts and the drive's IOPS show two levels, GC on and
 * GC off, rather than an average of planes in different states. A plane below its own share of the start
 * watermark copies whatever the drive's state: planes drift apart (victims differ), and one left without GC
 * while the drive as a whole has enough free blocks would reach the urgent watermark. A plane at or below the
 * urgent watermark ({@link #urgent}) also makes the host's next block on it wait for a whole victim; that is the
 * caller's.
 *
 * <p>The copies owed are kept as a credit per plane: the caller copies victim pages while the credit is
 * positive ({@link #owed}) and charges each page's units ({@link #spend}); the last page may overdraw it,
 * which the next host pages pay back. Pure bookkeeping, no timing.
 */
public final class GcPacer {
    /** The gain above break-even at the urgent watermark. */
    static final double MAX_EXTRA_GAIN = 2.0;

    private final int planes;
    private final long urgentFree;
    private final long startFree;
    private final long stopFree;
    private final double[] credit;
    private boolean on;

    public GcPacer(int planes, GcThresholds thresholds) {
        if (!(thresholds.urgentFreeBlocks() < thresholds.startFreeBlocks()
                && thresholds.startFreeBlocks() <= thresholds.stopFreeBlocks())) {
            throw new IllegalArgumentException("GC watermarks must satisfy urgent < start <= stop, got " + thresholds);
        }
        this.planes = planes;
        this.urgentFree = thresholds.urgentFreeBlocks();
        this.startFree = thresholds.startFreeBlocks();
        this.stopFree = thresholds.stopFreeBlocks();
        this.credit = new double[planes];
    }

    /** Updates the drive's GC state from its free blocks: on below the start watermark, off at the stop one. */
    public void observe(int driveFreeBlocks) {
        if (on) {
            on = driveFreeBlocks < stopFree;
        } else {
            on = driveFreeBlocks < startFree;
        }
    }

    public boolean on() {
        return on;
    }

    /** True if a plane with {@code planeFreeBlocks} is at or below its share of the urgent watermark. */
    public boolean urgent(int planeFreeBlocks) {
        return (long) planeFreeBlocks * planes <= urgentFree;
    }

    /**
     * A host page of {@code hostUnits} units is about to be programmed on {@code plane}, which has
     * {@code planeFreeBlocks} and is cleaning a victim of copy ratio {@code copyRatio} (valid / freed units).
     *
     * @return the copy units owed on the plane now (copy victim pages while positive)
     */
    public double owed(int plane, int hostUnits, int planeFreeBlocks, double copyRatio) {
        long free = (long) planeFreeBlocks * planes;
        if (!copies(free)) {
            credit[plane] = Math.min(0, credit[plane]);
            return credit[plane];
        }
        credit[plane] += gain(free) * hostUnits * copyRatio;
        return credit[plane];
    }

    /** The gain at a plane's free blocks x planes (see the class comment). */
    public double gain(long free) {
        long f = Math.min(Math.max(free, urgentFree), stopFree);
        return 1 + MAX_EXTRA_GAIN * (stopFree - f) / (stopFree - urgentFree);
    }

    /** Charges {@code units} copied on {@code plane}; @return the credit left */
    public double spend(int plane, int units) {
        credit[plane] -= units;
        return credit[plane];
    }

    /**
     * Whether a plane with {@code planeFreeBlocks} cleans now: below its share of the stop watermark while the
     * drive's GC is on, below its share of the start watermark in any case.
     */
    public boolean cleans(int planeFreeBlocks) {
        return copies((long) planeFreeBlocks * planes);
    }

    private boolean copies(long free) {
        return free < (on ? stopFree : startFree);
    }
}
