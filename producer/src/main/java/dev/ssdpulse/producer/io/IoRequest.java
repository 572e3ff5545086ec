package dev.ssdpulse.producer.io;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * A mutable request slot that a {@link RequestGenerator} fills; reused to keep the hot path free of
 * allocation. {@code delayNs} is the think time the worker waits before submitting this request (0 when
 * the workload has none). {@code dueNs} is the time the request was recorded at, for a replayed trace: the
 * driver submits it then (ns since the phase start) or, when it cannot, as soon as it can, and tells the
 * generator how late ({@link RequestGenerator#issued}); {@link #UNSCHEDULED} for every other request.
 */
public final class IoRequest {
    /** {@link #dueNs} of a request without a recorded time. */
    public static final long UNSCHEDULED = Long.MIN_VALUE;

    public byte op;
    public long offsetBytes;
    public int sizeBytes;
    public long delayNs;
    public long dueNs = UNSCHEDULED;

    public void set(byte op, long offsetBytes, int sizeBytes, long delayNs) {
        this.op = op;
        this.offsetBytes = offsetBytes;
        this.sizeBytes = sizeBytes;
        this.delayNs = delayNs;
        this.dueNs = UNSCHEDULED;
    }

    /** A request due at {@code dueNs} after the phase start (or {@link #UNSCHEDULED}: as soon as possible). */
    public void setDue(byte op, long offsetBytes, int sizeBytes, long dueNs) {
        this.op = op;
        this.offsetBytes = offsetBytes;
        this.sizeBytes = sizeBytes;
        this.delayNs = 0;
        this.dueNs = dueNs;
    }

    @Override
    public String toString() {
        return IoOpCode.name(op) + "@" + offsetBytes + "+" + sizeBytes
                + (delayNs > 0 ? " after " + delayNs + "ns" : "")
                + (dueNs != UNSCHEDULED ? " due at " + dueNs + "ns" : "");
    }
}
