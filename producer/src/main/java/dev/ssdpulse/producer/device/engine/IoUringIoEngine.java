package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * io_uring through raw system calls ({@code io_uring_setup}, {@code io_uring_enter}; no liburing), as fio's
 * {@code io_uring} engine without its optional polling modes: the submission and completion rings are mapped into
 * the process, requests are written as SQEs and completions read as CQEs in shared memory, and one
 * {@code io_uring_enter} per reap both submits the batch queued since the last reap and waits for completions.
 *
 * <p>Memory ordering: the kernel reads the SQ tail and writes the CQ tail concurrently with us. They are accessed
 * through a {@link VarHandle} view of the mapped ring with release (our SQ tail, CQ head) and acquire (the kernel's
 * CQ tail) semantics, as liburing's {@code io_uring_smp_store_release} / {@code load_acquire}.
 *
 * <p>Registered resources, as fio's {@code registerfiles} and {@code fixedbufs} options and its {@code t/io_uring}
 * tool use them: the target's descriptor is registered with the ring, so a request names it by index and the
 * kernel takes no file reference per request, and the slots' buffers are registered ({@code IORING_REGISTER_BUFFERS}),
 * so a request names its buffer by index ({@code READ_FIXED} / {@code WRITE_FIXED}) and the kernel pins its pages
 * once instead of on every O_DIRECT request. The buffers registered are those of the slots allocated since the last
 * registration, re-registered when a submitting thread binds the ring ({@link #bindSubmitter}) with nothing in
 * flight; a slot from an older registration, or allocated after it, goes as a plain READ / WRITE. Where the kernel
 * refuses a registration (a low {@code RLIMIT_MEMLOCK} for an unprivileged user: registered buffers are locked
 * memory), requests go unregistered, as fio's defaults do; {@link #registrationRefusal()} says why.
 *
 * <p>Availability: kernels from 5.1 have io_uring, READ/WRITE opcodes need 5.6, timeouts on the wait need
 * {@code IORING_FEAT_EXT_ARG} (5.11); containers and hardened kernels often refuse it ({@code io_uring_setup}
 * fails with EPERM under a seccomp profile or with {@code kernel.io_uring_disabled=2}, ENOSYS when compiled out).
 * {@link #unavailableReason()} tries a real setup, so the answer is the kernel's, not a guess.
 */
public final class IoUringIoEngine extends AsyncIoEngineBase {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, LinuxNative.ORDER);
    private static final int SQE_BYTES = 64;
    private static final int CQE_BYTES = 16;
    private static final byte IORING_OP_READ_FIXED = 4;
    private static final byte IORING_OP_WRITE_FIXED = 5;
    private static final byte IORING_OP_READ = 22;
    private static final byte IORING_OP_WRITE = 23;
    private static final byte IOSQE_FIXED_FILE = 1;
    private static final int IORING_ENTER_GETEVENTS = 1;
    private static final int IORING_ENTER_EXT_ARG = 8;
    private static final int IORING_SETUP_CQSIZE = 1 << 3;
    private static final int IORING_SETUP_R_DISABLED = 1 << 6;
    private static final int IORING_SETUP_COOP_TASKRUN = 1 << 8;
    private static final int IORING_SETUP_SINGLE_ISSUER = 1 << 12;
    private static final int IORING_SETUP_DEFER_TASKRUN = 1 << 13;
    private static final int IORING_REGISTER_BUFFERS = 0;
    private static final int IORING_UNREGISTER_BUFFERS = 1;
    private static final int IORING_REGISTER_FILES = 2;
    private static final int IORING_REGISTER_ENABLE_RINGS = 12;
    /** The kernel's limit on buffers in one registration (IORING_MAX_REG_BUFFERS). */
    private static final int MAX_REGISTERED_BUFFERS = 1 << 14;
    /**
     * Ring set-up flags, best first, as fio 3.33 asks for them: completions are run as task work only when the
     * submitting thread enters the kernel to reap ({@code DEFER_TASKRUN}, Linux 6.1, which needs
     * {@code SINGLE_ISSUER}) instead of interrupting it, or at least without an IPI ({@code COOP_TASKRUN}, 5.19).
     * A kernel that does not know a flag refuses the set-up with EINVAL, and the next set is tried.
     */
    private static final int[] SETUP_FLAGS = {
        IORING_SETUP_CQSIZE
                | IORING_SETUP_COOP_TASKRUN
                | IORING_SETUP_SINGLE_ISSUER
                | IORING_SETUP_DEFER_TASKRUN
                | IORING_SETUP_R_DISABLED,
        IORING_SETUP_CQSIZE | IORING_SETUP_COOP_TASKRUN,
        0
    };

    private static final int IORING_FEAT_SINGLE_MMAP = 1;
    private static final int IORING_FEAT_EXT_ARG = 1 << 8;
    private static final long IORING_OFF_SQ_RING = 0;
    private static final long IORING_OFF_CQ_RING = 0x8000000L;
    private static final long IORING_OFF_SQES = 0x10000000L;
    private static final int PROT_READ_WRITE = 3;
    private static final int MAP_SHARED_POPULATE = 0x01 | 0x8000;

    private int ringFd = -1;
    private long sqRingAddress;
    private long sqRingBytes;
    private long cqRingAddress;
    private long cqRingBytes;
    private long sqesAddress;
    private long sqesBytes;
    private ByteBuffer sqRing;
    private ByteBuffer cqRing;
    private ByteBuffer sqes;
    private int sqHeadOff, sqTailOff, sqMask, sqArrayOff;
    private int cqHeadOff, cqTailOff, cqMask, cqesOff;
    /** Our copy of the SQ tail (only we write it) and CQ head (only we write it). */
    private int sqTail;

    private int cqHead;
    /** SQEs published in the ring, not yet passed to io_uring_enter. */
    private int unsubmitted;

    private boolean extArg;
    private ByteBuffer getEventsArg;
    private long getEventsArgAddress;
    private ByteBuffer timespec;
    private long timespecAddress;
    /** The set-up flags the kernel took ({@link #SETUP_FLAGS}). */
    private int setupFlags;
    /**
     * The thread the ring belongs to. A single-issuer ring is bound by the kernel to the thread that enables it,
     * and any other thread's {@code io_uring_enter} fails with EEXIST; the device runner starts a new submitting
     * thread per phase, so a ring is enabled by its first user and re-created when another thread takes the engine
     * over with nothing in flight.
     */
    private Thread issuer;
    /** Whether the target's descriptor is registered with the current ring (requests then name index 0). */
    private boolean fileRegistered;
    /** Slots allocated since the last buffer registration: the next registration's buffers. */
    private final List<IoSlot> newSlots = new ArrayList<>();
    /** The slots whose buffers the current registration holds (or will hold again in a re-created ring). */
    private IoSlot[] bufferSlots = new IoSlot[0];
    /** Identifies the current ring's buffer registration (see {@link IoSlot#fixedBufferRegistration}); null: none. */
    private Object bufferRegistration;
    /** Why the kernel refused the last file or buffer registration, or null. */
    private String registrationRefusal;

    public IoUringIoEngine(int maxQueueDepth) {
        super(maxQueueDepth);
    }

    @Override
    public String name() {
        return "io_uring";
    }

    /** Null when io_uring can be used here, else the kernel's refusal (checked by setting up a real ring). */
    public static String unavailableReason() {
        String why = LinuxNative.unavailableReason();
        if (why != null) {
            return why;
        }
        ByteBuffer params = LinuxNative.allocateAligned(120, 8);
        try {
            int fd = (int)
                    LinuxNative.syscall(LinuxNative.SYS_IO_URING_SETUP, 1, LinuxNative.address(params), 0, 0, 0, 0);
            LinuxNative.close(fd);
            if ((params.getInt(20) & IORING_FEAT_EXT_ARG) == 0) {
                return "this kernel's io_uring lacks IORING_FEAT_EXT_ARG (waits with a timeout need Linux 5.11)";
            }
            return null;
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            return "io_uring_setup failed with " + LinuxNative.describe(errno)
                    + switch (errno) {
                        case 1 -> ": refused by the kernel (kernel.io_uring_disabled or a seccomp/container policy)";
                        case 38 -> ": this kernel has no io_uring";
                        default -> "";
                    };
        }
    }

    @Override
    protected void setupQueue() throws IOException {
        ByteBuffer params = LinuxNative.allocateAligned(120, 8);
        for (int i = 0; ; i++) {
            params.clear();
            for (int b = 0; b < 120; b += 8) {
                params.putLong(b, 0);
            }
            params.putInt(4, maxQueueDepth); // cq_entries, read with IORING_SETUP_CQSIZE: one CQE per request
            params.putInt(8, SETUP_FLAGS[i]);
            try {
                ringFd = (int) LinuxNative.syscall(
                        LinuxNative.SYS_IO_URING_SETUP, maxQueueDepth, LinuxNative.address(params), 0, 0, 0, 0);
                setupFlags = SETUP_FLAGS[i];
                break;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != IoStatus.EINVAL || i == SETUP_FLAGS.length - 1) {
                    throw new IOException(
                            "io_uring_setup(" + maxQueueDepth + ") failed: " + LinuxNative.describe(e.getErrorCode())
                                    + " (use --engine libaio)",
                            e);
                }
            }
        }
        issuer = null;
        try {
            int sqEntries = params.getInt(0);
            int cqEntries = params.getInt(4);
            int features = params.getInt(20);
            extArg = (features & IORING_FEAT_EXT_ARG) != 0;
            // struct io_sqring_offsets at 40: head tail ring_mask ring_entries flags dropped array
            sqHeadOff = params.getInt(40);
            sqTailOff = params.getInt(44);
            int sqMaskOff = params.getInt(48);
            sqArrayOff = params.getInt(64);
            // struct io_cqring_offsets at 80: head tail ring_mask ring_entries overflow cqes flags
            cqHeadOff = params.getInt(80);
            cqTailOff = params.getInt(84);
            int cqMaskOff = params.getInt(88);
            cqesOff = params.getInt(100);
            sqRingBytes = sqArrayOff + (long) sqEntries * 4;
            cqRingBytes = cqesOff + (long) cqEntries * CQE_BYTES;
            if ((features & IORING_FEAT_SINGLE_MMAP) != 0) {
                sqRingBytes = Math.max(sqRingBytes, cqRingBytes);
                cqRingBytes = 0;
            }
            sqRingAddress =
                    LinuxNative.mmap(0, sqRingBytes, PROT_READ_WRITE, MAP_SHARED_POPULATE, ringFd, IORING_OFF_SQ_RING);
            if (cqRingBytes == 0) {
                cqRingAddress = sqRingAddress;
            } else {
                cqRingAddress = LinuxNative.mmap(
                        0, cqRingBytes, PROT_READ_WRITE, MAP_SHARED_POPULATE, ringFd, IORING_OFF_CQ_RING);
            }
            sqesBytes = (long) sqEntries * SQE_BYTES;
            sqesAddress = LinuxNative.mmap(0, sqesBytes, PROT_READ_WRITE, MAP_SHARED_POPULATE, ringFd, IORING_OFF_SQES);
            sqRing = new Pointer(sqRingAddress).getByteBuffer(0, sqRingBytes).order(LinuxNative.ORDER);
            cqRing = cqRingAddress == sqRingAddress
                    ? sqRing
                    : new Pointer(cqRingAddress).getByteBuffer(0, cqRingBytes).order(LinuxNative.ORDER);
            sqes = new Pointer(sqesAddress).getByteBuffer(0, sqesBytes).order(LinuxNative.ORDER);
            sqMask = sqRing.getInt(sqMaskOff);
            cqMask = cqRing.getInt(cqMaskOff);
            sqTail = (int) INT.getAcquire(sqRing, sqTailOff);
            cqHead = (int) INT.getAcquire(cqRing, cqHeadOff);
            // struct io_uring_getevents_arg { u64 sigmask; u32 sigmask_sz; u32 pad; u64 ts; }
            getEventsArg = LinuxNative.allocateAligned(24, 8);
            getEventsArgAddress = LinuxNative.address(getEventsArg);
            timespec = LinuxNative.allocateAligned(16, 8);
            timespecAddress = LinuxNative.address(timespec);
            getEventsArg.putLong(16, timespecAddress);
            registerFile();
        } catch (RuntimeException e) {
            destroyQueue();
            throw new IOException("io_uring ring setup failed: " + e.getMessage(), e);
        }
    }

    /** Registers the target's descriptor with the ring (before it is enabled: any thread may). */
    private void registerFile() {
        ByteBuffer fds = LinuxNative.allocateAligned(4, 4);
        fds.putInt(0, fd);
        try {
            LinuxNative.syscall(
                    LinuxNative.SYS_IO_URING_REGISTER,
                    ringFd,
                    IORING_REGISTER_FILES,
                    LinuxNative.address(fds),
                    1,
                    0,
                    0);
            fileRegistered = true;
        } catch (LastErrorException e) {
            fileRegistered = false;
            registrationRefusal = "registering the file: " + LinuxNative.describe(e.getErrorCode());
        }
    }

    /**
     * Registers the buffers of the slots allocated since the last registration, replacing it, or those of the
     * last registration again in a re-created ring. Called by the ring's issuer with nothing in flight (the kernel
     * then has no request using a registered buffer).
     */
    private void registerBuffers() {
        if (inFlightCount() != 0 || pendingCount != 0) {
            return;
        }
        if (!newSlots.isEmpty()) {
            bufferSlots = newSlots.toArray(new IoSlot[0]);
            newSlots.clear();
        } else if (bufferRegistration != null || bufferSlots.length == 0) {
            return; // this ring holds them already, or there are none
        }
        try {
            if (bufferRegistration != null) {
                bufferRegistration = null;
                LinuxNative.syscall(LinuxNative.SYS_IO_URING_REGISTER, ringFd, IORING_UNREGISTER_BUFFERS, 0, 0, 0, 0);
            }
            int count = Math.min(bufferSlots.length, MAX_REGISTERED_BUFFERS);
            // struct iovec { void *iov_base; size_t iov_len; }
            ByteBuffer iovecs = LinuxNative.allocateAligned(count * 16, 8);
            for (int i = 0; i < count; i++) {
                iovecs.putLong(i * 16, bufferSlots[i].bufferAddress);
                iovecs.putLong(i * 16 + 8, bufferSlots[i].capacityBytes());
            }
            LinuxNative.syscall(
                    LinuxNative.SYS_IO_URING_REGISTER,
                    ringFd,
                    IORING_REGISTER_BUFFERS,
                    LinuxNative.address(iovecs),
                    count,
                    0,
                    0);
            Object registration = new Object();
            for (int i = 0; i < count; i++) {
                bufferSlots[i].fixedBufferRegistration = registration;
                bufferSlots[i].fixedBufferIndex = i;
            }
            bufferRegistration = registration;
        } catch (LastErrorException e) {
            registrationRefusal = "registering " + bufferSlots.length + " buffers: "
                    + LinuxNative.describe(e.getErrorCode())
                    + (e.getErrorCode() == 12
                            ? " (registered buffers are locked memory: RLIMIT_MEMLOCK is too low)"
                            : "");
        }
    }

    /** Whether requests name the target by its registered index (for tests). */
    boolean fileRegistered() {
        return fileRegistered;
    }

    /** How many slot buffers the current ring has registered (for tests). */
    int registeredBufferCount() {
        return bufferRegistration == null ? 0 : Math.min(bufferSlots.length, MAX_REGISTERED_BUFFERS);
    }

    @Override
    public String registrationRefusal() {
        return registrationRefusal;
    }

    @Override
    public IoSlot allocateSlot(int capacityBytes) {
        IoSlot slot = super.allocateSlot(capacityBytes);
        newSlots.add(slot);
        return slot;
    }

    /** Makes the calling thread the ring's issuer (see {@link #issuer}); called before every use of the ring. */
    private void claimRing() {
        Thread caller = Thread.currentThread();
        if (caller == issuer) {
            return;
        }
        if ((setupFlags & IORING_SETUP_R_DISABLED) != 0) {
            if (issuer != null) {
                if (inFlightCount() != 0 || pendingCount != 0) {
                    throw new IllegalStateException("io_uring: a second thread used the ring with requests in flight");
                }
                destroyQueue();
                try {
                    setupQueue();
                } catch (IOException e) {
                    throw new IllegalStateException("io_uring: re-creating the ring for a new thread failed", e);
                }
            }
            LinuxNative.syscall(LinuxNative.SYS_IO_URING_REGISTER, ringFd, IORING_REGISTER_ENABLE_RINGS, 0, 0, 0, 0);
        }
        issuer = caller;
        registerBuffers();
    }

    /** Binds the ring to the calling thread and registers the buffers of the slots allocated for it. */
    @Override
    public void bindSubmitter() {
        claimRing();
        if (!newSlots.isEmpty()) {
            registerBuffers();
        }
    }

    /** The thread the ring is bound to, or null before the first use (for tests). */
    Thread issuer() {
        return issuer;
    }

    /** {@link #awaitCompletions} passes the pending SQEs to the same {@code io_uring_enter} that waits. */
    @Override
    public boolean submitsWhileWaiting() {
        return true;
    }

    @Override
    protected void beforeBatch() {
        claimRing();
    }

    @Override
    protected void prepare(int tag, IoSlot slot, long bufferAddress, boolean write) {
        // SQEs are written at submit and published (tail) in submitPending; the SQE index is the ring position.
        int index = (sqTail + pendingCount) & sqMask;
        int b = index * SQE_BYTES;
        // struct io_uring_sqe: opcode@0 flags@1 ioprio@2 fd@4 off@8 addr@16 len@24 rw_flags@28 user_data@32
        // buf_index@40 personality@42 splice_fd_in@44 addr3@48 pad@56
        Object registration = bufferRegistration;
        boolean fixedBuffer = registration != null && slot.fixedBufferRegistration == registration;
        sqes.putLong(b, 0);
        sqes.put(
                b,
                fixedBuffer
                        ? (write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED)
                        : (write ? IORING_OP_WRITE : IORING_OP_READ));
        if (fileRegistered) {
            sqes.put(b + 1, IOSQE_FIXED_FILE); // fd 0: the first (only) registered file
        } else {
            sqes.putInt(b + 4, fd);
        }
        sqes.putLong(b + 8, slot.offsetBytes);
        sqes.putLong(b + 16, bufferAddress);
        sqes.putInt(b + 24, slot.sizeBytes);
        sqes.putInt(b + 28, write && slot.fua ? LinuxNative.RWF_DSYNC : 0);
        sqes.putLong(b + 32, tag);
        sqes.putLong(b + 40, 0);
        if (fixedBuffer) {
            sqes.putShort(b + 40, (short) slot.fixedBufferIndex);
        }
        sqes.putLong(b + 48, 0);
        sqes.putLong(b + 56, 0);
        sqRing.putInt(sqArrayOff + index * 4, index);
    }

    /**
     * Publishes the pending SQEs (store-release of the SQ tail); the kernel takes them at the next
     * {@code io_uring_enter}: {@link #commit} for a reap that only submits, else {@link #awaitCompletions}, where
     * one system call submits and waits.
     */
    @Override
    protected int submitPending() {
        sqTail += pendingCount;
        INT.setRelease(sqRing, sqTailOff, sqTail);
        unsubmitted += pendingCount;
        return pendingCount;
    }

    /** Enters the kernel to submit without waiting (GETEVENTS: with DEFER_TASKRUN it also posts completions). */
    @Override
    protected void commit() {
        claimRing();
        if (unsubmitted == 0) {
            return;
        }
        try {
            long taken = LinuxNative.syscall(
                    LinuxNative.SYS_IO_URING_ENTER, ringFd, unsubmitted, 0, IORING_ENTER_GETEVENTS, 0, 0);
            unsubmitted -= (int) taken;
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            if (errno != LinuxNative.EINTR && errno != LinuxNative.EAGAIN && errno != LinuxNative.EBUSY) {
                throw new IllegalStateException("io_uring_enter failed: " + LinuxNative.describe(errno), e);
            }
            // left for the next enter: the SQEs stay published
        }
    }

    @Override
    protected void awaitCompletions(int min, int max, long timeoutNs) {
        claimRing();
        int ready = harvest(max);
        if (ready > 0 && unsubmitted == 0 && (setupFlags & IORING_SETUP_DEFER_TASKRUN) == 0) {
            return;
        }
        int wait = ready > 0 ? 0 : min;
        // GETEVENTS also when not waiting: with DEFER_TASKRUN it is what runs the completions' task work
        int flags = IORING_ENTER_GETEVENTS;
        long arg = 0;
        long argSize = 0;
        if (wait > 0 && timeoutNs >= 0 && extArg) {
            timespec.putLong(0, timeoutNs / 1_000_000_000L);
            timespec.putLong(8, timeoutNs % 1_000_000_000L);
            flags |= IORING_ENTER_EXT_ARG;
            arg = getEventsArgAddress;
            argSize = 24;
        }
        try {
            long taken =
                    LinuxNative.syscall(LinuxNative.SYS_IO_URING_ENTER, ringFd, unsubmitted, wait, flags, arg, argSize);
            unsubmitted -= (int) taken;
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            if (errno != LinuxNative.EINTR
                    && errno != LinuxNative.ETIME
                    && errno != LinuxNative.EAGAIN
                    && errno != LinuxNative.EBUSY) {
                throw new IllegalStateException("io_uring_enter failed: " + LinuxNative.describe(errno), e);
            }
        }
        if (ready < max) {
            harvest(max - ready);
        }
    }

    /** Reads the completions already in the CQ ring (up to {@code max}); returns how many. */
    private int harvest(int max) {
        int tail = (int) INT.getAcquire(cqRing, cqTailOff);
        int n = 0;
        if (tail != cqHead) {
            completionBatchTime();
            while (cqHead != tail && n < max) {
                int b = cqesOff + (cqHead & cqMask) * CQE_BYTES;
                // struct io_uring_cqe: user_data@0 res@8 flags@12
                int tag = (int) cqRing.getLong(b);
                int res = cqRing.getInt(b + 8);
                cqHead++;
                n++;
                completed(tag, res);
            }
            INT.setRelease(cqRing, cqHeadOff, cqHead);
        }
        return n;
    }

    @Override
    protected void destroyQueue() {
        try {
            if (sqesAddress != 0) {
                LinuxNative.munmap(sqesAddress, sqesBytes);
            }
            if (cqRingAddress != 0 && cqRingAddress != sqRingAddress) {
                LinuxNative.munmap(cqRingAddress, cqRingBytes);
            }
            if (sqRingAddress != 0) {
                LinuxNative.munmap(sqRingAddress, sqRingBytes);
            }
        } catch (LastErrorException ignored) {
            // unmapped at exit anyway
        }
        sqesAddress = cqRingAddress = sqRingAddress = 0;
        sqRing = cqRing = sqes = null;
        fileRegistered = false; // closing the ring drops its registrations
        bufferRegistration = null;
        if (ringFd >= 0) {
            try {
                LinuxNative.close(ringFd); // the kernel cancels or finishes requests still in flight
            } catch (LastErrorException ignored) {
                // nothing to flush
            }
            ringFd = -1;
        }
    }

    @Override
    protected AsyncIoEngineBase newSibling() {
        return new IoUringIoEngine(maxQueueDepth);
    }
}
