package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.producer.workload.DataPattern;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Fills a slot's buffer with the phase's data pattern before each write. Not thread-safe: one per I/O thread.
 *
 * <ul>
 *   <li>INCOMPRESSIBLE: every byte fresh from a xorshift64* generator on every write (no two writes carry the same
 *   data, so neither compression nor deduplication in the controller can shrink them). ~0.3 us per 4 KiB.</li>
 *   <li>COMPRESSIBLE(ratio): in each 4 KiB chunk the first {@code 4096 / ratio} bytes are random, the rest zeros
 *   (like fio's {@code buffer_compress_percentage}); a compressor reaches about the ratio.</li>
 *   <li>ZEROS: all zeros (rewritten only after a read left data in the buffer).</li>
 * </ul>
 */
public final class PatternFiller {
    static final int CHUNK_BYTES = 4096;
    private final DataPattern.Kind kind;
    private final int randomBytesPerChunk;
    private long state;

    public PatternFiller(DataPattern pattern, long seed) {
        this.kind = pattern.kind();
        double ratio = pattern.kind() == DataPattern.Kind.COMPRESSIBLE ? Math.max(1.0, pattern.compressionRatio()) : 1.0;
        // rounded to whole longs so the fill stays a loop of putLong
        this.randomBytesPerChunk = (int) Math.max(8, Math.round(CHUNK_BYTES / ratio / 8.0) * 8);
        this.state = seed == 0 ? 0x9E3779B97F4A7C15L : seed;
    }

    public void fill(IoSlot slot, int sizeBytes) {
        ByteBuffer b = slot.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
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
        long s = state;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            s ^= s >>> 12;
            s ^= s << 25;
            s ^= s >>> 27;
            b.putLong(i, s * 0x2545F4914F6CDD1DL);
        }
        for (; i < to; i++) {
            s ^= s >>> 12;
            s ^= s << 25;
            s ^= s >>> 27;
            b.put(i, (byte) (s * 0x2545F4914F6CDD1DL));
        }
        state = s;
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
