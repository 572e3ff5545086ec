package dev.ssdpulse.producer.device.engine;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * For tests of the path where the kernel refuses locked memory (io_uring's registered buffers): a root test run
 * holds CAP_IPC_LOCK, which exempts it from RLIMIT_MEMLOCK, so a test drops that capability from a thread of its own
 * ({@link ThreadCapabilities}) and registers more buffers than the limit allows.
 */
public final class LockedMemory {
    private LockedMemory() {}

    /** The soft RLIMIT_MEMLOCK of this process in bytes, or -1 when unlimited. */
    public static long memlockLimitBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max locked memory")) {
                String soft =
                        line.substring("Max locked memory".length()).trim().split("\\s+")[0];
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
}
