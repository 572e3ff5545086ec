package dev.ssdpulse.streams.codec;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Reader for {@link BinaryWriter} output, on Avro's binary decoder. Every read checks bounds and names what was
 * being read, so a truncated or foreign state blob fails with a specific message instead of garbage values.
 */
public final class BinaryReader {
    private final int length;
    private final BinaryDecoder decoder;
    private final String what;
    private final byte[] fixed = new byte[8];

    public BinaryReader(byte[] bytes, String what) {
        if (bytes == null) {
            throw new IllegalArgumentException(what + ": bytes are null");
        }
        this.length = bytes.length;
        this.decoder = DecoderFactory.get().binaryDecoder(bytes, null);
        this.what = what;
    }

    public int readByte(String field) {
        readFixed(fixed, 1, field);
        return fixed[0] & 0xFF;
    }

    /** Avro's decoder undoes a ZigZag step the writer did not take: it is taken again here. */
    public long readUnsignedVarLong(String field) {
        long signed = readVarLong(field);
        return (signed << 1) ^ (signed >> 63);
    }

    public long readVarLong(String field) {
        require(1, field);
        try {
            return decoder.readLong();
        } catch (EOFException e) {
            throw truncated(field, remaining() + 1);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    what + ": malformed varint in field '" + field + "' at byte " + position(), e);
        }
    }

    public int readCount(String field, int max) {
        long value = readUnsignedVarLong(field);
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + ": field '" + field + "' = " + value + " is outside 0.." + max);
        }
        return (int) value;
    }

    public long readLong(String field) {
        readFixed(fixed, 8, field);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (fixed[i] & 0xFF);
        }
        return value;
    }

    public byte[] readBlock(String field) {
        long blockLength = readUnsignedVarLong(field + " length");
        if (blockLength < 0 || blockLength > remaining()) {
            throw new IllegalArgumentException(what + ": truncated while reading field '" + field + "' (length "
                    + blockLength + ", " + remaining() + " bytes left)");
        }
        byte[] block = new byte[(int) blockLength];
        readFixed(block, block.length, field);
        return block;
    }

    public double readDouble(String field) {
        return Double.longBitsToDouble(readLong(field));
    }

    public boolean readBoolean(String field) {
        int b = readByte(field);
        if (b > 1) {
            throw new IllegalArgumentException(what + ": field '" + field + "' is not a boolean (" + b + ")");
        }
        return b == 1;
    }

    public String readString(String field) {
        return new String(readBlock(field), StandardCharsets.UTF_8);
    }

    public Long readNullableLong(String field) {
        return readBoolean(field + " present") ? readVarLong(field) : null;
    }

    public Double readNullableDouble(String field) {
        return readBoolean(field + " present") ? readDouble(field) : null;
    }

    public int remaining() {
        return decoder.remainingBytes();
    }

    public void expectEnd() {
        if (remaining() != 0) {
            throw new IllegalArgumentException(what + ": " + remaining() + " unexpected trailing bytes");
        }
    }

    private int position() {
        return length - remaining();
    }

    private void readFixed(byte[] into, int n, String field) {
        require(n, field);
        try {
            decoder.readFixed(into, 0, n);
        } catch (IOException e) {
            throw truncated(field, n);
        }
    }

    private void require(int n, String field) {
        if (n > remaining()) {
            throw truncated(field, n);
        }
    }

    private IllegalArgumentException truncated(String field, int needed) {
        return new IllegalArgumentException(what + ": truncated while reading field '" + field + "' (need " + needed
                + " bytes at offset " + position() + ", have " + remaining() + ")");
    }
}
