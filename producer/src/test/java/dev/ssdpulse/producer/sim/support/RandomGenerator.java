package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.SplittableRandom;

/**
 * Test workload: uniformly random, 4 KiB-aligned requests over a span, sizes drawn with equal weight
 * from {@code sizesBytes}, a fraction of them reads. Deterministic for its seed.
 */
public final class RandomGenerator implements RequestGenerator {
    private final long spanStartBytes;
    private final long spanBytes;
    private final int[] sizesBytes;
    private final double readFraction;
    private final SplittableRandom random;
    private long remaining;

    public RandomGenerator(
            long spanStartBytes, long spanBytes, int[] sizesBytes, double readFraction, long seed, long maxRequests) {
        this.spanStartBytes = spanStartBytes;
        this.spanBytes = spanBytes;
        this.sizesBytes = sizesBytes;
        this.readFraction = readFraction;
        this.random = new SplittableRandom(seed);
        this.remaining = maxRequests;
    }

    public static RandomGenerator writes4k(long spanStartBytes, long spanBytes, long seed) {
        return new RandomGenerator(spanStartBytes, spanBytes, new int[] {4096}, 0.0, seed, Long.MAX_VALUE);
    }

    public static RandomGenerator reads4k(long spanStartBytes, long spanBytes, long seed) {
        return new RandomGenerator(spanStartBytes, spanBytes, new int[] {4096}, 1.0, seed, Long.MAX_VALUE);
    }

    @Override
    public boolean next(IoRequest request) {
        if (remaining-- <= 0) {
            return false;
        }
        int size = sizesBytes.length == 1 ? sizesBytes[0] : sizesBytes[random.nextInt(sizesBytes.length)];
        long slots = (spanBytes - size) / 4096 + 1;
        long offset = spanStartBytes + random.nextLong(slots) * 4096;
        byte op = readFraction > 0 && random.nextDouble() < readFraction ? IoOpCode.READ : IoOpCode.WRITE;
        request.set(op, offset, size, 0);
        return true;
    }
}
