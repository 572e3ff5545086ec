package dev.ssdpulse.producer.device.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * TRIM on an engine's target: the {@link LinuxDiscard} opened beside the data descriptor when the target is writable
 * and can discard, or why it cannot. Every engine issues TRIM synchronously through it (the kernel has no
 * asynchronous discard that libaio or io_uring's opcodes cover on every kernel this runs on).
 */
final class TrimSupport implements AutoCloseable {
    private final LinuxDiscard discard;
    private final String unavailableReason;

    private TrimSupport(LinuxDiscard discard, String unavailableReason) {
        this.discard = discard;
        this.unavailableReason = unavailableReason;
    }

    /** Before an engine is opened, or when it is closed. */
    static TrimSupport none() {
        return new TrimSupport(null, "target not open for writing");
    }

    static TrimSupport open(Path target, boolean writable) {
        if (!writable) {
            return none();
        }
        try {
            return new TrimSupport(LinuxDiscard.open(target), null);
        } catch (IOException e) {
            return new TrimSupport(null, e.getMessage());
        }
    }

    boolean available() {
        return discard != null;
    }

    String unavailableReason() {
        return unavailableReason;
    }

    /** How TRIM is issued on this target, or why it is not available. */
    String method() {
        return discard != null ? discard.method() : "unavailable: " + unavailableReason;
    }

    /** 0, or the errno of the discard; only when {@link #available()}. */
    int discard(long offsetBytes, long lengthBytes) {
        return discard.discard(offsetBytes, lengthBytes);
    }

    @Override
    public void close() {
        if (discard != null) {
            discard.close();
        }
    }
}
