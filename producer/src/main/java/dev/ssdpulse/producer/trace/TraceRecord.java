package dev.ssdpulse.producer.trace;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * One I/O of a trace as recorded, filled by a {@link TraceReader} and reused (the read loop allocates
 * nothing per record). Flushes have offset 0 and size 0.
 */
public final class TraceRecord {
    /** Recorded issue time, ns since the trace's own origin (not yet rebased to its first I/O). */
    public long timeNs;
    /** An {@link IoOpCode}. */
    public byte op;

    public long offsetBytes;
    public long sizeBytes;
    /** 1-based line of the trace file the record came from. */
    public long line;
    /**
     * blkparse's action of the event ('Q' queued, 'D' issued to the driver); 0 in the other formats. A
     * blkparse trace lists each I/O at several steps: one of them is replayed.
     */
    public char action;

    void set(long timeNs, byte op, long offsetBytes, long sizeBytes, long line) {
        this.timeNs = timeNs;
        this.op = op;
        this.offsetBytes = offsetBytes;
        this.sizeBytes = sizeBytes;
        this.line = line;
        this.action = 0;
    }

    @Override
    public String toString() {
        return "line " + line + ": " + IoOpCode.name(op) + " @" + offsetBytes + "+" + sizeBytes + " at " + timeNs
                + " ns";
    }
}
