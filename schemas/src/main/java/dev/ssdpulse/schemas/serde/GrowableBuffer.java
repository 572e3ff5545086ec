package dev.ssdpulse.schemas.serde;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * An unsynchronized byte sink reused across records by one thread ({@link java.io.ByteArrayOutputStream}
 * synchronizes every write). It keeps its largest capacity, so steady-state serialization allocates only the
 * result array.
 */
final class GrowableBuffer extends OutputStream {
    private byte[] bytes;
    private int count;

    GrowableBuffer(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    /** Resets to {@code prefixBytes} bytes whose content the caller fills through {@link #array()}. */
    void resetWithPrefix(int prefixBytes) {
        ensure(prefixBytes);
        count = prefixBytes;
    }

    byte[] array() {
        return bytes;
    }

    @Override
    public void write(int b) {
        ensure(count + 1);
        bytes[count++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int length) {
        ensure(count + length);
        System.arraycopy(source, offset, bytes, count, length);
        count += length;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, count);
    }

    private void ensure(int capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }
}
