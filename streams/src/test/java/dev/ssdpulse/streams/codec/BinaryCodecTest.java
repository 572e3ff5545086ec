package dev.ssdpulse.streams.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The byte format of the stored analysis states, which the changelogs of running deployments hold. */
class BinaryCodecTest {
    /** Every kind of value, the extremes of the varints included. */
    private static BinaryWriter everyKind() {
        return new BinaryWriter(1)
                .writeByte(0xAB)
                .writeUnsignedVarLong(0)
                .writeUnsignedVarLong(300)
                .writeUnsignedVarLong(Long.MAX_VALUE)
                .writeUnsignedVarLong(-1L)
                .writeVarLong(-1)
                .writeVarLong(1)
                .writeVarLong(Long.MIN_VALUE)
                .writeLong(0x0102030405060708L)
                .writeDouble(1.5)
                .writeBoolean(true)
                .writeString("é!")
                .writeBlock(new byte[] {7})
                .writeNullableLong(null)
                .writeNullableLong(-3L)
                .writeNullableDouble(null)
                .writeNullableDouble(-0.0);
    }

    @Test
    void theBytesAreThoseOfTheStatesAlreadyStored() {
        // unsigned LEB128 counts, ZigZag varints, big-endian fixed longs and doubles, as written since format 1
        assertThat(HexFormat.of().formatHex(everyKind().toByteArray()))
                .isEqualTo("ab" + "00" + "ac02" + "ffffffffffffffff7f" + "ffffffffffffffffff01"
                        + "01" + "02" + "ffffffffffffffffff01"
                        + "0102030405060708" + "3ff8000000000000" + "01" + "03c3a921" + "0107"
                        + "00" + "0105" + "00" + "018000000000000000");
    }

    @Test
    void everyValueReadsBack() {
        BinaryWriter out = everyKind();
        assertThat(out.size()).isEqualTo(out.toByteArray().length);
        BinaryReader in = new BinaryReader(out.toByteArray(), "every kind");
        assertThat(in.readByte("byte")).isEqualTo(0xAB);
        assertThat(in.readUnsignedVarLong("zero")).isZero();
        assertThat(in.readCount("count", 300)).isEqualTo(300);
        assertThat(in.readUnsignedVarLong("max")).isEqualTo(Long.MAX_VALUE);
        assertThat(in.readUnsignedVarLong("all bits")).isEqualTo(-1L);
        assertThat(in.readVarLong("minus one")).isEqualTo(-1);
        assertThat(in.readVarLong("one")).isEqualTo(1);
        assertThat(in.readVarLong("min")).isEqualTo(Long.MIN_VALUE);
        assertThat(in.readLong("fixed")).isEqualTo(0x0102030405060708L);
        assertThat(in.readDouble("double")).isEqualTo(1.5);
        assertThat(in.readBoolean("boolean")).isTrue();
        assertThat(in.readString("string")).isEqualTo("é!");
        assertThat(in.readBlock("block")).containsExactly(7);
        assertThat(in.readNullableLong("absent long")).isNull();
        assertThat(in.readNullableLong("long")).isEqualTo(-3L);
        assertThat(in.readNullableDouble("absent double")).isNull();
        assertThat(in.readNullableDouble("double")).isEqualTo(-0.0);
        assertThat(in.remaining()).isZero();
        in.expectEnd();
    }

    @Test
    void aTruncatedOrForeignBlobFailsNamingTheField() {
        assertThatThrownBy(() -> new BinaryReader(new byte[] {(byte) 0x80}, "state of r1").readVarLong("count"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("state of r1: truncated while reading field 'count'");
        assertThatThrownBy(() -> new BinaryReader(new byte[] {1, 2, 3}, "state of r1").readLong("startNs"))
                .hasMessage("state of r1: truncated while reading field 'startNs' (need 8 bytes at offset 0, have 3)");
        assertThatThrownBy(() -> new BinaryReader(new byte[] {5, 1}, "state of r1").readBlock("histogram"))
                .hasMessage("state of r1: truncated while reading field 'histogram' (length 5, 1 bytes left)");
        byte[] elevenBytes = HexFormat.of().parseHex("ffffffffffffffffffffff01");
        assertThatThrownBy(() -> new BinaryReader(elevenBytes, "state of r1").readVarLong("sum"))
                .hasMessageStartingWith("state of r1: malformed varint in field 'sum'");
        assertThatThrownBy(() -> new BinaryReader(new byte[] {2}, "state of r1").readBoolean("present"))
                .hasMessage("state of r1: field 'present' is not a boolean (2)");
        assertThatThrownBy(() -> new BinaryReader(new byte[] {9}, "state of r1").readCount("edges", 4))
                .hasMessage("state of r1: field 'edges' = 9 is outside 0..4");
        BinaryReader trailing = new BinaryReader(new byte[] {0, 0}, "state of r1");
        trailing.readByte("version");
        assertThatThrownBy(trailing::expectEnd).hasMessage("state of r1: 1 unexpected trailing bytes");
    }
}
