package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.device.engine.IoSlot;

/**
 * Completions reaped but not yet recorded, copied out of their slots so the slots can carry new requests first.
 *
 * <p>Why: a reap at queue depth 32 often returns most of the queue at once (a virtual disk completes a burst per
 * interrupt). Recording those completions before refilling the slots would leave the device idle for as long as
 * recording takes; fio submits each new I/O as soon as it is prepared. So the asynchronous loop copies what it must
 * record here, refills and submits, and records while the device works. Primitive columns: no allocation per I/O.
 * Where the engine's waiting reap submits too (io_uring), the request that takes the last free slot is left to that
 * wait and the backlog is recorded before it: the device still has the other requests, and at queue depth 1 the
 * system call saved costs more CPU than the recording adds to the latency.
 */
final class CompletionBacklog {
    private final byte[] op;
    private final long[] offsetBytes;
    private final int[] sizeBytes;
    private final long[] submitNanos;
    private final long[] completeNanos;
    private final int[] queueDepth;
    private final int[] status;
    private int size;

    CompletionBacklog(int capacity) {
        op = new byte[capacity];
        offsetBytes = new long[capacity];
        sizeBytes = new int[capacity];
        submitNanos = new long[capacity];
        completeNanos = new long[capacity];
        queueDepth = new int[capacity];
        status = new int[capacity];
    }

    /** Copies what a record needs from {@code slot}; the slot may be reused afterwards. */
    void add(IoSlot slot) {
        int i = size++;
        op[i] = slot.op;
        offsetBytes[i] = slot.offsetBytes;
        sizeBytes[i] = slot.sizeBytes;
        submitNanos[i] = slot.submitNanos;
        completeNanos[i] = slot.completeNanos;
        queueDepth[i] = slot.queueDepthAtSubmit;
        status[i] = slot.status;
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean isFull() {
        return size == op.length;
    }

    /** Hands every held completion to {@code recorder}, oldest first, and empties the backlog. */
    void drainTo(Recorder recorder) {
        for (int i = 0; i < size; i++) {
            recorder.record(
                    op[i], offsetBytes[i], sizeBytes[i], submitNanos[i], completeNanos[i], queueDepth[i], status[i]);
        }
        size = 0;
    }

    @FunctionalInterface
    interface Recorder {
        void record(
                byte op,
                long offsetBytes,
                int sizeBytes,
                long submitNanos,
                long completeNanos,
                int queueDepth,
                int status);
    }
}
