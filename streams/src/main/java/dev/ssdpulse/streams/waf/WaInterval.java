package dev.ssdpulse.streams.waf;

/**
 * Write amplification between two consecutive usable SMART samples, and cumulative since the run's first one.
 * Cause deltas are null when either sample lacks that cause (or its counter went backwards).
 *
 * @param waWindow     nand delta / host delta; null when the host delta is 0
 * @param waCumulative nand cumulative / host cumulative; null while the host cumulative is 0
 */
public record WaInterval(
        long fromTimeNs,
        long toTimeNs,
        long hostBytesWrittenDelta,
        long nandBytesWrittenDelta,
        Long nandBytesWrittenHostDelta,
        Long nandBytesWrittenGcDelta,
        Long nandBytesWrittenWearLevelingDelta,
        Long nandBytesWrittenMetadataDelta,
        Double waWindow,
        long hostBytesWrittenCumulative,
        long nandBytesWrittenCumulative,
        Double waCumulative,
        Long freeBlocks) {

    static Double ratio(long nand, long host) {
        return host == 0 ? null : (double) nand / host;
    }
}
