package dev.ssdpulse.producer.integrity;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Writes {@link UnitStamp}s for one run: the header, the pseudo-random rest and the CRC32C. Thread-safe (callers pass
 * their own CRC32C); one per run, shared by its I/O threads.
 *
 * <p><b>The pseudo-random rest</b> of a unit is a window of a 1 MiB pool of xorshift64* output generated once from the
 * run's seed, each word XORed with a per-unit key stream ({@code key + i x golden ratio}); the window and the key
 * are SplitMix64 mixes of (seed, sequence, LBA). So every unit is a different random-looking 4,048 bytes that a
 * compressor cannot shrink and no two units repeat, it can be recomputed from the three numbers, and it costs a read
 * of 4 KiB from a cache-resident pool and an XOR per word: a fifth of generating 4 KiB of fresh xorshift output
 * (the unstamped data pattern), which leaves room for the CRC32C over the whole unit within the stamped writes'
 * budget (bench/stamp-cost.sh).
 */
public final class StampWriter {
    private static final int POOL_BYTES = 1 << 20;
    private static final int POOL_WORDS = POOL_BYTES / 8;
    private static final int UNIT_WORDS = UnitStamp.UNIT_BYTES / 8;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final long runHash;
    private final long seed;
    /** Read only after construction: absolute reads from several threads are safe. */
    private final ByteBuffer pool;

    public StampWriter(long runHash, long seed) {
        this.runHash = runHash;
        this.seed = seed;
        this.pool = ByteBuffer.allocateDirect(POOL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long s = UnitStamp.mix(seed ^ 0x5354414D50504F4CL);
        s = s == 0 ? GOLDEN : s;
        for (int i = 0; i < POOL_BYTES; i += 8) {
            s ^= s >>> 12;
            s ^= s << 25;
            s ^= s >>> 27;
            pool.putLong(i, s * 0x2545F4914F6CDD1DL);
        }
    }

    public long runHash() {
        return runHash;
    }

    /**
     * Writes one stamped unit at {@code at} (a multiple of 4096 in {@code buffer}; its position, limit and byte order
     * are left as they are).
     *
     * @param crc a CRC32C to reuse (reset here)
     */
    public void write(
            ByteBuffer buffer, int at, long lba, long sequence, int writeUnits, int unitIndex, int flags, CRC32C crc) {
        ByteBuffer b = buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(at, UnitStamp.MAGIC);
        b.putLong(at + UnitStamp.RUN_HASH_AT, runHash);
        b.putLong(at + UnitStamp.LBA_AT, lba);
        b.putLong(at + UnitStamp.SEQUENCE_AT, sequence);
        b.putInt(at + UnitStamp.WRITE_UNITS_AT, writeUnits);
        b.putInt(at + UnitStamp.UNIT_INDEX_AT, unitIndex);
        b.putInt(at + UnitStamp.FLAGS_AT, flags);
        long key = UnitStamp.mix(seed ^ UnitStamp.mix(sequence * GOLDEN ^ UnitStamp.mix(lba + 0x632BE59BD9B4E019L)));
        int window = (int) Long.remainderUnsigned(key >>> 17, POOL_WORDS - UNIT_WORDS) * 8;
        long k = key;
        for (int i = UnitStamp.HEADER_BYTES; i < UnitStamp.UNIT_BYTES; i += 8) {
            k += GOLDEN;
            b.putLong(at + i, pool.getLong(window + i) ^ k);
        }
        b.putInt(at + UnitStamp.CRC_AT, UnitStamp.crc(b, at, crc));
    }
}
