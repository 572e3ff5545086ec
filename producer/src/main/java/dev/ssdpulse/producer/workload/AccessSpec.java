package dev.ssdpulse.producer.workload;

/**
 * One IOMeter access-specification line.
 *
 * @param transferSizeBytes request size (a multiple of 512)
 * @param percentOfSpec     share of the phase's requests using this line; lines of a phase add up to 100
 * @param percentRead       0..100; the rest are writes (TRIMs when the phase has {@code trim: true})
 * @param percentRandom     0..100; the rest continue sequentially from the worker's previous request
 * @param alignmentBytes    random offsets are multiples of this (relative to the span start), a multiple of 512
 * @param delayNs           IOMeter "transfer delay": think time after each burst (0 = none)
 * @param burstLength       IOMeter "burst length": requests per burst before the delay (&gt;= 1)
 */
public record AccessSpec(
        int transferSizeBytes,
        int percentOfSpec,
        int percentRead,
        int percentRandom,
        long alignmentBytes,
        long delayNs,
        int burstLength) {

    /** A line with no delay, aligned to min(transfer size, 4 KiB). */
    public static AccessSpec of(int transferSizeBytes, int percentOfSpec, int percentRead, int percentRandom) {
        return new AccessSpec(
                transferSizeBytes,
                percentOfSpec,
                percentRead,
                percentRandom,
                defaultAlignment(transferSizeBytes),
                0,
                1);
    }

    /** Default alignment: the transfer size up to 4 KiB (a 512 B request is 512-aligned, larger ones 4 KiB). */
    public static long defaultAlignment(long transferSizeBytes) {
        return Math.min(transferSizeBytes, 4096L);
    }
}
