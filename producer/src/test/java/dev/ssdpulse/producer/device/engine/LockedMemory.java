package dev.ssdpulse.producer.device.engine;

import com.sun.jna.Platform;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * For tests of the path where the kernel refuses locked memory (io_uring's registered buffers): a root test run
 * holds CAP_IPC_LOCK, which exempts it from RLIMIT_MEMLOCK, so a test drops that capability from its own thread.
 */
public final class LockedMemory {
    private LockedMemory() {
    }

    /** The soft RLIMIT_MEMLOCK of this process in bytes, or -1 when unlimited. */
    public static long memlockLimitBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max locked memory")) {
                String soft = line.substring("Max locked memory".length()).trim().split("\\s+")[0];
                return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
            }
        }
        throw new IllegalStateException("no 'Max locked memory' line in /proc/self/limits");
    }

    /**
     * How many buffers of {@code bufferBytes} lock more memory than RLIMIT_MEMLOCK allows; the calling test is
     * skipped where the limit is unlimited or over 128 MiB (too many buffers to allocate for a test).
     */
    public static int buffersOverTheLimit(int bufferBytes) throws IOException {
        long memlockBytes = memlockLimitBytes();
        assumeTrue(memlockBytes > 0 && memlockBytes <= 128L << 20, "RLIMIT_MEMLOCK is unlimited or over 128 MiB here");
        return (int) (memlockBytes / bufferBytes + 2);
    }

    /**
     * Clears CAP_IPC_LOCK from the calling thread's effective capabilities (capget / capset, version 3).
     * Capabilities belong to a thread, so the rest of the test JVM keeps it; threads this one starts inherit the
     * change, and the kernel checks the capability of the thread that creates an io_uring ring.
     */
    public static void dropIpcLockFromThisThread() {
        long capget = Platform.isIntel() ? 125 : 90;
        long capset = Platform.isIntel() ? 126 : 91;
        ByteBuffer header = LinuxNative.allocateAligned(8, 8);
        header.putInt(0, 0x20080522); // _LINUX_CAPABILITY_VERSION_3
        header.putInt(4, 0); // this thread
        // two struct __user_cap_data_struct { u32 effective, permitted, inheritable; }: capabilities 0-31, 32-63
        ByteBuffer data = LinuxNative.allocateAligned(24, 8);
        LinuxNative.syscall(capget, LinuxNative.address(header), LinuxNative.address(data), 0, 0, 0, 0);
        int capIpcLock = 14;
        data.putInt(0, data.getInt(0) & ~(1 << capIpcLock));
        LinuxNative.syscall(capset, LinuxNative.address(header), LinuxNative.address(data), 0, 0, 0, 0);
    }
}
