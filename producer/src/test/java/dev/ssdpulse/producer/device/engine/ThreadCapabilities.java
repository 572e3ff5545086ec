package dev.ssdpulse.producer.device.engine;

import com.sun.jna.Platform;
import java.nio.ByteBuffer;

/**
 * Runs test code on a thread without one of root's capabilities, to reach the paths a non-root user takes: the
 * kernel checks capabilities per thread, so the rest of the test JVM keeps them.
 */
public final class ThreadCapabilities {
    /** Bypasses the owner checks on files, e.g. for O_NOATIME. */
    public static final int CAP_FOWNER = 3;
    /** Exempts from RLIMIT_MEMLOCK, e.g. io_uring's registered buffers. */
    public static final int CAP_IPC_LOCK = 14;

    private ThreadCapabilities() {}

    /** What {@link #inThreadWithout} runs. */
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} on a new thread whose effective capabilities lack {@code capability}, waits for it and
     * rethrows what it threw; threads started from it inherit the change.
     */
    public static void inThreadWithout(int capability, Body body) throws Exception {
        AsyncIoEngineContract.inThread(() -> {
            dropFromThisThread(capability);
            body.run();
        });
    }

    /** Clears {@code capability} from the calling thread's effective set (capget / capset, version 3). */
    private static void dropFromThisThread(int capability) {
        long capget = Platform.isIntel() ? 125 : 90;
        long capset = Platform.isIntel() ? 126 : 91;
        ByteBuffer header = LinuxNative.allocateAligned(8, 8);
        header.putInt(0, 0x20080522); // _LINUX_CAPABILITY_VERSION_3
        header.putInt(4, 0); // this thread
        // two struct __user_cap_data_struct { u32 effective, permitted, inheritable; }: capabilities 0-31, 32-63
        ByteBuffer data = LinuxNative.allocateAligned(24, 8);
        LinuxNative.syscall(capget, LinuxNative.address(header), LinuxNative.address(data), 0, 0, 0, 0);
        int word = capability / 32 * 12;
        data.putInt(word, data.getInt(word) & ~(1 << capability % 32));
        LinuxNative.syscall(capset, LinuxNative.address(header), LinuxNative.address(data), 0, 0, 0, 0);
    }
}
