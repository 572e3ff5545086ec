package dev.ssdpulse.producer.integrity;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The self-describing content of a stamped write (a workload with {@code verify: true}): every 4 KiB unit a write
 * carries says which run wrote it, where, and which write it was, so that after a power cut each unit of the target
 * can be matched against the run's log (Zheng et al., FAST '13, use records of this kind; diskchecker.pl and fio's
 * verify headers likewise).
 *
 * <pre>
 * offset  bytes  little-endian field
 *      0      8  magic "ssdpUNIT"
 *      8      8  run hash: {@link #runHash(String)} of the run id
 *     16      8  LBA: the unit's index on the target (byte offset / 4096)
 *     24      8  sequence: the write's sequence number in the run (logged with the write)
 *     32      4  units the write carried
 *     36      4  this unit's index in the write, from 0
 *     40      4  flags of the write (bit 0: FUA)
 *     44      4  CRC32C of bytes 0..43 and 48..4095
 *     48   4048  pseudo-random bytes from (seed, sequence, LBA): incompressible, recomputable
 * </pre>
 *
 * A unit whose CRC does not match its bytes was written in part (a sector of it is new, another old) or garbled:
 * torn. {@link StampWriter} writes units; {@link #inspect} reads them.
 */
public final class UnitStamp {
    public static final int UNIT_BYTES = 4096;
    public static final int UNIT_SHIFT = 12;
    public static final int HEADER_BYTES = 48;
    /** "ssdpUNIT" read as a little-endian long. */
    public static final long MAGIC = ByteBuffer.wrap("ssdpUNIT".getBytes(StandardCharsets.US_ASCII))
            .order(ByteOrder.LITTLE_ENDIAN)
            .getLong(0);

    static final int RUN_HASH_AT = 8;
    static final int LBA_AT = 16;
    static final int SEQUENCE_AT = 24;
    static final int WRITE_UNITS_AT = 32;
    static final int UNIT_INDEX_AT = 36;
    static final int FLAGS_AT = 40;
    static final int CRC_AT = 44;

    /** What a unit holds, as {@link #inspect} reads it. */
    public enum State {
        /** A whole stamp: magic and CRC match (of this run or another: compare the run hash). */
        STAMPED,
        /** The magic is there but the CRC does not match: part of the unit was written, part not. */
        CORRUPT,
        /** Only zeros (never written, discarded, or zeroed). */
        ZEROS,
        /** Other content: no stamp. */
        UNSTAMPED
    }

    private UnitStamp() {}

    /**
     * A 64-bit hash of a run id (FNV-1a over its UTF-8 bytes, then a SplitMix64 finaliser to spread it): the same
     * run id always gives the same hash, so verification needs only the id.
     */
    public static long runHash(String runId) {
        long h = 0xcbf29ce484222325L;
        for (byte b : runId.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    /** The unit's CRC32C: bytes 0..43 and 48..4095 of the unit (not the CRC field itself). */
    static int crc(ByteBuffer b, int at, CRC32C crc) {
        crc.reset();
        b.limit(at + CRC_AT).position(at);
        crc.update(b);
        b.limit(at + UNIT_BYTES).position(at + HEADER_BYTES);
        crc.update(b);
        b.clear();
        return (int) crc.getValue();
    }

    /**
     * Reads the unit at {@code at} into {@code out}: its state and, for a stamped or corrupt unit, the header as
     * written (of a corrupt unit possibly garbage).
     */
    public static void inspect(ByteBuffer buffer, int at, CRC32C crc, Observation out) {
        ByteBuffer b = buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
        long magic = b.getLong(at);
        if (magic != MAGIC) {
            out.state = isZero(b, at) ? State.ZEROS : State.UNSTAMPED;
            out.runHash = 0;
            out.lba = -1;
            out.sequence = -1;
            out.writeUnits = 0;
            out.unitIndex = 0;
            out.flags = 0;
            return;
        }
        out.runHash = b.getLong(at + RUN_HASH_AT);
        out.lba = b.getLong(at + LBA_AT);
        out.sequence = b.getLong(at + SEQUENCE_AT);
        out.writeUnits = b.getInt(at + WRITE_UNITS_AT);
        out.unitIndex = b.getInt(at + UNIT_INDEX_AT);
        out.flags = b.getInt(at + FLAGS_AT);
        out.state = b.getInt(at + CRC_AT) == crc(b, at, crc) ? State.STAMPED : State.CORRUPT;
    }

    private static boolean isZero(ByteBuffer b, int at) {
        for (int i = at; i < at + UNIT_BYTES; i += 8) {
            if (b.getLong(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** SplitMix64's finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A unit as {@link #inspect} read it; reused, not thread-safe. */
    public static final class Observation {
        public State state;
        public long runHash;
        public long lba;
        public long sequence;
        public int writeUnits;
        public int unitIndex;
        public int flags;

        @Override
        public String toString() {
            return state
                    + (state == State.STAMPED || state == State.CORRUPT
                            ? " run " + Long.toHexString(runHash) + " lba " + lba + " seq " + sequence + " unit "
                                    + unitIndex + "/" + writeUnits
                            : "");
        }
    }
}
