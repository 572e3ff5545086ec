package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.replay.ReplayResult;

/**
 * What one phase did.
 *
 * @param phaseIndex   scheduled index
 * @param phaseName    scheduled name
 * @param startNs      ns since run start
 * @param endNs        ns since run start
 * @param ios          I/Os completed (all statuses)
 * @param errors       I/Os with a non-zero status
 * @param bytesRead    bytes of successful reads
 * @param bytesWritten bytes of successful writes
 * @param bytesTrimmed bytes of successful trims
 * @param endReason    DURATION, BYTES (byte budget or generators exhausted), IDLE, CANCELLED, SKIPPED, FAILED
 * @param note         why a phase was skipped or failed, else null
 * @param replay       how a REPLAY phase's I/Os were issued against their recorded times; null for other kinds
 */
public record PhaseOutcome(
        int phaseIndex,
        String phaseName,
        long startNs,
        long endNs,
        long ios,
        long errors,
        long bytesRead,
        long bytesWritten,
        long bytesTrimmed,
        EndReason endReason,
        String note,
        ReplayResult replay) {

    /** The outcome of a phase that replays no trace. */
    public PhaseOutcome(
            int phaseIndex,
            String phaseName,
            long startNs,
            long endNs,
            long ios,
            long errors,
            long bytesRead,
            long bytesWritten,
            long bytesTrimmed,
            EndReason endReason,
            String note) {
        this(
                phaseIndex,
                phaseName,
                startNs,
                endNs,
                ios,
                errors,
                bytesRead,
                bytesWritten,
                bytesTrimmed,
                endReason,
                note,
                null);
    }

    public enum EndReason {
        DURATION,
        BYTES,
        IDLE,
        CANCELLED,
        SKIPPED,
        FAILED
    }

    public double iops() {
        long d = endNs - startNs;
        return d <= 0 ? 0 : ios * 1e9 / d;
    }
}
