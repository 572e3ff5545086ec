package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Linux native AIO ({@code io_setup} / {@code io_submit} / {@code io_getevents}), as fio's {@code libaio} engine,
 * through raw system calls (no libaio library needed): one submitting thread keeps up to {@link #maxQueueDepth()}
 * requests in flight. A reap hands the batch queued since the last one to the kernel in one {@code io_submit}
 * and collects completions with one {@code io_getevents}, so the system calls per I/O fall as the queue deepens.
 *
 * <p>Native AIO is asynchronous only with O_DIRECT: on buffered files the kernel performs the I/O inside
 * {@code io_submit} (the results are right, the queue depth is not), as with fio.
 *
 * <p>Memory: the {@code struct iocb}s (64 bytes each), the pointer array io_submit reads and the
 * {@code struct io_event}s (32 bytes) live in direct buffers written through {@link ByteBuffer} (native order), so
 * preparing a request costs a few stores and no JNA call; the buffer address of each slot is looked up once.
 */
public final class LibaioIoEngine extends AsyncIoEngineBase {
    private static final int IOCB_BYTES = 64;
    private static final int EVENT_BYTES = 32;
    private static final short IOCB_CMD_PREAD = 0;
    private static final short IOCB_CMD_PWRITE = 1;

    private long context;
    private ByteBuffer iocbs;
    private long iocbsAddress;
    private ByteBuffer pointers;
    private long pointersAddress;
    private ByteBuffer events;
    private long eventsAddress;
    private ByteBuffer timeout;
    private long timeoutAddress;
    private ByteBuffer contextHolder;

    public LibaioIoEngine(int maxQueueDepth) {
        super(maxQueueDepth);
    }

    @Override
    public String name() {
        return "libaio";
    }

    /** Null when native AIO can be used here, else why not (checked by creating and destroying a context). */
    public static String unavailableReason() {
        String why = LinuxNative.unavailableReason();
        if (why != null) {
            return why;
        }
        ByteBuffer holder = LinuxNative.allocateAligned(8, 8);
        try {
            LinuxNative.syscall(LinuxNative.SYS_IO_SETUP, 1, LinuxNative.address(holder), 0, 0, 0, 0);
            LinuxNative.syscall(LinuxNative.SYS_IO_DESTROY, holder.getLong(0), 0, 0, 0, 0, 0);
            return null;
        } catch (LastErrorException e) {
            return "io_setup failed: " + LinuxNative.describe(e.getErrorCode());
        }
    }

    @Override
    protected void setupQueue() throws IOException {
        contextHolder = LinuxNative.allocateAligned(8, 8);
        try {
            LinuxNative.syscall(LinuxNative.SYS_IO_SETUP, maxQueueDepth, LinuxNative.address(contextHolder),
                    0, 0, 0, 0);
        } catch (LastErrorException e) {
            throw new IOException("io_setup(" + maxQueueDepth + ") failed: " + LinuxNative.describe(e.getErrorCode())
                    + (e.getErrorCode() == LinuxNative.EAGAIN ? " (fs.aio-max-nr reached: raise it with sysctl, or"
                    + " use --engine psync)" : ""), e);
        }
        context = contextHolder.getLong(0);
        iocbs = LinuxNative.allocateAligned(maxQueueDepth * IOCB_BYTES, 64);
        iocbsAddress = LinuxNative.address(iocbs);
        pointers = LinuxNative.allocateAligned(maxQueueDepth * 8, 8);
        pointersAddress = LinuxNative.address(pointers);
        events = LinuxNative.allocateAligned(maxQueueDepth * EVENT_BYTES, 64);
        eventsAddress = LinuxNative.address(events);
        timeout = LinuxNative.allocateAligned(16, 8);
        timeoutAddress = LinuxNative.address(timeout);
    }

    @Override
    protected void prepare(int tag, IoSlot slot, long bufferAddress, boolean write) {
        int b = tag * IOCB_BYTES;
        // struct iocb: data@0 key@8 rw_flags@12 opcode@16 reqprio@18 fildes@20 buf@24 nbytes@32 offset@40
        // reserved2@48 flags@56 resfd@60
        iocbs.putLong(b, tag);
        iocbs.putLong(b + 8, 0);
        iocbs.putShort(b + 16, write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD);
        iocbs.putShort(b + 18, (short) 0);
        iocbs.putInt(b + 20, fd);
        iocbs.putLong(b + 24, bufferAddress);
        iocbs.putLong(b + 32, slot.sizeBytes);
        iocbs.putLong(b + 40, slot.offsetBytes);
        iocbs.putLong(b + 48, 0);
        iocbs.putLong(b + 56, 0);
    }

    @Override
    protected int submitPending() {
        for (int i = 0; i < pendingCount; i++) {
            pointers.putLong(i * 8, iocbsAddress + (long) pendingTags[i] * IOCB_BYTES);
        }
        return (int) LinuxNative.syscall(LinuxNative.SYS_IO_SUBMIT, context, pendingCount, pointersAddress, 0, 0, 0);
    }

    @Override
    protected void awaitCompletions(int min, int max, long timeoutNs) {
        long timeoutPointer = 0;
        if (timeoutNs >= 0) {
            timeout.putLong(0, timeoutNs / 1_000_000_000L);
            timeout.putLong(8, timeoutNs % 1_000_000_000L);
            timeoutPointer = timeoutAddress;
        }
        long n;
        try {
            n = LinuxNative.syscall(LinuxNative.SYS_IO_GETEVENTS, context, min, max, eventsAddress, timeoutPointer, 0);
        } catch (LastErrorException e) {
            if (e.getErrorCode() == LinuxNative.EINTR) {
                return;
            }
            throw new IllegalStateException("io_getevents failed: " + LinuxNative.describe(e.getErrorCode()), e);
        }
        completionBatchTime();
        for (int i = 0; i < n; i++) {
            int e = i * EVENT_BYTES;
            // struct io_event: data@0 obj@8 res@16 res2@24
            completed((int) events.getLong(e), events.getLong(e + 16));
        }
    }

    @Override
    protected void destroyQueue() {
        try {
            LinuxNative.syscall(LinuxNative.SYS_IO_DESTROY, context, 0, 0, 0, 0, 0);
        } catch (LastErrorException ignored) {
            // the context dies with the process anyway
        }
    }

    @Override
    protected AsyncIoEngineBase newSibling() {
        return new LibaioIoEngine(maxQueueDepth);
    }
}
