package dev.ssdpulse.streams.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Byte sink for the compact state encodings of the accumulators, on Avro's binary encoder: signed values are
 * Avro longs (ZigZag varints, so small negatives such as an unset watermark delta stay short), counts and lengths
 * are unsigned LEB128 varints (the same varint without the ZigZag step), fixed-width longs and doubles are 8 bytes
 * big-endian. {@link BinaryReader} reads it back.
 */
public final class BinaryWriter {
    private final ByteArrayOutputStream bytes;
    private final BinaryEncoder encoder;
    private final byte[] fixed = new byte[8];

    public BinaryWriter(int initialCapacity) {
        bytes = new ByteArrayOutputStream(Math.max(16, initialCapacity));
        encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    }

    public BinaryWriter writeByte(int value) {
        fixed[0] = (byte) value;
        return writeBytes(fixed, 0, 1);
    }

    /**
     * Unsigned LEB128; the caller guarantees value >= 0 (counts, lengths). Avro's encoder ZigZag-encodes the long
     * it is given, so it is given the long whose ZigZag encoding is {@code value}.
     */
    public BinaryWriter writeUnsignedVarLong(long value) {
        return writeVarLong((value >>> 1) ^ -(value & 1));
    }

    public BinaryWriter writeVarLong(long value) {
        try {
            encoder.writeLong(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public BinaryWriter writeLong(long value) {
        for (int i = 0; i < 8; i++) {
            fixed[i] = (byte) (value >>> (56 - 8 * i));
        }
        return writeBytes(fixed, 0, 8);
    }

    public BinaryWriter writeBytes(byte[] source, int offset, int length) {
        try {
            encoder.writeFixed(source, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Length-prefixed byte block. */
    public BinaryWriter writeBlock(byte[] block) {
        writeUnsignedVarLong(block.length);
        return writeBytes(block, 0, block.length);
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
        flush();
        return bytes.size();
    }

    public byte[] toByteArray() {
        flush();
        return bytes.toByteArray();
    }

    private void flush() {
        try {
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
