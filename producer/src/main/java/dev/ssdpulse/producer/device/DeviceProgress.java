package dev.ssdpulse.producer.device;

/**
 * A progress tick (about once per second).
 *
 * @param elapsedNs      since run start
 * @param phaseIndex     current phase
 * @param phaseName      current phase's scheduled name
 * @param totalIos       I/Os completed in the run so far
 * @param totalBytes     bytes transferred in the run so far (reads + writes + trims)
 * @param errors         I/Os completed with a non-zero status so far
 * @param intervalIops   I/Os per second since the previous tick
 * @param intervalMBps   MB/s (10^6 bytes) since the previous tick
 */
public record DeviceProgress(
        long elapsedNs,
        int phaseIndex,
        String phaseName,
        long totalIos,
        long totalBytes,
        long errors,
        double intervalIops,
        double intervalMBps) {}
