package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.producer.device.guard.PreparedTarget;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A narrow I/O engine in the manner of fio's ioengines: open a target, submit requests held in {@link IoSlot}s,
 * reap completions, close.
 *
 * <p><b>Synchronous</b> engines ({@link #asynchronous()} false) perform the I/O inside {@link #submit} and return
 * {@code true} (fio's {@code FIO_Q_COMPLETED}); queue depth then comes from several threads submitting at once, so
 * they must be thread-safe for distinct slots.
 *
 * <p><b>Asynchronous</b> engines serve one submitting thread: {@link #submit} queues the request and returns
 * {@code false} (fio's {@code FIO_Q_QUEUED}); queued requests are handed to the kernel together, as one batch, at
 * the next {@link #reap} (fio's commit), which then returns completed slots; a reap of at most 0 slots only hands
 * them over (the runner's {@code --submit-batch}). Queue depth is the number of slots the
 * thread keeps between submit and reap, up to {@link #maxQueueDepth()}. A request that fails before reaching the
 * kernel (bounds, alignment) or that the engine performs synchronously (TRIM, FLUSH) still completes inside
 * {@code submit} (returns {@code true}). Several submitting threads (fio's numjobs) use one engine each, from
 * {@link #openSibling()}.
 */
public interface IoEngine extends AutoCloseable {

    /** Short name recorded in the run's host facts (e.g. "libaio", "io_uring", "sync-direct-workers"). */
    String name();

    /** True when {@link #submit} may queue and completions come from {@link #reap}; see the class comment. */
    default boolean asynchronous() {
        return false;
    }

    /** Most I/Os one submitting thread may have queued or in flight (asynchronous engines). */
    default int maxQueueDepth() {
        return Integer.MAX_VALUE;
    }

    /**
     * Called by a thread that is about to submit to this asynchronous engine, before its first {@link #submit}, with
     * nothing in flight: an engine whose kernel object belongs to one thread (io_uring's single-issuer ring) binds
     * it here. The engine would also bind on the first use from a new thread; doing it here keeps that rare branch
     * out of the submit path the JIT compiles for the first thread (taken later, it deoptimised the runner's
     * compiled I/O loop at every phase change, each phase running on a new thread).
     */
    default void bindSubmitter() {}

    /**
     * True when a {@link #reap} that waits also hands the queued requests to the kernel in the same system call
     * (io_uring's {@code io_uring_enter} submits and waits at once); false where submitting and waiting are separate
     * calls (libaio's {@code io_submit} and {@code io_getevents}). A runner that is about to wait anyway then leaves
     * its last requests to the waiting reap instead of submitting them on their own: one system call per cycle
     * less, which at queue depth 1 is one of the two per I/O.
     */
    default boolean submitsWhileWaiting() {
        return false;
    }

    /**
     * Why the kernel refused the resources this engine registers to save work per request (io_uring's registered
     * file and buffers: registered buffers are locked memory, refused under a low {@code RLIMIT_MEMLOCK}), or null
     * when it never did or the engine registers nothing. The engine then runs without them, as fio's defaults do;
     * the runner tells the user once per run.
     */
    default String registrationRefusal() {
        return null;
    }

    /**
     * Another engine of the same kind, open on the same target with the same settings, for another submitting
     * thread (an asynchronous engine's queues belong to one thread). The caller closes it.
     */
    default IoEngine openSibling() throws IOException {
        throw new UnsupportedOperationException(name() + " is shared by all threads; it has no siblings");
    }

    /**
     * @param target    file or block device; a file must already exist at {@code sizeBytes} or more (the
     *                  {@code TargetGuard} creates it), the engine never grows it
     * @param sizeBytes usable size: I/Os ending beyond it are rejected with {@link IoStatus#EINVAL}
     * @param direct    bypass the page cache (O_DIRECT)
     * @param writable  open for writing; false for read-only workloads
     */
    void open(Path target, long sizeBytes, boolean direct, boolean writable) throws IOException;

    /**
     * Opens a target the {@code TargetGuard} prepared, for writing only where the guard allows it: a run writes
     * nowhere else.
     */
    default void open(PreparedTarget target, boolean direct) throws IOException {
        open(target.path(), target.sizeBytes(), direct, target.writable());
    }

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
     * Hands queued requests to the kernel, then collects completions into {@code out}, waiting up to
     * {@code timeoutNs} (negative: no limit) for at least {@code min}. Returns early with fewer when the wait
     * times out or is interrupted by a signal. With {@code max} 0 it only hands the queued requests to the kernel
     * (fio's commit without a reap). Synchronous engines have nothing queued and return 0 at once.
     *
     * @return number of slots written to {@code out} (at most {@code max})
     */
    int reap(IoSlot[] out, int min, int max, long timeoutNs) throws InterruptedException;

    /** Description of the last failed I/O (for the run report), or null. */
    String lastError();

    @Override
    void close() throws IOException;
}
