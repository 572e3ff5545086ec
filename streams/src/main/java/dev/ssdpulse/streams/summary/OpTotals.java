package dev.ssdpulse.streams.summary;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.window.IoTotals;
import dev.ssdpulse.streams.window.PhasePart;

/** Running totals of one op (in one phase or the whole run). Not thread-safe. */
public final class OpTotals extends IoTotals {
    private final int op;

    public OpTotals(int op, LatencyBins bins) {
        this(op, new LatencyAccumulator(bins));
    }

    private OpTotals(int op, LatencyAccumulator latency) {
        super(latency);
        this.op = op;
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
        encodeInto(out, true);
    }

    static OpTotals decodeFrom(int op, BinaryReader in) {
        return decodeFrom(in, "", latency -> new OpTotals(op, latency));
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof OpTotals)) {
            return false;
        }
        OpTotals t = (OpTotals) o;
        return op == t.op
                && ioCount == t.ioCount
                && bytes == t.bytes
                && errorCount == t.errorCount
                && firstSubmitNs == t.firstSubmitNs
                && lastCompletionNs == t.lastCompletionNs
                && latency.equals(t.latency);
    }

    @Override
    public int hashCode() {
        return (int) (31 * op + 17 * ioCount + bytes) ^ latency.hashCode();
    }

    public int op() {
        return op;
    }
}
