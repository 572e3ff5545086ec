package dev.ssdpulse.producer.sim.config;

/**
 * FTL policy. Thresholds are in free blocks (see {@link dev.ssdpulse.producer.sim.ftl.GcThresholds});
 * {@code dChoices} is used by D_CHOICES only; {@code compressionRatio} = the best compression the
 * controller achieves (compressed / original size; 1.0 for a controller that does not compress): each write
 * compresses as its data pattern allows, down to that (see
 * {@link dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts}); {@code wearLevellingEraseSpread} > 0 turns on static
 * wear levelling at that erase-count spread
 * (see {@link dev.ssdpulse.producer.sim.ftl.wear.StaticWearLeveller}). {@code idleGcIntervalNs}: idle GC
 * cleans one victim per plane and then waits this long before the next round (firmware runs idle GC at a
 * bounded rate, so a longer pause reclaims more); 0 = back to back at full flash speed.
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
        long idleGcIntervalNs) {}
