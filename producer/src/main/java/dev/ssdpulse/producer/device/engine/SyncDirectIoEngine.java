package dev.ssdpulse.producer.device.engine;

import com.sun.nio.file.ExtendedOpenOption;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Positional {@code pread}/{@code pwrite} through one shared {@link FileChannel}, optionally opened with
 * {@link ExtendedOpenOption#DIRECT} (O_DIRECT). Synchronous: the calling thread blocks for the I/O, so queue
 * depth n needs n threads submitting at once (the runner provides them). Positional reads and writes on a
 * FileChannel do not take the channel's position lock on Linux, so threads do not serialise on the channel.
 *
 * <p>Alignment: with O_DIRECT the JDK requires the buffer address, the file position and the transfer size to be
 * multiples of the file store's block size ({@link java.nio.file.FileStore#getBlockSize()}); that is
 * {@link #alignmentBytes()}. Misaligned requests are rejected here with {@link IoStatus#EINVAL} and a message
 * naming the offending value, rather than the JDK's generic exception.
 *
 * <p>TRIM: {@link LinuxDiscard} ({@code BLKDISCARD} on a block device, {@code fallocate(PUNCH_HOLE)} on a file,
 * through JNA), on a target opened for writing; the same bounds and O_DIRECT alignment rules as a write. Where it
 * cannot be opened (not Linux, no permission) TRIM completes with {@link IoStatus#EOPNOTSUPP} and
 * {@link #lastError()} says why; a target that refuses a discard returns its errno (95 EOPNOTSUPP from a file
 * system without hole punching). FLUSH is {@code fdatasync} ({@code force(false)}); a FUA write goes through a second
 * descriptor opened with O_DSYNC.
 *
 * <p>Timing: {@code submitNanos}/{@code completeNanos} are {@link System#nanoTime()} (CLOCK_MONOTONIC; measured on the
 * reference VM: 67-92 ns per call, 20 ns smallest step), taken immediately around the system call, so the measured
 * latency includes the JNI transition (~0.1-0.3 us) but no queueing inside ssdpulse.
 */
public final class SyncDirectIoEngine implements IoEngine {
    private FileChannel channel;
    /**
     * The target opened a second time with O_DSYNC, for FUA writes: a write through it is durable when it completes,
     * as one with pwritev2's RWF_DSYNC (the kernel marks both IOCB_DSYNC). Null on a read-only target.
     */
    private FileChannel dsyncChannel;

    private long sizeBytes;
    private int alignmentBytes = 1;
    private boolean direct;
    private volatile String lastError;
    private TrimSupport trim = TrimSupport.none();
    private IoRequestCheck.Target checkTarget;

    @Override
    public String name() {
        return direct ? "sync-direct-workers" : "sync-buffered-workers";
    }

    @Override
    public void open(Path target, long sizeBytes, boolean direct, boolean writable) throws IOException {
        if (channel != null) {
            throw new IllegalStateException("engine already open");
        }
        List<OpenOption> options = new ArrayList<>();
        options.add(StandardOpenOption.READ);
        if (writable) {
            options.add(StandardOpenOption.WRITE);
        }
        try {
            if (direct) {
                options.add(ExtendedOpenOption.DIRECT);
                alignmentBytes = (int) Files.getFileStore(target).getBlockSize();
            }
            channel = FileChannel.open(target, options.toArray(new OpenOption[0]));
            if (writable) {
                options.add(StandardOpenOption.DSYNC);
                dsyncChannel = FileChannel.open(target, options.toArray(new OpenOption[0]));
            }
        } catch (UnsupportedOperationException e) {
            throw new IOException(
                    "O_DIRECT is not supported for " + target + " on this platform/file system (" + e.getMessage()
                            + "); run without direct I/O",
                    e);
        } catch (IOException e) {
            throw new IOException(
                    "cannot open " + target + (direct ? " with O_DIRECT" : "")
                            + (writable ? " for writing" : " for reading") + ": " + e,
                    e);
        }
        this.sizeBytes = sizeBytes;
        this.direct = direct;
        trim = TrimSupport.open(target, writable);
        // fixed while the target is open: built once, not per I/O
        checkTarget = new IoRequestCheck.Target(
                sizeBytes, direct, alignmentBytes, trim.available(), trim.unavailableReason());
    }

    /** How TRIM is issued on this target, or why it is not available. */
    public String trimMethod() {
        return trim.method();
    }

    @Override
    public int alignmentBytes() {
        return alignmentBytes;
    }

    @Override
    public boolean supportsTrim() {
        return trim.available();
    }

    @Override
    public boolean submit(IoSlot slot) {
        String refusal = IoRequestCheck.completeIfRefused(slot, checkTarget, name());
        if (refusal != null) {
            lastError = refusal;
            return true;
        }
        ByteBuffer buffer = slot.buffer;
        buffer.clear().limit(slot.op == IoOpCode.TRIM ? 0 : slot.sizeBytes);
        long position = slot.offsetBytes;
        slot.submitNanos = System.nanoTime();
        try {
            switch (slot.op) {
                case IoOpCode.READ -> {
                    while (buffer.hasRemaining()) {
                        int n = channel.read(buffer, position + buffer.position());
                        if (n < 0) {
                            break;
                        }
                    }
                    slot.holdsReadData = true;
                }
                case IoOpCode.WRITE -> {
                    FileChannel writer = slot.fua ? dsyncChannel : channel;
                    while (buffer.hasRemaining()) {
                        writer.write(buffer, position + buffer.position());
                    }
                }
                case IoOpCode.FLUSH -> channel.force(false); // fdatasync
                case IoOpCode.TRIM -> {
                    int errno = trim.discard(position, slot.sizeBytes);
                    slot.completeNanos = System.nanoTime();
                    slot.status = errno;
                    if (errno != IoStatus.OK) {
                        lastError = "TRIM of " + slot.sizeBytes + " bytes at offset " + position + " failed with errno "
                                + errno + " (" + trim.method() + ")";
                    }
                    return true;
                }
                default -> {
                    slot.completeNanos = System.nanoTime();
                    slot.status = IoStatus.EOPNOTSUPP;
                    return true;
                }
            }
            slot.completeNanos = System.nanoTime();
            if (buffer.hasRemaining() && slot.op != IoOpCode.FLUSH) {
                slot.status = IoStatus.EIO;
                lastError = "short " + (slot.op == IoOpCode.READ ? "read" : "write") + " at offset " + position + ": "
                        + buffer.position() + " of " + slot.sizeBytes + " bytes";
            } else {
                slot.status = IoStatus.OK;
            }
        } catch (IOException | RuntimeException e) {
            slot.completeNanos = System.nanoTime();
            slot.status = IoStatus.EIO;
            lastError = (slot.op == IoOpCode.READ ? "read" : "write") + " of " + slot.sizeBytes + " bytes at offset "
                    + position + " failed: " + e;
        }
        return true;
    }

    @Override
    public int reap(IoSlot[] out, int min, int max, long timeoutNs) {
        return 0;
    }

    @Override
    public String lastError() {
        return lastError;
    }

    @Override
    public void close() throws IOException {
        trim.close();
        trim = TrimSupport.none();
        if (dsyncChannel != null) {
            dsyncChannel.close();
            dsyncChannel = null;
        }
        if (channel != null) {
            channel.close();
            channel = null;
        }
        checkTarget = null;
    }
}
