package dev.ssdpulse.schemas.serde;

/** The Confluent wire format: magic byte 0, 4-byte big-endian schema id, then the Avro binary body. */
public final class WireFormat {
    public static final byte MAGIC_BYTE = 0;
    /** Bytes before the Avro body. */
    public static final int HEADER_SIZE_BYTES = 5;

    private WireFormat() {}

    /** Writes the 5-byte header at {@code buffer[0..4]}. */
    static void writeHeader(byte[] buffer, int schemaId) {
        buffer[0] = MAGIC_BYTE;
        buffer[1] = (byte) (schemaId >>> 24);
        buffer[2] = (byte) (schemaId >>> 16);
        buffer[3] = (byte) (schemaId >>> 8);
        buffer[4] = (byte) schemaId;
    }

    /** The schema id of a payload whose header was already checked. */
    public static int schemaId(byte[] payload) {
        return ((payload[1] & 0xff) << 24)
                | ((payload[2] & 0xff) << 16)
                | ((payload[3] & 0xff) << 8)
                | (payload[4] & 0xff);
    }
}
