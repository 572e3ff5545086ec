package dev.ssdpulse.producer.sim.config;

/**
 * FTL policy. Thresholds are in free blocks of the whole drive (see
 * {@link dev.ssdpulse.producer.sim.ftl.GcThresholds}):
 * background GC starts below {@code backgroundGcFreeBlocks} and stops at {@code backgroundGcStopFreeBlocks}, a
 * plane at or below its share of {@code forcedGcFreeBlocks} makes the host wait for a victim;
 * {@code dChoices} is used by D_CHOICES only; {@code compressionRatio} = the best compression the
 * controller achieves (compressed / original size; 1.0 for a controller that does not compress): each write
 * compresses as its data pattern allows, down to that (see
 * {@link dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts}); {@code wearLevellingEraseSpread} > 0 turns on static
 * wear levelling at that erase-count spread
 * (see {@link dev.ssdpulse.producer.sim.ftl.wear.StaticWearLeveller}). {@code idleGcIntervalNs}: idle GC
 * cleans one victim per plane and then waits this long before the next round (firmware runs idle GC at a
 * bounded rate, so a longer pause reclaims more); 0 = back to back at full flash speed.
 * {@code idleGcUrgentIntervalNs} >= 0: when the host goes idle with the free pool below
 * {@code backgroundGcStopFreeBlocks} and the planes' next victims costing more unit copies than they free (the drive
 * is on its write cliff), idle GC paces its rounds by this interval instead for that pause
 * (firmware works harder when reclaiming space has become expensive); -1 = no such mode. {@code idleGcMaxCopyRatio} > 0: idle GC takes no victim that costs more than this many unit
 * copies per unit freed (firmware spends no erase cycles compacting nearly full blocks while idle), and stops on a
 * plane whose cheapest victim costs more; 0 = no limit.
 */
public record FtlSpec(
        VictimPolicy victimSelector,
        int dChoices,
        int backgroundGcFreeBlocks,
        int forcedGcFreeBlocks,
        int idleGcTargetFreeBlocks,
        long idleGcAfterNs,
        double compressionRatio,
        int wearLevellingEraseSpread,
        long idleGcIntervalNs,
        int backgroundGcStopFreeBlocks,
        long idleGcUrgentIntervalNs,
        double idleGcMaxCopyRatio) {

    /** Without an urgent idle-GC mode and without a victim cost limit. */
    public FtlSpec(
            VictimPolicy victimSelector,
            int dChoices,
            int backgroundGcFreeBlocks,
            int forcedGcFreeBlocks,
            int idleGcTargetFreeBlocks,
            long idleGcAfterNs,
            double compressionRatio,
            int wearLevellingEraseSpread,
            long idleGcIntervalNs,
            int backgroundGcStopFreeBlocks) {
        this(
                victimSelector,
                dChoices,
                backgroundGcFreeBlocks,
                forcedGcFreeBlocks,
                idleGcTargetFreeBlocks,
                idleGcAfterNs,
                compressionRatio,
                wearLevellingEraseSpread,
                idleGcIntervalNs,
                backgroundGcStopFreeBlocks,
                -1,
                0);
    }

    /** This policy with other idle-GC pacing: the intervals (ns) and the victim cost limit, as above. */
    public FtlSpec withIdleGcPacing(long intervalNs, long urgentIntervalNs, double maxCopyRatio) {
        return new FtlSpec(
                victimSelector,
                dChoices,
                backgroundGcFreeBlocks,
                forcedGcFreeBlocks,
                idleGcTargetFreeBlocks,
                idleGcAfterNs,
                compressionRatio,
                wearLevellingEraseSpread,
                intervalNs,
                backgroundGcStopFreeBlocks,
                urgentIntervalNs,
                maxCopyRatio);
    }
}
