package dev.ssdpulse.producer.workload;

/**
 * The region a phase addresses: offset and size, each absolute or relative to the target capacity
 * (e.g. offset "104GB", size "24GB"; or offset 0, size "100%-8GB").
 */
public record Span(Amount offset, Amount size) {
    public static Span whole() {
        return new Span(Amount.ofBytes(0), Amount.ofPercent(100));
    }

    public long offsetBytes(long targetSizeBytes) {
        return offset.resolve(targetSizeBytes);
    }

    public long sizeBytes(long targetSizeBytes) {
        return size.resolve(targetSizeBytes);
    }
}
