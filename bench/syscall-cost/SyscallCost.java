import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The cost of one system call from Java 17, the way the asynchronous device engines make it (JNA direct mapping of
 * libc's syscall(2), with and without LastErrorException) and through the JDK's own JNI (FileChannel.position(),
 * one lseek): getpid / lseek 2 million times, five rounds. Compare with getpid.c for the call itself.
 */
public final class SyscallCost {
    static final class Checked {
        static native long syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6)
                throws LastErrorException;
    }

    static final class Plain {
        static native long syscall(long n, long a1, long a2, long a3, long a4, long a5, long a6);
    }

    public static void main(String[] args) throws Exception {
        NativeLibrary c = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
        Native.register(Checked.class, c);
        Native.register(Plain.class, c);
        long getpid = Platform.isIntel() ? 39 : 172;
        int calls = 2_000_000;
        try (FileChannel channel = FileChannel.open(Path.of("/proc/self/stat"))) {
            for (int round = 0; round < 5; round++) {
                long sum = 0;
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    sum += Checked.syscall(getpid, 0, 0, 0, 0, 0, 0);
                }
                long t1 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    sum += Plain.syscall(getpid, 0, 0, 0, 0, 0, 0);
                }
                long t2 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    sum += channel.position();
                }
                long t3 = System.nanoTime();
                System.out.printf(
                        "JNA syscall(getpid) throwing LastErrorException %.0f ns, without %.0f ns;"
                                + " JDK FileChannel.position() (lseek) %.0f ns per call (%d)%n",
                        (t1 - t0) / (double) calls, (t2 - t1) / (double) calls, (t3 - t2) / (double) calls, sum & 1);
            }
        }
    }
}
