package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.BitSet;

/**
 * Pins the calling thread to a set of CPUs ({@code sched_setaffinity(0, ...)}: the calling thread only, not the
 * process), as fio's {@code cpus_allowed} pins a job. Linux on x86-64 or aarch64 only; elsewhere every call throws
 * with the reason.
 */
public final class ThreadAffinity {
    /** Room for CPU ids 0-{@link CpuList#MAX_CPU_ID}: the kernel refuses a get-mask smaller than its own CPU count. */
    private static final int MASK_BYTES = (CpuList.MAX_CPU_ID + 1) / 8;

    private ThreadAffinity() {}

    /** Null when affinity can be read and set here, else why not. */
    public static String unavailableReason() {
        return LinuxNative.unavailableReason();
    }

    /** The CPUs the calling thread may run on now (its cgroup's and taskset's limits included). */
    public static BitSet allowedCpus() throws IOException {
        requireAvailable();
        ByteBuffer mask = LinuxNative.allocateAligned(MASK_BYTES, 8);
        long bytes;
        try {
            bytes = LinuxNative.syscall(
                    LinuxNative.SYS_SCHED_GETAFFINITY, 0, MASK_BYTES, LinuxNative.address(mask), 0, 0, 0);
        } catch (LastErrorException e) {
            throw new IOException("sched_getaffinity failed: " + LinuxNative.describe(e.getErrorCode()), e);
        }
        long[] words = new long[(int) bytes / 8];
        for (int i = 0; i < words.length; i++) {
            words[i] = mask.getLong(i * 8);
        }
        return BitSet.valueOf(words);
    }

    /** Lets the calling thread run only on {@code cpus}; throws with the errno's meaning when the kernel refuses. */
    public static void pinCurrentThread(CpuList cpus) throws IOException {
        requireAvailable();
        ByteBuffer mask = LinuxNative.allocateAligned(MASK_BYTES, 8);
        long[] words = cpus.toBitSet().toLongArray();
        for (int i = 0; i < words.length; i++) {
            mask.putLong(i * 8, words[i]);
        }
        try {
            LinuxNative.syscall(LinuxNative.SYS_SCHED_SETAFFINITY, 0, MASK_BYTES, LinuxNative.address(mask), 0, 0, 0);
        } catch (LastErrorException e) {
            throw new IOException(
                    "cannot pin the I/O thread to CPUs " + cpus + ": "
                            + LinuxNative.describe(e.getErrorCode())
                            + (e.getErrorCode() == LinuxNative.EINVAL
                                    ? " (none of them is online and allowed to this process)"
                                    : ""),
                    e);
        }
    }

    private static void requireAvailable() throws IOException {
        String why = LinuxNative.unavailableReason();
        if (why != null) {
            throw new IOException("CPU affinity unavailable: " + why);
        }
    }
}
