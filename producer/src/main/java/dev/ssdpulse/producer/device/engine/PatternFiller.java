package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.producer.workload.DataPattern;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fills a slot's buffer with the phase's data pattern before each write. Not thread-safe: one per I/O thread.
 *
 * <ul>
 *   <li>INCOMPRESSIBLE: every byte fresh from xorshift64* generators on every write (no two writes carry the same
 *   data, so neither compression nor deduplication in the controller can shrink them). Four independent generators
 *   fill interleaved 8-byte words: one generator's next value waits on its last (a chain of six shifts and xors), so
 *   one stream takes ~1.1 us per 4 KiB on the reference machine and four, whose chains the CPU overlaps, ~0.55 us
 *   ({@code PatternFillBench} in the test sources measures both). fio fills its write buffers with a
 *   multiplicative hash of the same cost class.</li>
 *   <li>COMPRESSIBLE(ratio): in each 4 KiB chunk the first {@code 4096 / ratio} bytes are random, the rest zeros
 *   (like fio's {@code buffer_compress_percentage}); a compressor reaches about the ratio.</li>
 *   <li>ZEROS: all zeros (rewritten only after a read left data in the buffer).</li>
 * </ul>
 */
public final class PatternFiller implements WriteFiller {
    static final int CHUNK_BYTES = 4096;
    private final DataPattern.Kind kind;
    private final int randomBytesPerChunk;
    /** The four generators' states, never zero (xorshift's fixed point). */
    private long lane0;

    private long lane1;
    private long lane2;
    private long lane3;

    public PatternFiller(DataPattern pattern, long seed) {
        this.kind = pattern.kind();
        double ratio =
                pattern.kind() == DataPattern.Kind.COMPRESSIBLE ? Math.max(1.0, pattern.compressionRatio()) : 1.0;
        // rounded to whole longs so the fill stays a loop of putLong
        this.randomBytesPerChunk = (int) Math.max(8, Math.round(CHUNK_BYTES / ratio / 8.0) * 8);
        // splitmix64 spreads one seed into four unrelated, non-zero states
        long x = seed;
        lane0 = splitMix(x += 0x9E3779B97F4A7C15L);
        lane1 = splitMix(x += 0x9E3779B97F4A7C15L);
        lane2 = splitMix(x += 0x9E3779B97F4A7C15L);
        lane3 = splitMix(x + 0x9E3779B97F4A7C15L);
    }

    private static long splitMix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return z == 0 ? 0x9E3779B97F4A7C15L : z;
    }

    @Override
    public void fill(IoSlot slot, int sizeBytes) {
        // the whole buffer: the psync engine leaves the limit at the previous request's size
        ByteBuffer b = slot.buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
        switch (kind) {
            case INCOMPRESSIBLE -> fillRandom(b, 0, sizeBytes);
            case ZEROS -> {
                if (slot.holdsReadData || !slot.zeroed) {
                    fillZeros(b, 0, slot.capacityBytes());
                    slot.zeroed = true;
                }
            }
            case COMPRESSIBLE -> {
                for (int chunk = 0; chunk < sizeBytes; chunk += CHUNK_BYTES) {
                    int end = Math.min(sizeBytes, chunk + CHUNK_BYTES);
                    int randomEnd = Math.min(end, chunk + randomBytesPerChunk);
                    fillRandom(b, chunk, randomEnd);
                    fillZeros(b, randomEnd, end);
                }
            }
        }
        if (kind != DataPattern.Kind.ZEROS) {
            slot.zeroed = false;
        }
        slot.holdsReadData = false;
    }

    private void fillRandom(ByteBuffer b, int from, int to) {
        long a = lane0;
        long c = lane1;
        long d = lane2;
        long e = lane3;
        int i = from;
        for (; i + 32 <= to; i += 32) {
            a = xorshift(a);
            c = xorshift(c);
            d = xorshift(d);
            e = xorshift(e);
            b.putLong(i, a * 0x2545F4914F6CDD1DL);
            b.putLong(i + 8, c * 0x2545F4914F6CDD1DL);
            b.putLong(i + 16, d * 0x2545F4914F6CDD1DL);
            b.putLong(i + 24, e * 0x2545F4914F6CDD1DL);
        }
        // a tail shorter than four words (a compressible chunk's random part need not be a multiple of 32 bytes)
        for (; i + 8 <= to; i += 8) {
            a = xorshift(a);
            b.putLong(i, a * 0x2545F4914F6CDD1DL);
        }
        for (; i < to; i++) {
            a = xorshift(a);
            b.put(i, (byte) (a * 0x2545F4914F6CDD1DL));
        }
        lane0 = a;
        lane1 = c;
        lane2 = d;
        lane3 = e;
    }

    /** One xorshift64 step (the output is the state times xorshift64*'s multiplier); inlined by the JIT. */
    private static long xorshift(long s) {
        s ^= s >>> 12;
        s ^= s << 25;
        return s ^ (s >>> 27);
    }

    private static void fillZeros(ByteBuffer b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            b.putLong(i, 0L);
        }
        for (; i < to; i++) {
            b.put(i, (byte) 0);
        }
    }
}
