package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel-queue engines ({@link LibaioIoEngine}, {@link IoUringIoEngine}) share: the descriptor opened
 * through libc (O_DIRECT where asked), request checks, a table of in-flight slots indexed by a small tag the
 * kernel hands back with each completion, the batch of requests queued since the last reap, and synchronous TRIM
 * ({@link LinuxDiscard}) and FLUSH ({@code fdatasync}), which neither kernel interface is used for here.
 *
 * <p>One submitting thread per engine (see {@link IoEngine}); nothing here is synchronised.
 *
 * <p>Timing: a request's {@code submitNanos} is taken once per batch, right before the system call that hands
 * the batch to the kernel; {@code completeNanos} once per reaped batch, right after the call (or the read of the
 * mapped completion ring) that returned the completions, as fio stamps a reaped batch. So a latency includes the
 * system-call transitions and, for a completion that arrived while the thread was busy submitting, the time until
 * the thread looked; it never includes time a request spent queued inside ssdpulse before its batch was
 * submitted.
 */
abstract class AsyncIoEngineBase implements IoEngine {
    protected final int maxQueueDepth;
    private Path target;
    private long sizeBytes;
    private boolean direct;
    private boolean writable;
    protected int fd = -1;
    private int alignmentBytes = 1;
    private volatile String lastError;
    private TrimSupport trim = TrimSupport.none();
    private IoRequestCheck.Target checkTarget;

    /** Immediate retries of a submission refused with EINTR or EAGAIN before the request fails with that errno. */
    private static final int MAX_SUBMIT_RETRIES = 10_000;
    /** In-flight slots by tag; free tags on a stack. */
    protected final IoSlot[] inFlight;

    private final int[] freeTags;
    private int freeCount;
    /** Tags queued by submit, not yet handed to the kernel, in submission order. */
    protected final int[] pendingTags;

    protected int pendingCount;
    /** Slots the kernel refused at submission: handed back by the next reap with their errno. */
    private final IoSlot[] refused;

    private int refusedCount;

    protected AsyncIoEngineBase(int maxQueueDepth) {
        if (maxQueueDepth < 1 || maxQueueDepth > 4096) {
            throw new IllegalArgumentException("queue depth must be 1..4096, got " + maxQueueDepth);
        }
        this.maxQueueDepth = maxQueueDepth;
        this.inFlight = new IoSlot[maxQueueDepth];
        this.freeTags = new int[maxQueueDepth];
        this.pendingTags = new int[maxQueueDepth];
        this.refused = new IoSlot[maxQueueDepth];
        for (int i = 0; i < maxQueueDepth; i++) {
            freeTags[i] = maxQueueDepth - 1 - i;
        }
        freeCount = maxQueueDepth;
    }

    @Override
    public final boolean asynchronous() {
        return true;
    }

    @Override
    public final int maxQueueDepth() {
        return maxQueueDepth;
    }

    /** Requests handed to the kernel (or queued for it) and not yet reaped. */
    protected final int inFlightCount() {
        return maxQueueDepth - freeCount;
    }

    /** Creates the kernel queue for {@link #maxQueueDepth} requests; throws with errno text if refused. */
    protected abstract void setupQueue() throws IOException;

    /**
     * Makes sure the kernel has taken every request {@link #submitPending} published; called by a reap that only
     * submits. Nothing to do where publishing is the system call (libaio's {@code io_submit}).
     */
    protected void commit() {}

    /** Called by the first submit of a batch, before it takes a slot: where an engine checks which thread submits. */
    protected void beforeBatch() {}

    /** Writes the kernel request for {@code slot} under {@code tag} (not yet submitted). */
    protected abstract void prepare(int tag, IoSlot slot, long bufferAddress, boolean write);

    /**
     * Hands {@code pendingTags[0, pendingCount)} to the kernel and returns how many it took (from the front);
     * throws when it took none, with the errno that belongs to the first one.
     */
    protected abstract int submitPending() throws LastErrorException;

    /**
     * Waits for completions (at least {@code min}, at most {@code max}, {@code timeoutNs} negative = no limit) and
     * reports each through {@link #completed}. Returns early on timeout or signal.
     */
    protected abstract void awaitCompletions(int min, int max, long timeoutNs);

    protected abstract void destroyQueue();

    /** Opens a new engine of the same kind and depth; {@link #openSibling} then opens it on the same target. */
    protected abstract AsyncIoEngineBase newSibling();

    @Override
    public void open(Path target, long sizeBytes, boolean direct, boolean writable) throws IOException {
        if (fd >= 0) {
            throw new IllegalStateException("engine already open");
        }
        String why = LinuxNative.unavailableReason();
        if (why != null) {
            throw new IOException(name() + " engine unavailable: " + why);
        }
        int flags = (writable ? LinuxNative.O_RDWR : LinuxNative.O_RDONLY)
                | LinuxNative.O_CLOEXEC
                | (direct ? LinuxNative.O_DIRECT : 0);
        // A block device is opened without access-time updates, as fio opens every target that is not a regular
        // file: otherwise each read passes the kernel's atime check (atime_needs_update, ~0.1 us per read in a
        // profile of QD1 reads on a loop device, absent from fio's). The kernel refuses O_NOATIME with EPERM to a
        // caller that neither owns the device node nor holds CAP_FOWNER (a user in group disk); fio then opens
        // without it, and so does this.
        boolean noAtime = !Files.isRegularFile(target);
        try {
            fd = openTarget(target, flags, noAtime);
        } catch (LastErrorException e) {
            throw new IOException(
                    "cannot open " + target + (direct ? " with O_DIRECT" : "")
                            + (writable ? " for writing" : " for reading") + ": "
                            + LinuxNative.describe(e.getErrorCode())
                            + (e.getErrorCode() == IoStatus.EINVAL && direct
                                    ? "; the file system may not support O_DIRECT" + " (run with --buffered)"
                                    : ""),
                    e);
        }
        try {
            // The same rule as the psync engine (and the JDK's O_DIRECT channel): the file store's block size.
            alignmentBytes = direct ? (int) Files.getFileStore(target).getBlockSize() : 1;
            setupQueue();
        } catch (IOException | RuntimeException e) {
            closeFd();
            throw e;
        }
        this.target = target;
        this.sizeBytes = sizeBytes;
        this.direct = direct;
        this.writable = writable;
        trim = TrimSupport.open(target, writable);
        // fixed while the target is open: built once, not per I/O
        checkTarget = new IoRequestCheck.Target(
                sizeBytes, direct, alignmentBytes, trim.available(), trim.unavailableReason());
    }

    private static int openTarget(Path target, int flags, boolean noAtime) throws LastErrorException {
        if (noAtime) {
            try {
                return LinuxNative.open(target.toString(), flags | LinuxNative.O_NOATIME);
            } catch (LastErrorException e) {
                if (e.getErrorCode() != LinuxNative.EPERM) {
                    throw e;
                }
            }
        }
        return LinuxNative.open(target.toString(), flags);
    }

    @Override
    public IoEngine openSibling() throws IOException {
        if (fd < 0) {
            throw new IllegalStateException("open the engine before its siblings");
        }
        AsyncIoEngineBase sibling = newSibling();
        sibling.open(target, sizeBytes, direct, writable);
        return sibling;
    }

    @Override
    public int alignmentBytes() {
        return alignmentBytes;
    }

    @Override
    public boolean supportsTrim() {
        return trim.available();
    }

    /**
     * Looks the buffer's native address up here, once per slot, not on its first submit: a runner allocates new
     * slots for every phase, and a lazy lookup in {@link #submit} is a branch the JIT compiles as never taken during
     * the first phase; taking it when the next phase starts deoptimises the whole compiled I/O loop (seen with
     * {@code -XX:+LogCompilation} as an {@code unstable_if} trap at the phase change).
     */
    @Override
    public IoSlot allocateSlot(int capacityBytes) {
        IoSlot slot = IoEngine.super.allocateSlot(capacityBytes);
        slot.bufferAddress = LinuxNative.address(slot.buffer);
        return slot;
    }

    @Override
    public final boolean submit(IoSlot slot) {
        String refusal = IoRequestCheck.completeIfRefused(slot, checkTarget, name());
        if (refusal != null) {
            lastError = refusal;
            return true;
        }
        switch (slot.op) {
            case IoOpCode.READ, IoOpCode.WRITE -> {
                if (pendingCount == 0) {
                    beforeBatch();
                }
                if (freeCount == 0) {
                    throw new IllegalStateException(name() + ": more than " + maxQueueDepth
                            + " I/Os outstanding (reap before submitting more)");
                }
                int tag = freeTags[--freeCount];
                inFlight[tag] = slot;
                long address = slot.bufferAddress;
                if (address == 0) { // a slot this engine did not allocate
                    address = LinuxNative.address(slot.buffer);
                    slot.bufferAddress = address;
                }
                prepare(tag, slot, address, slot.op == IoOpCode.WRITE);
                pendingTags[pendingCount++] = tag;
                return false;
            }
            case IoOpCode.TRIM -> {
                slot.submitNanos = System.nanoTime();
                int errno = trim.discard(slot.offsetBytes, slot.sizeBytes);
                slot.completeNanos = System.nanoTime();
                slot.status = errno;
                if (errno != IoStatus.OK) {
                    lastError = "TRIM of " + slot.sizeBytes + " bytes at offset " + slot.offsetBytes + " failed with "
                            + LinuxNative.describe(errno) + " (" + trim.method() + ")";
                }
                return true;
            }
            case IoOpCode.FLUSH -> {
                slot.submitNanos = System.nanoTime();
                try {
                    LinuxNative.fdatasync(fd);
                    slot.status = IoStatus.OK;
                } catch (LastErrorException e) {
                    slot.status = e.getErrorCode() > 0 ? e.getErrorCode() : IoStatus.EIO;
                    lastError = "fdatasync failed: " + LinuxNative.describe(e.getErrorCode());
                }
                slot.completeNanos = System.nanoTime();
                return true;
            }
            default -> {
                slot.submitNanos = System.nanoTime();
                slot.completeNanos = slot.submitNanos;
                slot.status = IoStatus.EOPNOTSUPP;
                return true;
            }
        }
    }

    private IoSlot[] reapOut;
    private int reapCount;
    private int reapMax;
    private long reapNanos;

    @Override
    public final int reap(IoSlot[] out, int min, int max, long timeoutNs) {
        flush();
        int n = 0;
        while (refusedCount > 0 && n < max) {
            out[n++] = refused[--refusedCount];
        }
        int outstanding = maxQueueDepth - freeCount;
        if (max == 0) {
            if (outstanding > 0) {
                commit();
            }
            return 0;
        }
        if (n >= max || outstanding == 0) {
            return n;
        }
        reapOut = out;
        reapCount = n;
        reapMax = max;
        int wantMin = Math.min(outstanding, Math.max(0, min - n));
        awaitCompletions(wantMin, Math.min(max - n, outstanding), n > 0 ? 0 : timeoutNs);
        reapOut = null;
        return reapCount;
    }

    /** Stamps the batch's completion time; call once per batch, right after the call that returned it. */
    protected final void completionBatchTime() {
        reapNanos = System.nanoTime();
    }

    /**
     * One completion from the kernel: {@code result} is the byte count or a negative errno.
     *
     * @return false when the caller's output is full (then stop reading completions)
     */
    protected final boolean completed(int tag, long result) {
        IoSlot slot = inFlight[tag];
        inFlight[tag] = null;
        freeTags[freeCount++] = tag;
        slot.completeNanos = reapNanos;
        if (result == slot.sizeBytes) {
            slot.status = IoStatus.OK;
            if (slot.op == IoOpCode.READ) {
                slot.holdsReadData = true;
            }
        } else if (result < 0) {
            slot.status = (int) -result;
            lastError = opName(slot) + " of " + slot.sizeBytes + " bytes at offset " + slot.offsetBytes + " failed: "
                    + LinuxNative.describe((int) -result);
        } else {
            slot.status = IoStatus.EIO;
            lastError = "short " + opName(slot) + " at offset " + slot.offsetBytes + ": " + result + " of "
                    + slot.sizeBytes + " bytes";
        }
        reapOut[reapCount++] = slot;
        return reapCount < reapMax;
    }

    private static String opName(IoSlot slot) {
        return slot.op == IoOpCode.READ ? "read" : "write";
    }

    /** Hands the pending batch to the kernel; a request it refuses completes with the errno at the next reap. */
    private void flush() {
        if (pendingCount == 0) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < pendingCount; i++) {
            inFlight[pendingTags[i]].submitNanos = now;
        }
        int retries = 0;
        while (pendingCount > 0) {
            int taken;
            try {
                taken = submitPending();
                retries = 0;
            } catch (LastErrorException e) {
                int errno = e.getErrorCode();
                if ((errno == LinuxNative.EINTR || errno == LinuxNative.EAGAIN) && ++retries <= MAX_SUBMIT_RETRIES) {
                    // retried at once: the queue was sized for maxQueueDepth, so EAGAIN is transient; a kernel
                    // that keeps refusing fails the request below rather than spinning here for ever
                    continue;
                }
                int tag = pendingTags[0];
                IoSlot slot = inFlight[tag];
                inFlight[tag] = null;
                freeTags[freeCount++] = tag;
                slot.completeNanos = System.nanoTime();
                slot.status = errno > 0 ? errno : IoStatus.EIO;
                lastError = "submitting a " + opName(slot) + " at offset " + slot.offsetBytes + " failed: "
                        + LinuxNative.describe(errno);
                refused[refusedCount++] = slot;
                taken = 1;
            }
            System.arraycopy(pendingTags, taken, pendingTags, 0, pendingCount - taken);
            pendingCount -= taken;
        }
    }

    /** How TRIM is issued on this target, or why it is not available. */
    public String trimMethod() {
        return trim.method();
    }

    @Override
    public String lastError() {
        return lastError;
    }

    @Override
    public void close() throws IOException {
        trim.close();
        trim = TrimSupport.none();
        if (fd >= 0) {
            // Tearing the queue down waits for requests still in flight: their buffers must not be reused before.
            destroyQueue();
            closeFd();
        }
    }

    private void closeFd() {
        try {
            LinuxNative.close(fd);
        } catch (LastErrorException ignored) {
            // the descriptor is gone either way; O_DIRECT writes were already completed by the queue teardown
        }
        fd = -1;
        checkTarget = null;
    }
}
