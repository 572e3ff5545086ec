package dev.ssdpulse.streams.waf;

/**
 * One SMART-style counter sample, as plain values. Counters are cumulative since some origin (device
 * manufacture or simulator start); any field the source does not report is null.
 *
 * @param timeNs                 sample time, ns since run start
 * @param hostBytesWritten       bytes written by the host
 * @param nandBytesWritten       bytes programmed to NAND (all causes); when null, the sum of the causes is used
 *                               if at least one cause is reported
 * @param nandBytesWrittenHost   NAND bytes programmed for host data
 * @param nandBytesWrittenGc     NAND bytes programmed by garbage collection
 * @param nandBytesWrittenWearLeveling NAND bytes programmed by wear levelling
 * @param nandBytesWrittenMetadata NAND bytes programmed for FTL metadata
 * @param freeBlocks             free erase blocks at the sample
 */
public record SmartCounters(
        long timeNs,
        Long hostBytesWritten,
        Long nandBytesWritten,
        Long nandBytesWrittenHost,
        Long nandBytesWrittenGc,
        Long nandBytesWrittenWearLeveling,
        Long nandBytesWrittenMetadata,
        Long freeBlocks) {

    /** Total NAND bytes: the reported total, else the sum of the reported causes, else null. */
    public Long nandTotal() {
        if (nandBytesWritten != null) {
            return nandBytesWritten;
        }
        Long sum = null;
        for (Long cause : new Long[] {
            nandBytesWrittenHost, nandBytesWrittenGc, nandBytesWrittenWearLeveling, nandBytesWrittenMetadata
        }) {
            if (cause != null) {
                sum = (sum == null ? 0 : sum) + cause;
            }
        }
        return sum;
    }
}
