package dev.ssdpulse.streams.waf;

/**
 * One SMART-style counter sample, as plain values. Counters are cumulative since some origin (device
 * manufacture or simulator start); any field the source does not report is null.
 *
 * <p>{@code hostBytesWritten} and {@code nandBytesWritten} are the two sides of write amplification in
 * {@code unit}: bytes ("B") for every source but drives that count both sides in NAND pages or a vendor's own
 * unit (the unit cancels in the ratio; the field names keep the byte case's names). A real drive's counters
 * move in steps ({@code hostResolution}, {@code nandResolution}: 32 MiB, 1 GiB, 512,000 B for NVMe data units),
 * so a difference of two readings is exact only to within one step.
 *
 * @param timeNs                 sample time, ns since run start
 * @param unit                   unit of the host and NAND figures ("B" for bytes)
 * @param hostBytesWritten       written by the host, in unit
 * @param hostResolution         step of the host counter, in unit; 0 when exact (simulator)
 * @param nandBytesWritten       programmed to NAND (all causes), in unit; when null, the sum of the causes is used
 *                               if at least one cause is reported
 * @param nandResolution         step of the NAND counter (summed over the counters added), in unit; 0 when exact
 * @param nandBytesWrittenHost   NAND bytes programmed for host data (simulator)
 * @param nandBytesWrittenGc     NAND bytes programmed by garbage collection (simulator)
 * @param nandBytesWrittenWearLeveling NAND bytes programmed by wear levelling (simulator)
 * @param nandBytesWrittenMetadata NAND bytes programmed for FTL metadata (simulator)
 * @param freeBlocks             free erase blocks at the sample
 */
public record SmartCounters(
        long timeNs,
        String unit,
        Long hostBytesWritten,
        long hostResolution,
        Long nandBytesWritten,
        long nandResolution,
        Long nandBytesWrittenHost,
        Long nandBytesWrittenGc,
        Long nandBytesWrittenWearLeveling,
        Long nandBytesWrittenMetadata,
        Long freeBlocks) {

    public static final String BYTES = "B";

    public SmartCounters {
        if (unit == null || unit.isEmpty()) {
            throw new IllegalArgumentException("unit must be named (\"B\" for bytes)");
        }
        if (hostResolution < 0 || nandResolution < 0) {
            throw new IllegalArgumentException("counter steps must be >= 0");
        }
    }

    /** Exact byte counters (the simulator's, and samples recorded before counters had a step). */
    public static SmartCounters exactBytes(
            long timeNs,
            Long hostBytesWritten,
            Long nandBytesWritten,
            Long nandBytesWrittenHost,
            Long nandBytesWrittenGc,
            Long nandBytesWrittenWearLeveling,
            Long nandBytesWrittenMetadata,
            Long freeBlocks) {
        return new SmartCounters(
                timeNs,
                BYTES,
                hostBytesWritten,
                0,
                nandBytesWritten,
                0,
                nandBytesWrittenHost,
                nandBytesWrittenGc,
                nandBytesWrittenWearLeveling,
                nandBytesWrittenMetadata,
                freeBlocks);
    }

    /** Total NAND: the reported total, else the sum of the reported causes, else null. */
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

    /** Whether differences from {@code other} to this sample measure the same quantities with the same steps. */
    boolean sameScale(SmartCounters other) {
        return unit.equals(other.unit)
                && hostResolution == other.hostResolution
                && nandResolution == other.nandResolution;
    }
}
