package dev.ssdpulse.producer.io;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * A mutable request slot that a {@link RequestGenerator} fills; reused to keep the hot path free of
 * allocation. {@code delayNs} is the think time the worker waits before submitting this request (0 when
 * the workload has none). {@code fua} asks for a write that is durable when it completes (RWF_DSYNC).
 */
public final class IoRequest {
    public byte op;
    public long offsetBytes;
    public int sizeBytes;
    public long delayNs;
    public boolean fua;

    public void set(byte op, long offsetBytes, int sizeBytes, long delayNs) {
        this.op = op;
        this.offsetBytes = offsetBytes;
        this.sizeBytes = sizeBytes;
        this.delayNs = delayNs;
        this.fua = false;
    }

    @Override
    public String toString() {
        return IoOpCode.name(op) + "@" + offsetBytes + "+" + sizeBytes
                + (delayNs > 0 ? " after " + delayNs + "ns" : "")
                + (fua ? " FUA" : "");
    }
}
