package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.nio.ByteBuffer;

/**
 * One outstanding I/O: the request fields, an aligned direct buffer reused for every request of the slot, and
 * what the engine fills in (status, submit and completion time). One slot per in-flight I/O; a slot is used by
 * one thread at a time, so its fields need no synchronisation.
 */
public final class IoSlot {
    /** Aligned buffer of {@link #capacityBytes()}; position/limit are set by the engine per request. */
    public final ByteBuffer buffer;

    public byte op;
    public long offsetBytes;
    public int sizeBytes;
    /** 0 on success, else a positive errno-style code ({@link IoStatus}). */
    public int status;
    /** {@link System#nanoTime()} right before the I/O was handed to the OS, and right after it returned. */
    public long submitNanos;

    public long completeNanos;
    /**
     * I/Os the submitting worker had outstanding when this one was submitted, this one included (set by the
     * runner; recorded as the I/O's queue depth).
     */
    public int queueDepthAtSubmit;
    /** A write issued with RWF_DSYNC (FUA): durable when it completes. Set by the runner per request. */
    public boolean fua;
    /**
     * The sequence a stamped write carries in its units ({@code StampFiller}), recorded with its completion;
     * {@code IoFlags.NO_SEQUENCE} otherwise.
     */
    public long writeSequence = IoFlags.NO_SEQUENCE;
    /** Native address of {@link #buffer}, looked up once by an engine that needs it (0 = not yet). */
    long bufferAddress;
    /**
     * The io_uring buffer registration that holds {@link #buffer} at {@link #fixedBufferIndex}, or null: a request
     * may name the buffer by index only while the engine's current registration is this one.
     */
    Object fixedBufferRegistration;

    int fixedBufferIndex;
    /** Data the buffer holds after the last operation; lets the pattern filler skip needless refills. */
    boolean holdsReadData;
    /** The whole buffer is known to be zeros (ZEROS pattern already applied). */
    boolean zeroed;

    public IoSlot(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    public int capacityBytes() {
        return buffer.capacity();
    }

    public long latencyNs() {
        return completeNanos - submitNanos;
    }

    /** Allocates a buffer whose address is a multiple of {@code alignmentBytes} (required by O_DIRECT). */
    public static IoSlot allocate(int capacityBytes, int alignmentBytes) {
        ByteBuffer raw = ByteBuffer.allocateDirect(capacityBytes + alignmentBytes);
        ByteBuffer aligned = raw.alignedSlice(alignmentBytes);
        aligned.limit(capacityBytes);
        return new IoSlot(aligned.slice());
    }
}
