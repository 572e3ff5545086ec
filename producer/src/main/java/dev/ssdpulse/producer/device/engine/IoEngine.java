package dev.ssdpulse.producer.device.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A narrow I/O engine in the manner of fio's ioengines: open a target, submit requests held in {@link IoSlot}s,
 * reap completions, close. {@link #submit} and {@link #reap} are called concurrently by the runner's I/O threads
 * (one slot per thread), so implementations must be thread-safe for distinct slots.
 *
 * <p>Synchronous engines perform the I/O inside {@link #submit} and return {@code true} (fio's
 * {@code FIO_Q_COMPLETED}); queue depth then comes from several threads submitting at once. An asynchronous engine
 * returns {@code false} (queued) and hands the slot back later through {@link #reap}.
 */
public interface IoEngine extends AutoCloseable {

    /** Short name recorded in the run's host facts (e.g. "sync-direct-workers"). */
    String name();

    /**
     * @param target    file or block device; a file must already exist at {@code sizeBytes} or more (the
     *                  {@code TargetGuard} creates it), the engine never grows it
     * @param sizeBytes usable size: I/Os ending beyond it are rejected with {@link IoStatus#EINVAL}
     * @param direct    bypass the page cache (O_DIRECT)
     * @param writable  open for writing; false for read-only workloads
     */
    void open(Path target, long sizeBytes, boolean direct, boolean writable) throws IOException;

    /** Offsets, sizes and buffer addresses must be multiples of this (1 when no constraint). Valid after open. */
    int alignmentBytes();

    /** Whether TRIM can succeed; when false a TRIM completes with {@link IoStatus#EOPNOTSUPP}. */
    boolean supportsTrim();

    /** A slot with a buffer of {@code capacityBytes}, aligned for this engine. */
    default IoSlot allocateSlot(int capacityBytes) {
        return IoSlot.allocate(capacityBytes, Math.max(1, alignmentBytes()));
    }

    /**
     * Starts the I/O described by the slot's op, offset and size. Sets {@code submitNanos}; on synchronous
     * completion also {@code completeNanos} and {@code status}.
     *
     * @return true when the I/O completed inside this call, false when it is queued (reap it)
     */
    boolean submit(IoSlot slot);

    /**
     * Collects queued completions into {@code out}, waiting up to {@code timeoutNs} for at least {@code min}.
     * Synchronous engines have nothing queued and return 0 at once.
     *
     * @return number of slots written to {@code out}
     */
    int reap(IoSlot[] out, int min, int max, long timeoutNs) throws InterruptedException;

    /** Description of the last failed I/O (for the run report), or null. */
    String lastError();

    @Override
    void close() throws IOException;
}
