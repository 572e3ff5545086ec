package dev.ssdpulse.producer.trace;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * What one pass over a trace found: I/O counts and bytes per op, the address range, the largest transfers, the
 * alignment, the recorded duration. Pure accumulation over {@link TraceRecord}s, so a trace is known (and checked
 * against a target) before a single I/O is issued, without being held in memory.
 */
public final class TraceStats {
    /** The largest alignment tracked: finer than any device needs, coarse enough to say "aligned". */
    static final long MAX_ALIGNMENT_BYTES = 1 << 20;

    private final long[] count = new long[IoOpCode.COUNT];
    private final long[] bytes = new long[IoOpCode.COUNT];
    private long firstTimeNs = Long.MIN_VALUE;
    private long maxTimeNs = Long.MIN_VALUE;
    private long lastTimeNs = Long.MIN_VALUE;
    private long outOfOrder;
    private long minOffsetBytes = Long.MAX_VALUE;
    private long maxEndBytes;
    private long maxTransferBytes;
    private long maxTrimBytes;
    private long alignmentBits = MAX_ALIGNMENT_BYTES;
    private long firstLineBelow512;
    private long firstLineBelow4096;

    void add(TraceRecord r) {
        count[r.op]++;
        bytes[r.op] += r.sizeBytes;
        if (firstTimeNs == Long.MIN_VALUE) {
            firstTimeNs = r.timeNs;
        }
        if (lastTimeNs != Long.MIN_VALUE && r.timeNs < lastTimeNs) {
            outOfOrder++;
        }
        lastTimeNs = r.timeNs;
        maxTimeNs = Math.max(maxTimeNs, r.timeNs);
        if (r.op == IoOpCode.FLUSH) {
            return;
        }
        minOffsetBytes = Math.min(minOffsetBytes, r.offsetBytes);
        maxEndBytes = Math.max(maxEndBytes, r.offsetBytes + r.sizeBytes);
        if (r.op == IoOpCode.TRIM) {
            maxTrimBytes = Math.max(maxTrimBytes, r.sizeBytes);
        } else {
            maxTransferBytes = Math.max(maxTransferBytes, r.sizeBytes);
        }
        long bits = r.offsetBytes | r.sizeBytes | MAX_ALIGNMENT_BYTES;
        long alignment = Long.lowestOneBit(bits);
        if (alignment < 4096 && firstLineBelow4096 == 0) {
            firstLineBelow4096 = r.line;
        }
        if (alignment < 512 && firstLineBelow512 == 0) {
            firstLineBelow512 = r.line;
        }
        alignmentBits = Math.min(alignmentBits, alignment);
    }

    /** I/Os of every op. */
    public long ioCount() {
        long n = 0;
        for (long c : count) {
            n += c;
        }
        return n;
    }

    public long ioCount(int op) {
        return count[IoOpCode.check(op)];
    }

    public long bytes(int op) {
        return bytes[IoOpCode.check(op)];
    }

    /** I/Os that transfer or discard data (flushes excluded). */
    public long dataIoCount() {
        return ioCount() - count[IoOpCode.FLUSH];
    }

    public boolean writesData() {
        return count[IoOpCode.WRITE] > 0 || count[IoOpCode.TRIM] > 0;
    }

    /** Recorded time of the first I/O in file order: the replay's time 0. */
    public long firstTimeNs() {
        return firstTimeNs == Long.MIN_VALUE ? 0 : firstTimeNs;
    }

    /** From the first I/O's recorded time to the latest recorded time. */
    public long recordedDurationNs() {
        return maxTimeNs == Long.MIN_VALUE ? 0 : maxTimeNs - firstTimeNs;
    }

    /** I/Os recorded earlier than the I/O before them in the file (replayed in file order, see ReplayClock). */
    public long outOfOrderCount() {
        return outOfOrder;
    }

    /** Lowest offset of a data I/O; 0 without one. */
    public long minOffsetBytes() {
        return minOffsetBytes == Long.MAX_VALUE ? 0 : minOffsetBytes;
    }

    /** Highest offset + size of a data I/O; 0 without one. */
    public long maxEndBytes() {
        return maxEndBytes;
    }

    /** Largest read or write. */
    public long maxTransferBytes() {
        return maxTransferBytes;
    }

    public long maxTrimBytes() {
        return maxTrimBytes;
    }

    /** The largest power of two (up to 1 MiB) dividing every data I/O's offset and size. */
    public long alignmentBytes() {
        return alignmentBits;
    }

    /** Line of the first I/O whose offset or size is not a multiple of {@code alignmentBytes} (512 or 4096), 0 if none. */
    public long firstLineNotAligned(long alignmentBytes) {
        if (alignmentBytes <= 512) {
            return firstLineBelow512;
        }
        if (alignmentBytes == 4096) {
            return firstLineBelow4096;
        }
        throw new IllegalArgumentException("tracked alignments are 512 and 4096 B, not " + alignmentBytes);
    }
}
