package dev.ssdpulse.producer.device.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * For tests of the path where the kernel refuses locked memory (io_uring's registered buffers): a root test run
 * holds CAP_IPC_LOCK, which exempts it from RLIMIT_MEMLOCK, so a test drops that capability from a thread of its own.
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
     * Runs {@code body} on a new thread without CAP_IPC_LOCK, waits for it and rethrows what it threw. The kernel
     * checks the capability of the thread that creates an io_uring ring, so the ring must be created inside
     * {@code body}; threads started from it (a device runner's phase threads) inherit the change.
     */
    public static void inThreadWithoutIpcLock(ThreadCapabilities.Body body) throws Exception {
        ThreadCapabilities.inThreadWithout(ThreadCapabilities.CAP_IPC_LOCK, body);
    }
}
