package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;

/** Test workload: sequential requests of one op and size over a span, wrapping around, optional think time. */
public final class SequentialGenerator implements RequestGenerator {
    private final byte op;
    private final long spanStartBytes;
    private final long spanBytes;
    private final int sizeBytes;
    private final long thinkNs;
    private long position;
    private long remaining;

    public SequentialGenerator(
            byte op, long spanStartBytes, long spanBytes, int sizeBytes, long thinkNs, long maxRequests) {
        this.op = op;
        this.spanStartBytes = spanStartBytes;
        this.spanBytes = spanBytes;
        this.sizeBytes = sizeBytes;
        this.thinkNs = thinkNs;
        this.remaining = maxRequests;
    }

    @Override
    public boolean next(IoRequest request) {
        if (remaining-- <= 0) {
            return false;
        }
        if (position + sizeBytes > spanBytes) {
            position = 0;
        }
        request.set(op, spanStartBytes + position, sizeBytes, thinkNs);
        position += sizeBytes;
        return true;
    }
}
