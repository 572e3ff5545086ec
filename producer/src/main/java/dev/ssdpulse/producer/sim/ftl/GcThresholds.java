package dev.ssdpulse.producer.sim.ftl;

/**
 * When GC runs, in free blocks. Below {@code backgroundFreeBlocks} every host block allocation also
 * cleans one victim without making the host wait (the work still occupies planes and channels). Below
 * {@code forcedFreeBlocks} GC cleans until the threshold is met again and the host write waits for it
 * (the foreground stall). Idle GC cleans up to {@code idleTargetFreeBlocks} once the host has had no
 * command outstanding for {@code idleAfterNs}.
 */
public record GcThresholds(int backgroundFreeBlocks, int forcedFreeBlocks, int idleTargetFreeBlocks, long idleAfterNs) {
}
