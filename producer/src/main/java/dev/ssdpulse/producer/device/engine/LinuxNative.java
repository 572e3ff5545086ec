package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The few libc entry points the asynchronous engines need, bound with JNA <em>direct mapping</em>
 * ({@link Native#register}): static native methods with primitive arguments, which cost about a tenth of an
 * interface-mapped call (no proxy, no argument boxing). That matters here: io_submit / io_getevents /
 * io_uring_enter run once per I/O or per batch, and the budget is fio's CPU per I/O.
 *
 * <p>The AIO and io_uring calls are raw {@code syscall(2)}s (no libaio or liburing needed). {@code syscall}
 * and {@code open} are variadic; calling them through non-variadic bindings is fine on x86-64 and
 * aarch64 Linux because every argument is an integer passed in a register.
 *
 * <p>Errors: the methods declare {@link LastErrorException}, so a failing call throws with the errno.
 */
final class LinuxNative {
    static final int O_RDONLY = 0;
    static final int O_RDWR = 02;
    static final int O_CLOEXEC = 02000000;
    /** O_DIRECT differs between architectures. */
    static final int O_DIRECT = Platform.isARM() ? 0200000 : 040000;
    /** The same on x86-64 and aarch64. */
    static final int O_NOATIME = 01000000;
    /**
     * Per-write flag of pwritev2, io_uring's rw_flags and native AIO's aio_rw_flags: the write is durable when it
     * completes (the kernel sends it with FUA, or flushes after it where the device has no FUA).
     */
    static final int RWF_DSYNC = 0x00000002;

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ETIME = 62;
    static final int EBUSY = 16;
    static final int EINVAL = 22;

    /** System call numbers; io_uring's are the same on every architecture, AIO's differ. */
    static final long SYS_IO_SETUP;

    static final long SYS_IO_DESTROY;
    static final long SYS_IO_SUBMIT;
    static final long SYS_IO_GETEVENTS;
    static final long SYS_SCHED_SETAFFINITY;
    static final long SYS_SCHED_GETAFFINITY;
    static final long SYS_IO_URING_SETUP = 425;
    static final long SYS_IO_URING_ENTER = 426;
    static final long SYS_IO_URING_REGISTER = 427;

    static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private static final String UNAVAILABLE;

    static {
        String why = null;
        boolean x86 = Platform.isLinux() && Platform.isIntel() && Platform.is64Bit();
        boolean arm = Platform.isLinux() && Platform.isARM() && Platform.is64Bit();
        if (x86) {
            SYS_IO_SETUP = 206;
            SYS_IO_DESTROY = 207;
            SYS_IO_GETEVENTS = 208;
            SYS_IO_SUBMIT = 209;
            SYS_SCHED_SETAFFINITY = 203;
            SYS_SCHED_GETAFFINITY = 204;
        } else {
            SYS_IO_SETUP = 0;
            SYS_IO_DESTROY = 1;
            SYS_IO_SUBMIT = 2;
            SYS_IO_GETEVENTS = 4;
            SYS_SCHED_SETAFFINITY = 122;
            SYS_SCHED_GETAFFINITY = 123;
        }
        if (!x86 && !arm) {
            why = "asynchronous engines need 64-bit Linux on x86-64 or aarch64; this is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch");
        } else {
            try {
                Native.register(LinuxNative.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            } catch (UnsatisfiedLinkError | RuntimeException e) {
                why = "cannot bind libc through JNA: " + e.getMessage();
            }
        }
        UNAVAILABLE = why;
    }

    private LinuxNative() {}

    /** Null when the bindings work, else why not (then no method below may be called). */
    static String unavailableReason() {
        return UNAVAILABLE;
    }

    static native long syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6)
            throws LastErrorException;

    static native int open(String path, int flags) throws LastErrorException;

    static native int close(int fd) throws LastErrorException;

    static native int fdatasync(int fd) throws LastErrorException;

    static native long mmap(long address, long length, int prot, int flags, int fd, long offset)
            throws LastErrorException;

    static native int munmap(long address, long length) throws LastErrorException;

    /** The address of a direct buffer's first byte (JNA reads it once; callers cache it). */
    static long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }

    /** A zeroed direct buffer in native byte order whose address is a multiple of {@code alignmentBytes}. */
    static ByteBuffer allocateAligned(int capacityBytes, int alignmentBytes) {
        // alignedSlice also rounds the end down to the alignment: room for a whole number of aligned blocks
        int roundedBytes = (capacityBytes + alignmentBytes - 1) / alignmentBytes * alignmentBytes;
        ByteBuffer raw = ByteBuffer.allocateDirect(roundedBytes + alignmentBytes);
        return raw.alignedSlice(alignmentBytes).limit(capacityBytes).slice().order(ORDER);
    }

    /** "errno 5 (EIO: Input/output error)"-style text for messages. */
    static String describe(int errno) {
        String name = switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 4 -> "EINTR";
            case 5 -> "EIO";
            case 6 -> "ENXIO";
            case 9 -> "EBADF";
            case 11 -> "EAGAIN";
            case 12 -> "ENOMEM";
            case 13 -> "EACCES";
            case 14 -> "EFAULT";
            case 16 -> "EBUSY";
            case 19 -> "ENODEV";
            case 22 -> "EINVAL";
            case 28 -> "ENOSPC";
            case 30 -> "EROFS";
            case 38 -> "ENOSYS";
            case 61 -> "ENODATA";
            case 95 -> "EOPNOTSUPP";
            case 121 -> "EREMOTEIO";
            default -> null;
        };
        return "errno " + errno + (name == null ? "" : " (" + name + ")");
    }
}
