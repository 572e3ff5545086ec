package dev.ssdpulse.streams.window;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import java.util.function.Function;

/**
 * Counts, time span and latencies of a set of I/Os: of one phase in a window, or of one op in a phase or the
 * whole run (the summary). firstSubmitNs = min(completion - latency), lastCompletionNs = max(completion).
 * Not thread-safe.
 */
public class IoTotals {
    protected final LatencyAccumulator latency;
    protected long ioCount;
    protected long bytes;
    protected long errorCount;
    protected long firstSubmitNs = Long.MAX_VALUE;
    protected long lastCompletionNs = Long.MIN_VALUE;

    protected IoTotals(LatencyAccumulator latency) {
        this.latency = latency;
    }

    public void add(long completionTimeNs, long sizeBytes, long latencyNs, int status) {
        latency.record(latencyNs);
        ioCount++;
        bytes += sizeBytes;
        if (status != 0) {
            errorCount++;
        }
        firstSubmitNs = Math.min(firstSubmitNs, completionTimeNs - latencyNs);
        lastCompletionNs = Math.max(lastCompletionNs, completionTimeNs);
    }

    /** The counts, then the latencies (their histogram compressed or not). */
    protected void encodeInto(BinaryWriter out, boolean compressedHistogram) {
        out.writeUnsignedVarLong(ioCount)
                .writeUnsignedVarLong(bytes)
                .writeUnsignedVarLong(errorCount)
                .writeVarLong(firstSubmitNs)
                .writeVarLong(lastCompletionNs);
        latency.encodeInto(out, compressedHistogram);
    }

    /**
     * What {@link #encodeInto} wrote, as the totals {@code create} makes of the latencies.
     *
     * @param label prefix of the field names in the error of a truncated or corrupt encoding
     */
    protected static <T extends IoTotals> T decodeFrom(
            BinaryReader in, String label, Function<LatencyAccumulator, T> create) {
        long ioCount = in.readUnsignedVarLong(label + "ioCount");
        long bytes = in.readUnsignedVarLong(label + "bytes");
        long errors = in.readUnsignedVarLong(label + "errorCount");
        long first = in.readVarLong(label + "firstSubmitNs");
        long last = in.readVarLong(label + "lastCompletionNs");
        T t = create.apply(LatencyAccumulator.decodeFrom(in));
        t.ioCount = ioCount;
        t.bytes = bytes;
        t.errorCount = errors;
        t.firstSubmitNs = first;
        t.lastCompletionNs = last;
        return t;
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
