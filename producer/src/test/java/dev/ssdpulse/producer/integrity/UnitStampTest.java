package dev.ssdpulse.producer.integrity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class UnitStampTest {
    private final CRC32C crc = new CRC32C();
    private final UnitStamp.Observation seen = new UnitStamp.Observation();

    private final StampWriter writer = new StampWriter(0x1234L, 99);

    private ByteBuffer stamped(long lba, long sequence, int units, int index, int flags) {
        ByteBuffer b = ByteBuffer.allocateDirect(2 * UnitStamp.UNIT_BYTES);
        writer.write(b, UnitStamp.UNIT_BYTES, lba, sequence, units, index, flags, crc);
        return b;
    }

    @Test
    void aStampedUnitReadsBackWithEveryHeaderField() {
        ByteBuffer b = stamped(1_000_003, 42, 4, 3, 1);
        UnitStamp.inspect(b, UnitStamp.UNIT_BYTES, crc, seen);
        assertThat(seen.state).isEqualTo(UnitStamp.State.STAMPED);
        assertThat(seen.runHash).isEqualTo(0x1234L);
        assertThat(seen.lba).isEqualTo(1_000_003);
        assertThat(seen.sequence).isEqualTo(42);
        assertThat(seen.writeUnits).isEqualTo(4);
        assertThat(seen.unitIndex).isEqualTo(3);
        assertThat(seen.flags).isEqualTo(1);
        UnitStamp.inspect(b, 0, crc, seen);
        assertThat(seen.state).isEqualTo(UnitStamp.State.ZEROS);
    }

    @Test
    void anyByteChangedInTheHeaderOrTheBodyIsCaughtByTheCrc() {
        for (int offset : new int[] {8, 16, 24, 32, 40, 47, 48, 512, 4095}) {
            ByteBuffer b = stamped(7, 8, 1, 0, 0);
            int at = UnitStamp.UNIT_BYTES + offset;
            b.put(at, (byte) (b.get(at) ^ 0x10));
            UnitStamp.inspect(b, UnitStamp.UNIT_BYTES, crc, seen);
            assertThat(seen.state).as("byte " + offset).isEqualTo(UnitStamp.State.CORRUPT);
        }
        ByteBuffer torn = stamped(7, 8, 1, 0, 0);
        // the unit's second sector is still the old (zero) content: a write torn inside the unit
        for (int i = 512; i < 1024; i++) {
            torn.put(UnitStamp.UNIT_BYTES + i, (byte) 0);
        }
        UnitStamp.inspect(torn, UnitStamp.UNIT_BYTES, crc, seen);
        assertThat(seen.state).isEqualTo(UnitStamp.State.CORRUPT);
        ByteBuffer other = ByteBuffer.allocateDirect(UnitStamp.UNIT_BYTES);
        other.put(100, (byte) 1);
        UnitStamp.inspect(other, 0, crc, seen);
        assertThat(seen.state).isEqualTo(UnitStamp.State.UNSTAMPED);
    }

    @Test
    void theContentIsRecomputableFromSeedSequenceAndLbaAndDiffersWithEach() {
        ByteBuffer a = stamped(5, 6, 1, 0, 0);
        assertThat(stamped(5, 6, 1, 0, 0)).isEqualTo(a);
        assertThat(stamped(5, 7, 1, 0, 0)).isNotEqualTo(a);
        assertThat(stamped(6, 6, 1, 0, 0)).isNotEqualTo(a);
        ByteBuffer otherSeed = ByteBuffer.allocateDirect(2 * UnitStamp.UNIT_BYTES);
        new StampWriter(0x1234L, 100).write(otherSeed, UnitStamp.UNIT_BYTES, 5, 6, 1, 0, 0, crc);
        assertThat(otherSeed).isNotEqualTo(a);
    }

    @Test
    void theContentDoesNotCompressAcrossUnitsEither() {
        byte[] content = new byte[64 * UnitStamp.UNIT_BYTES];
        ByteBuffer b = ByteBuffer.wrap(content);
        StampWriter w = new StampWriter(77, 1);
        for (int u = 0; u < 64; u++) {
            w.write(b, u * UnitStamp.UNIT_BYTES, u, 1000 + u, 64, u, 0, crc);
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        deflater.setInput(content);
        deflater.finish();
        byte[] out = new byte[content.length * 2];
        int compressed = deflater.deflate(out);
        // the 48-byte headers are most of what a compressor finds: 1 % at most
        assertThat(compressed).isGreaterThan((int) (content.length * 0.99));
    }

    @Test
    void theRunHashIsStableAcrossVersionsAndDiffersBetweenRuns() {
        // a verification reads stamps written by an earlier version: the hash of an id must never change
        assertThat(UnitStamp.runHash("dev-20260101-000000-abcd"))
                .isEqualTo(UnitStamp.runHash("dev-20260101-000000-abcd"));
        assertThat(Long.toHexString(UnitStamp.runHash("run-1"))).isEqualTo("9ccf6179fa6aacd7");
        assertThat(UnitStamp.runHash("run-1")).isNotEqualTo(UnitStamp.runHash("run-2"));
    }
}
