package dev.ssdpulse.producer.replay;

import dev.ssdpulse.producer.trace.TraceStats;
import dev.ssdpulse.producer.workload.ReplaySpec;
import dev.ssdpulse.producer.workload.Units;

/**
 * Where a trace's offsets land in a phase's span ({@link ReplaySpec.Remap}); built from the trace's
 * {@link TraceStats}, so a trace that does not fit is refused before any I/O with the sizes named.
 */
final class Placement {
    /** SHIFT and WRAP move offsets by multiples of this, so every alignment up to it is kept. */
    static final long GRAIN_BYTES = 1 << 20;

    private final ReplaySpec.Remap remap;
    private final long spanStart;
    private final long baseBytes;
    private final long modulusBytes;

    private Placement(ReplaySpec.Remap remap, long spanStart, long baseBytes, long modulusBytes) {
        this.remap = remap;
        this.spanStart = spanStart;
        this.baseBytes = baseBytes;
        this.modulusBytes = modulusBytes;
    }

    /**
     * @throws IllegalArgumentException when the trace does not fit the span, naming both sizes and the way out
     */
    static Placement of(TraceStats s, ReplaySpec.Remap remap, long spanStart, long spanSize, String what) {
        long extentFromZero = s.maxEndBytes();
        switch (remap) {
            case NONE -> {
                if (extentFromZero > spanSize) {
                    throw new IllegalArgumentException(what + " addresses up to " + describe(extentFromZero)
                            + " (offsets as recorded, remap: none) but the span is " + describe(spanSize)
                            + ": give the phase a larger span or target, or use remap: shift or wrap");
                }
                return new Placement(remap, spanStart, 0, 0);
            }
            case SHIFT -> {
                long base = s.minOffsetBytes() / GRAIN_BYTES * GRAIN_BYTES;
                long extent = s.maxEndBytes() - base;
                if (extent > spanSize) {
                    throw new IllegalArgumentException(what + " addresses " + describe(extent) + " (offsets "
                            + describe(s.minOffsetBytes()) + " to " + describe(s.maxEndBytes()) + ") but the span is "
                            + describe(spanSize) + ": give the phase a larger span or target, or use remap: wrap");
                }
                return new Placement(remap, spanStart, base, 0);
            }
            case WRAP -> {
                long base = s.minOffsetBytes() / GRAIN_BYTES * GRAIN_BYTES;
                long modulus = spanSize >= GRAIN_BYTES ? spanSize / GRAIN_BYTES * GRAIN_BYTES : spanSize / 4096 * 4096;
                long largest = Math.max(s.maxTransferBytes(), s.maxTrimBytes());
                if (modulus < largest || modulus <= 0) {
                    throw new IllegalArgumentException(what + " has an I/O of " + describe(largest)
                            + ", larger than the span of " + describe(spanSize) + " it is wrapped into");
                }
                return new Placement(remap, spanStart, base, modulus);
            }
        }
        throw new IllegalStateException("unknown remap " + remap);
    }

    /** The target offset of a recorded I/O. */
    long map(long offsetBytes, long sizeBytes) {
        long rel = offsetBytes - baseBytes;
        if (remap == ReplaySpec.Remap.WRAP) {
            rel %= modulusBytes;
            if (rel + sizeBytes > modulusBytes) {
                rel = 0; // would cross the span's end: placed at its start
            }
        }
        return spanStart + rel;
    }

    private static String describe(long bytes) {
        return Units.describeBytes(bytes);
    }
}
