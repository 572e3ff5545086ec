package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * Linux native AIO ({@code io_setup} / {@code io_submit} / {@code io_getevents}), as fio's {@code libaio} engine,
 * through raw system calls (no libaio library needed): one submitting thread keeps up to {@link #maxQueueDepth()}
 * requests in flight. A reap hands the batch queued since the last one to the kernel in one {@code io_submit}
 * and collects completions with at most one {@code io_getevents} (see below), so the system calls per I/O fall as
 * the queue deepens.
 *
 * <p>Native AIO is asynchronous only with O_DIRECT: on buffered files the kernel performs the I/O inside
 * {@code io_submit} (the results are right, the queue depth is not), as with fio.
 *
 * <p>Memory: the {@code struct iocb}s (64 bytes each), the pointer array io_submit reads and the
 * {@code struct io_event}s (32 bytes) live in direct buffers written through {@link ByteBuffer} (native order), so
 * preparing a request costs a few stores and no JNA call; the buffer address of each slot is looked up once.
 *
 * <p>Reaping in user space, as fio's {@code userspace_reap} option and libaio's own zero-timeout check: the kernel
 * writes completions into a ring mapped into the process at the context's address ({@code struct aio_ring}), and
 * a reap first takes what is already there, entering {@code io_getevents} only when it must wait for more. On a
 * device that completes inside {@code io_submit} (a RAM disk, a page-cache hit) or at depth, where completions pile
 * up while the thread submits, that saves one system call per reap. The kernel supports it: it reads the ring's
 * head back when it accounts free slots ({@code user_refill_reqs_available}). Memory ordering as with io_uring: the
 * kernel's tail is read with acquire semantics, our head written with release.
 */
public final class LibaioIoEngine extends AsyncIoEngineBase {
    private static final int IOCB_BYTES = 64;
    private static final int EVENT_BYTES = 32;
    private static final short IOCB_CMD_PREAD = 0;
    private static final short IOCB_CMD_PWRITE = 1;
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, LinuxNative.ORDER);
    /** struct aio_ring: id@0 nr@4 head@8 tail@12 magic@16 compat_features@20 incompat_features@24 header_length@28. */
    private static final int AIO_RING_MAGIC = 0xa10a10a1;

    private static final int RING_HEADER_BYTES = 32;

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
    /** The completion ring, or null where its header is not the layout read here (then every reap is a call). */
    private ByteBuffer ring;

    private int ringEvents;

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
            LinuxNative.syscall(
                    LinuxNative.SYS_IO_SETUP, maxQueueDepth, LinuxNative.address(contextHolder), 0, 0, 0, 0);
        } catch (LastErrorException e) {
            throw new IOException(
                    "io_setup(" + maxQueueDepth + ") failed: " + LinuxNative.describe(e.getErrorCode())
                            + (e.getErrorCode() == LinuxNative.EAGAIN
                                    ? " (fs.aio-max-nr reached: raise it with sysctl, or" + " use --engine psync)"
                                    : ""),
                    e);
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
        mapRing();
    }

    /** Maps the context's completion ring when its header says it is the layout this engine reads. */
    private void mapRing() {
        ring = null;
        ByteBuffer header =
                new Pointer(context).getByteBuffer(0, RING_HEADER_BYTES).order(LinuxNative.ORDER);
        int events = header.getInt(4);
        if (header.getInt(16) != AIO_RING_MAGIC
                || header.getInt(24) != 0
                || header.getInt(28) != RING_HEADER_BYTES
                || events <= 0) {
            return;
        }
        ringEvents = events;
        ring = new Pointer(context)
                .getByteBuffer(0, RING_HEADER_BYTES + (long) events * EVENT_BYTES)
                .order(LinuxNative.ORDER);
    }

    /** Whether completions are read from the mapped ring before entering the kernel (for tests). */
    boolean reapsInUserSpace() {
        return ring != null;
    }

    @Override
    protected void prepare(int tag, IoSlot slot, long bufferAddress, boolean write) {
        int b = tag * IOCB_BYTES;
        // struct iocb: data@0 key@8 rw_flags@12 opcode@16 reqprio@18 fildes@20 buf@24 nbytes@32 offset@40
        // reserved2@48 flags@56 resfd@60
        iocbs.putLong(b, tag);
        iocbs.putLong(b + 8, 0);
        if (write && slot.fua) {
            iocbs.putInt(b + 12, LinuxNative.RWF_DSYNC); // aio_rw_flags (Linux 4.13)
        }
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
        if (ring != null) {
            int ready = harvest(max);
            if (ready >= min) {
                return;
            }
            min -= ready; // the call below waits for the rest (the kernel reads the head written above)
            max -= ready;
        }
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

    /** Takes up to {@code max} completions from the mapped ring without a system call; returns how many. */
    private int harvest(int max) {
        int tail = (int) INT.getAcquire(ring, 12);
        int head = ring.getInt(8);
        if (head == tail || max <= 0) {
            return 0;
        }
        completionBatchTime();
        int n = 0;
        while (head != tail && n < max) {
            int e = RING_HEADER_BYTES + head * EVENT_BYTES;
            // struct io_event: data@0 obj@8 res@16 res2@24
            completed((int) ring.getLong(e), ring.getLong(e + 16));
            head = head + 1 == ringEvents ? 0 : head + 1;
            n++;
        }
        INT.setRelease(ring, 8, head);
        return n;
    }

    @Override
    protected void destroyQueue() {
        ring = null;
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
