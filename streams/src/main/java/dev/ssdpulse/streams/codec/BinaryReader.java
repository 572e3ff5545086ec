package dev.ssdpulse.streams.codec;

import java.nio.charset.StandardCharsets;

/**
 * Reader for {@link BinaryWriter} output. Every read checks bounds and names what was being read, so a
 * truncated or foreign state blob fails with a specific message instead of garbage values.
 */
public final class BinaryReader {
    private final byte[] bytes;
    private final String what;
    private int position;

    public BinaryReader(byte[] bytes, String what) {
        if (bytes == null) {
            throw new IllegalArgumentException(what + ": bytes are null");
        }
        this.bytes = bytes;
        this.what = what;
    }

    public int readByte(String field) {
        require(1, field);
        return bytes[position++] & 0xFF;
    }

    public long readUnsignedVarLong(String field) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            require(1, field);
            byte b = bytes[position++];
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException(what + ": malformed varint in field '" + field + "' at byte " + position);
    }

    public long readVarLong(String field) {
        long raw = readUnsignedVarLong(field);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public int readCount(String field, int max) {
        long value = readUnsignedVarLong(field);
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(what + ": field '" + field + "' = " + value + " is outside 0.." + max);
        }
        return (int) value;
    }

    public long readLong(String field) {
        require(8, field);
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = (value << 8) | (bytes[position++] & 0xFF);
        }
        return value;
    }

    public byte[] readBlock(String field) {
        long length = readUnsignedVarLong(field + " length");
        if (length < 0 || length > remaining()) {
            throw new IllegalArgumentException(what + ": truncated while reading field '" + field + "' (length "
                    + length + ", " + remaining() + " bytes left)");
        }
        byte[] block = new byte[(int) length];
        System.arraycopy(bytes, position, block, 0, block.length);
        position += block.length;
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
        return bytes.length - position;
    }

    public void expectEnd() {
        if (remaining() != 0) {
            throw new IllegalArgumentException(what + ": " + remaining() + " unexpected trailing bytes");
        }
    }

    private void require(int n, String field) {
        if (position + n > bytes.length) {
            throw new IllegalArgumentException(what + ": truncated while reading field '" + field + "' (need " + n
                    + " bytes at offset " + position + ", have " + (bytes.length - position) + ")");
        }
    }
}
