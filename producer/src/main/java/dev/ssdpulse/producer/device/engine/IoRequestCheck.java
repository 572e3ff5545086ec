package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * The checks every engine makes before a request reaches the kernel, so that each engine refuses the same requests
 * with the same status and words: a TRIM where the target cannot discard, a range outside the target (which never
 * grows), a transfer larger than the slot's buffer, and, with O_DIRECT, an offset or size that is not a multiple of
 * the target's block size.
 */
public final class IoRequestCheck {
    private IoRequestCheck() {}

    private record Refusal(int status, String message) {}

    /** The target an engine has open, as far as the checks need it. */
    public record Target(
            long sizeBytes, boolean direct, int alignmentBytes, boolean trimAvailable, String trimUnavailableReason) {}

    /**
     * Null when the request may be submitted; else the request is completed on the spot (its errno-style status
     * set, zero latency, so it is counted as a failed I/O like one the kernel refused) and the message for the
     * run's log is returned.
     *
     * @throws IllegalStateException if the engine has no target open ({@code target} null)
     */
    public static String completeIfRefused(IoSlot slot, Target target, String engineName) {
        if (target == null) {
            throw new IllegalStateException(engineName + " engine is not open");
        }
        Refusal refusal = check(slot, target);
        if (refusal == null) {
            return null;
        }
        slot.submitNanos = System.nanoTime();
        slot.completeNanos = slot.submitNanos;
        slot.status = refusal.status();
        return refusal.message();
    }

    private static Refusal check(IoSlot slot, Target target) {
        if (slot.op == IoOpCode.TRIM && !target.trimAvailable()) {
            return new Refusal(
                    IoStatus.EOPNOTSUPP, "TRIM is not available on this target: " + target.trimUnavailableReason());
        }
        if (slot.offsetBytes < 0 || slot.offsetBytes + slot.sizeBytes > target.sizeBytes()) {
            return new Refusal(
                    IoStatus.EINVAL,
                    "I/O [" + slot.offsetBytes + ", " + (slot.offsetBytes + slot.sizeBytes)
                            + ") is outside the target of " + target.sizeBytes() + " bytes (the target never grows)");
        }
        if (slot.op != IoOpCode.TRIM && slot.sizeBytes > slot.capacityBytes()) { // a TRIM moves no data
            return new Refusal(
                    IoStatus.EINVAL,
                    "transfer of " + slot.sizeBytes + " bytes exceeds the slot buffer of " + slot.capacityBytes());
        }
        int alignment = target.alignmentBytes();
        if (target.direct() && (slot.offsetBytes % alignment != 0 || slot.sizeBytes % alignment != 0)) {
            return new Refusal(IoStatus.EINVAL, alignmentMessage(slot.offsetBytes, slot.sizeBytes, alignment));
        }
        return null;
    }

    /** The message for a request O_DIRECT cannot perform; also used by the runner's up-front check. */
    public static String alignmentMessage(long offsetBytes, long sizeBytes, int alignmentBytes) {
        return "O_DIRECT needs offsets and sizes that are multiples of the block size " + alignmentBytes
                + " bytes, got offset " + offsetBytes + " (remainder " + offsetBytes % alignmentBytes + ") and size "
                + sizeBytes + " (remainder " + sizeBytes % alignmentBytes + "); align the access spec or run without"
                + " direct I/O";
    }
}
