package dev.ssdpulse.producer.sim.engine;

/**
 * A SMART-style snapshot of the simulated drive. Counters are cumulative since the drive was created
 * (secure-erased), as SMART attributes are; {@code timeNs} is relative to the run's start. The
 * {@code nandBytesWritten*} fields split programs by cause (parity last, added after
 * the others); their sum over host bytes is WA.
 */
public record SimSmartCounters(
        long timeNs,
        long hostBytesWritten,
        long hostBytesRead,
        long hostBytesTrimmed,
        long nandBytesWrittenHost,
        long nandBytesWrittenGc,
        long nandBytesWrittenWearLevelling,
        long nandBytesWrittenMetadata,
        long nandBytesRead,
        long eraseCount,
        int freeBlocks,
        long gcInvocations,
        long forcedGcInvocations,
        long idleGcInvocations,
        long nandBytesWrittenParity) {

    public long nandBytesWritten() {
        return nandBytesWrittenHost
                + nandBytesWrittenGc
                + nandBytesWrittenWearLevelling
                + nandBytesWrittenMetadata
                + nandBytesWrittenParity;
    }

    /** WA between an earlier snapshot and this one; NaN if no host bytes were written in between. */
    public double writeAmplificationSince(SimSmartCounters earlier) {
        long host = hostBytesWritten - earlier.hostBytesWritten;
        return host == 0 ? Double.NaN : (double) (nandBytesWritten() - earlier.nandBytesWritten()) / host;
    }
}
