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
 *       {@code idleAfterNs}, one victim per plane every {@code idleIntervalNs} at most.</li>
 * </ul>
 */
public record GcThresholds(
        int urgentFreeBlocks,
        int startFreeBlocks,
        int stopFreeBlocks,
        int idleTargetFreeBlocks,
        long idleAfterNs,
        long idleIntervalNs) {}
