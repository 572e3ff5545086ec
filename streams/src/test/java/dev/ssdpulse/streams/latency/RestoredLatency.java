package dev.ssdpulse.streams.latency;

import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.nio.ByteBuffer;

/**
 * The exact accumulator behind a LatencyStats that carries its histogram, for tests that check an output against
 * the accumulator it came from (the analytics never read their outputs back).
 */
public final class RestoredLatency {
    private RestoredLatency() {}

    public static LatencyAccumulator of(LatencyStats stats) {
        LatencyBins bins = LatencyBins.of(
                stats.getBinUpperBoundsNs().stream().mapToLong(Long::longValue).toArray());
        if (stats.getBinCounts().size() != bins.binCount()) {
            throw new IllegalArgumentException(
                    stats.getBinCounts().size() + " bin counts for " + bins.binCount() + " bins");
        }
        ByteBuffer hist = stats.getHdrHistogram().duplicate();
        byte[] compressedHistogram = new byte[hist.remaining()];
        hist.get(compressedHistogram);
        // the accumulator's own encoding of these parts, decoded
        BinaryWriter out = new BinaryWriter(64 + compressedHistogram.length);
        out.writeByte(LatencyAccumulator.FORMAT_VERSION)
                .writeByte((bins.isIometer() ? 0 : LatencyAccumulator.FLAG_CUSTOM_BINS)
                        | LatencyAccumulator.FLAG_COMPRESSED);
        if (!bins.isIometer()) {
            out.writeUnsignedVarLong(bins.edgeCount());
            for (int i = 0; i < bins.edgeCount(); i++) {
                out.writeUnsignedVarLong(bins.upperBoundNs(i));
            }
        }
        out.writeUnsignedVarLong(stats.getCount())
                .writeUnsignedVarLong(stats.getSumNs())
                .writeUnsignedVarLong(stats.getMinNs())
                .writeUnsignedVarLong(stats.getMaxNs());
        stats.getBinCounts().forEach(out::writeUnsignedVarLong);
        out.writeBlock(stats.getCount() == 0 ? new byte[0] : compressedHistogram);
        return LatencyAccumulator.decode(out.toByteArray());
    }
}
