package dev.ssdpulse.streams.summary;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.PhasePart;

/**
 * Running totals of one op (in one phase or the whole run). firstSubmitNs = min(completion - latency),
 * lastCompletionNs = max(completion). Not thread-safe.
 */
public final class OpTotals {
    private final int op;
    private final LatencyAccumulator latency;
    private long ioCount;
    private long bytes;
    private long errorCount;
    private long firstSubmitNs = Long.MAX_VALUE;
    private long lastCompletionNs = Long.MIN_VALUE;

    public OpTotals(int op, LatencyBins bins) {
        this(op, new LatencyAccumulator(bins));
    }

    private OpTotals(int op, LatencyAccumulator latency) {
        this.op = op;
        this.latency = latency;
    }

    void add(long completionTimeNs, long sizeBytes, long latencyNs, int status) {
        latency.record(latencyNs);
        ioCount++;
        bytes += sizeBytes;
        if (status != 0) {
            errorCount++;
        }
        firstSubmitNs = Math.min(firstSubmitNs, completionTimeNs - latencyNs);
        lastCompletionNs = Math.max(lastCompletionNs, completionTimeNs);
    }

    void merge(PhasePart part) {
        latency.merge(part.latency());
        ioCount += part.ioCount();
        bytes += part.bytes();
        errorCount += part.errorCount();
        firstSubmitNs = Math.min(firstSubmitNs, part.firstSubmitNs());
        lastCompletionNs = Math.max(lastCompletionNs, part.lastCompletionNs());
    }

    void encodeInto(BinaryWriter out) {
        out.writeUnsignedVarLong(ioCount).writeUnsignedVarLong(bytes).writeUnsignedVarLong(errorCount)
                .writeVarLong(firstSubmitNs).writeVarLong(lastCompletionNs);
        latency.encodeInto(out, true);
    }

    static OpTotals decodeFrom(int op, BinaryReader in) {
        long ioCount = in.readUnsignedVarLong("ioCount");
        long bytes = in.readUnsignedVarLong("bytes");
        long errors = in.readUnsignedVarLong("errorCount");
        long first = in.readVarLong("firstSubmitNs");
        long last = in.readVarLong("lastCompletionNs");
        OpTotals t = new OpTotals(op, LatencyAccumulator.decodeFrom(in));
        t.ioCount = ioCount;
        t.bytes = bytes;
        t.errorCount = errors;
        t.firstSubmitNs = first;
        t.lastCompletionNs = last;
        return t;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OpTotals)) {
            return false;
        }
        OpTotals t = (OpTotals) o;
        return op == t.op && ioCount == t.ioCount && bytes == t.bytes && errorCount == t.errorCount
                && firstSubmitNs == t.firstSubmitNs && lastCompletionNs == t.lastCompletionNs
                && latency.equals(t.latency);
    }

    @Override
    public int hashCode() {
        return (int) (31 * op + 17 * ioCount + bytes) ^ latency.hashCode();
    }

    public int op() {
        return op;
    }

    public long ioCount() {
        return ioCount;
    }

    public long bytes() {
        return bytes;
    }

    public long errorCount() {
        return errorCount;
    }

    /** Earliest submit time (completion - latency); Long.MAX_VALUE when empty. */
    public long firstSubmitNs() {
        return firstSubmitNs;
    }

    /** Latest completion time; Long.MIN_VALUE when empty. */
    public long lastCompletionNs() {
        return lastCompletionNs;
    }

    public LatencyAccumulator latency() {
        return latency;
    }
}
