package dev.ssdpulse.streams.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Growable byte sink with LEB128 varints, for the compact state encodings of the accumulators. Signed
 * values are ZigZag-encoded so small negatives (e.g. an unset watermark delta) stay short.
 */
public final class BinaryWriter {
    private byte[] buffer;
    private int size;

    public BinaryWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    public BinaryWriter writeByte(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    /** Unsigned LEB128; the caller guarantees value >= 0 (counts, lengths). */
    public BinaryWriter writeUnsignedVarLong(long value) {
        ensure(10);
        long v = value;
        while ((v & ~0x7FL) != 0) {
            buffer[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[size++] = (byte) v;
        return this;
    }

    public BinaryWriter writeVarLong(long value) {
        return writeUnsignedVarLong((value << 1) ^ (value >> 63));
    }

    public BinaryWriter writeLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
        return this;
    }

    public BinaryWriter writeBytes(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
        return this;
    }

    /** Length-prefixed byte block. */
    public BinaryWriter writeBlock(byte[] bytes) {
        writeUnsignedVarLong(bytes.length);
        return writeBytes(bytes, 0, bytes.length);
    }

    public BinaryWriter writeDouble(double value) {
        return writeLong(Double.doubleToRawLongBits(value));
    }

    public BinaryWriter writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    public BinaryWriter writeString(String value) {
        return writeBlock(value.getBytes(StandardCharsets.UTF_8));
    }

    /** Presence byte, then the ZigZag varint when present. */
    public BinaryWriter writeNullableLong(Long value) {
        writeBoolean(value != null);
        return value == null ? this : writeVarLong(value);
    }

    public BinaryWriter writeNullableDouble(Double value) {
        writeBoolean(value != null);
        return value == null ? this : writeDouble(value);
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    private void ensure(int extra) {
        if (size + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + extra));
        }
    }
}
