package dev.ssdpulse.producer.sim.ftl;

import dev.ssdpulse.producer.sim.ftl.admission.HostWriteAdmission;

/**
 * When GC runs, in free blocks of the whole drive; each plane is held to its share (the plane's free
 * blocks x planes is compared with the threshold). Below {@code backgroundFreeBlocks} every host block
 * allocation on a plane also cleans victims of that plane until at least one block is regained, without
 * making the host wait (the work runs between host operations on the plane; once its queued erases leave
 * fewer erased free blocks than {@code forcedFreeBlocks}, the host's pages queue behind it and the write
 * buffer fills: {@link HostWriteAdmission}). Below
 * {@code forcedFreeBlocks} GC cleans until the threshold is met again and the host write waits for it
 * (the foreground stall). Idle GC cleans up to {@code idleTargetFreeBlocks} once the host has had no
 * command outstanding for {@code idleAfterNs}, one victim per plane every {@code idleIntervalNs} at most.
 */
public record GcThresholds(
        int backgroundFreeBlocks,
        int forcedFreeBlocks,
        int idleTargetFreeBlocks,
        long idleAfterNs,
        long idleIntervalNs) {}
