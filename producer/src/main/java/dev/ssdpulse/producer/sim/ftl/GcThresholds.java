package dev.ssdpulse.producer.sim.ftl;

/**
 * When GC runs, in free blocks of the whole drive; each plane is held to its share (the plane's free blocks x
 * planes is compared with a threshold), as host writes stripe over every plane evenly.
 *
 * <ul>
 *   <li>Background GC ({@link GcPacer}) turns on when the drive's free blocks drop below {@code startFreeBlocks}
 *       and off once they reach {@code stopFreeBlocks} (firmware's start and stop watermarks: GC runs in bursts,
 *       which is why a drive's IOPS alternate between a GC-off and a GC-on level). While on, it copies on every
 *       plane below its share of the stop level, interleaved with the host's pages.</li>
 *   <li>Below {@code urgentFreeBlocks} (per plane: its share) a plane that must open a block for the host first
 *       finishes the victim it is cleaning (the foreground case): the host waits for one victim, never more.</li>
 *   <li>Idle GC cleans up to {@code idleTargetFreeBlocks} once the host has had no command outstanding for
 *       {@code idleAfterNs}, one victim per plane every {@code idleIntervalNs} at most; every
 *       {@code idleUrgentIntervalNs} instead (if >= 0) in a pause that begins with the free pool below {@code stopFreeBlocks} and victims
 *       that cost more copies than they free ({@link #idleUrgent}); never a victim costing more than {@code idleMaxCopyRatio} (if > 0) copies per unit
 *       freed.</li>
 * </ul>
 */
public record GcThresholds(
        int urgentFreeBlocks,
        int startFreeBlocks,
        int stopFreeBlocks,
        int idleTargetFreeBlocks,
        long idleAfterNs,
        long idleIntervalNs,
        long idleUrgentIntervalNs,
        double idleMaxCopyRatio) {

    /** No urgent idle-GC mode, no victim cost limit. */
    public GcThresholds(
            int urgentFreeBlocks,
            int startFreeBlocks,
            int stopFreeBlocks,
            int idleTargetFreeBlocks,
            long idleAfterNs,
            long idleIntervalNs) {
        this(
                urgentFreeBlocks,
                startFreeBlocks,
                stopFreeBlocks,
                idleTargetFreeBlocks,
                idleAfterNs,
                idleIntervalNs,
                -1,
                0);
    }

    /**
     * Whether a pause that begins with {@code freeBlocks} free blocks and victims costing {@code meanCopyRatio} unit
     * copies per unit freed (averaged over the planes) gets urgent idle GC: the preset has an urgent mode, the free
     * pool is below the background stop watermark (GC was due) and the victims cost more than they free (the drive is
     * on its write cliff: every host block waits for more copies than it brings).
     */
    public boolean idleUrgent(int freeBlocks, double meanCopyRatio) {
        return idleUrgentIntervalNs >= 0 && freeBlocks < stopFreeBlocks && meanCopyRatio > 1.0;
    }

    /** How long idle GC waits between rounds, in an urgent pause or not. */
    public long idleIntervalNs(boolean urgent) {
        return urgent ? idleUrgentIntervalNs : idleIntervalNs;
    }
}
