package dev.ssdpulse.producer.device.engine;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Discards (TRIMs) byte ranges of a Linux target through libc, as fio's trim and {@code blkdiscard} do: the
 * {@code BLKDISCARD} ioctl on a block device (the kernel sends ATA TRIM / NVMe Deallocate / SCSI UNMAP), and
 * {@code fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE)} on a regular file (the file system frees the blocks:
 * reads of the range return zeros, the file keeps its size, and the device sees a discard if the file system is
 * mounted with {@code discard}, or at the next fstrim).
 *
 * <p>Java 17 has no foreign-function API, so the calls go through JNA (a Maven Central jar carrying its own
 * native stub; nothing to compile). A separate write-only descriptor is opened on the target: a discard does not
 * touch the page cache or the O_DIRECT channel's state.
 *
 * <p>Thread-safe: both calls are single system calls on a shared descriptor.
 */
public final class LinuxDiscard implements AutoCloseable {
    private static final int O_WRONLY = 01;
    private static final int O_CLOEXEC = 02000000;
    private static final int FALLOC_FL_KEEP_SIZE = 0x01;
    private static final int FALLOC_FL_PUNCH_HOLE = 0x02;
    /** {@code _IO(0x12, 119)} from linux/fs.h. */
    private static final long BLKDISCARD = 0x1277;

    /** The libc functions used; declared with LastErrorException so errno comes back with the failure. */
    interface LibC extends Library {
        int open(String path, int flags) throws LastErrorException;

        int close(int fd) throws LastErrorException;

        int fallocate(int fd, int mode, long offsetBytes, long lengthBytes) throws LastErrorException;

        int ioctl(int fd, NativeLong request, long[] range) throws LastErrorException;
    }

    private static volatile LibC libc;

    private final Path target;
    private final boolean blockDevice;
    private int fd;

    private LinuxDiscard(Path target, boolean blockDevice, int fd) {
        this.target = target;
        this.blockDevice = blockDevice;
        this.fd = fd;
    }

    /**
     * Opens {@code target} (a regular file or a block device) for discards.
     *
     * @throws IOException with the reason when discards cannot be issued (not Linux, JNA unavailable, no
     *                     permission, neither a file nor a block device)
     */
    public static LinuxDiscard open(Path target) throws IOException {
        Objects.requireNonNull(target, "target");
        if (!Platform.isLinux()) {
            throw new IOException(
                    "TRIM needs Linux (fallocate / BLKDISCARD); this is " + System.getProperty("os.name"));
        }
        BasicFileAttributes attributes = Files.readAttributes(target, BasicFileAttributes.class);
        boolean device = attributes.isOther();
        if (!device && !attributes.isRegularFile()) {
            throw new IOException("TRIM needs a regular file or a block device: " + target);
        }
        LibC c = libc();
        try {
            int fd = c.open(target.toString(), O_WRONLY | O_CLOEXEC);
            return new LinuxDiscard(target, device, fd);
        } catch (LastErrorException e) {
            throw new IOException("cannot open " + target + " for TRIM: " + describe(e), e);
        }
    }

    private static LibC libc() throws IOException {
        LibC c = libc;
        if (c == null) {
            try {
                c = Native.load("c", LibC.class);
            } catch (UnsatisfiedLinkError | RuntimeException e) {
                throw new IOException("cannot load libc through JNA for TRIM: " + e.getMessage(), e);
            }
            libc = c;
        }
        return c;
    }

    /** True for a block device (BLKDISCARD), false for a file (hole punching). */
    public boolean blockDevice() {
        return blockDevice;
    }

    /**
     * Discards {@code [offsetBytes, offsetBytes + lengthBytes)}.
     *
     * @return 0 on success, else the errno (e.g. 95 EOPNOTSUPP when the file system or device cannot discard,
     *         22 EINVAL for a range the device refuses)
     */
    public int discard(long offsetBytes, long lengthBytes) {
        if (offsetBytes < 0 || lengthBytes < 0) {
            return IoStatus.EINVAL;
        }
        if (lengthBytes == 0) {
            return IoStatus.OK;
        }
        try {
            if (blockDevice) {
                libc.ioctl(fd, new NativeLong(BLKDISCARD), new long[] {offsetBytes, lengthBytes});
            } else {
                libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, offsetBytes, lengthBytes);
            }
            return IoStatus.OK;
        } catch (LastErrorException e) {
            return e.getErrorCode() > 0 ? e.getErrorCode() : IoStatus.EIO;
        }
    }

    /** What {@link #discard} does on this target, for messages. */
    public String method() {
        return blockDevice ? "ioctl(BLKDISCARD) on " + target : "fallocate(PUNCH_HOLE|KEEP_SIZE) on " + target;
    }

    @Override
    public synchronized void close() {
        if (fd >= 0) {
            try {
                libc.close(fd);
            } catch (LastErrorException ignored) {
                // nothing was written through this descriptor; a failed close loses nothing
            }
            fd = -1;
        }
    }

    private static String describe(LastErrorException e) {
        return switch (e.getErrorCode()) {
            case 13 -> "permission denied (EACCES)";
            case 1 -> "operation not permitted (EPERM)";
            case 16 -> "device busy (EBUSY)";
            default -> "errno " + e.getErrorCode() + " (" + e.getMessage() + ")";
        };
    }
}
