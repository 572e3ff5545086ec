package dev.ssdpulse.streams.waf;

/**
 * Write amplification between two consecutive usable SMART samples, and cumulative since the run's first one.
 * Host and NAND figures are in {@code unit} ("B" but for drives that count NAND pages or a vendor unit). Cause
 * deltas are null when either sample lacks that cause (or its counter went backwards).
 *
 * @param waWindow         nand delta / host delta; null when the host delta is 0
 * @param windowBounds     the range of waWindow the counters' steps allow
 * @param waCumulative     nand cumulative / host cumulative; null while the host cumulative is 0
 * @param cumulativeBounds the range of waCumulative the counters' steps allow (one step per unbroken chain)
 */
public record WaInterval(
        long fromTimeNs,
        long toTimeNs,
        String unit,
        long hostResolution,
        long nandResolution,
        long hostBytesWrittenDelta,
        long nandBytesWrittenDelta,
        Long nandBytesWrittenHostDelta,
        Long nandBytesWrittenGcDelta,
        Long nandBytesWrittenWearLevelingDelta,
        Long nandBytesWrittenMetadataDelta,
        Double waWindow,
        WaBounds windowBounds,
        long hostBytesWrittenCumulative,
        long nandBytesWrittenCumulative,
        Double waCumulative,
        WaBounds cumulativeBounds,
        Long freeBlocks) {

    static Double ratio(long nand, long host) {
        return host == 0 ? null : (double) nand / host;
    }
}
