package dev.ssdpulse.producer.io;

import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * Receives every completed I/O of a run, from the simulator or the device engine, in completion order
 * per worker. Primitive parameters keep the hot path allocation-free; the publisher batches them into
 * columnar {@code IoBatch} records, the offline summary feeds them to the analytics accumulators.
 */
@FunctionalInterface
public interface IoCompletionSink {
    /**
     * @param worker        worker (job) index, from 0
     * @param phaseIndex    phase the I/O belongs to
     * @param op            an {@link IoOpCode}
     * @param offsetBytes   byte offset on the target
     * @param sizeBytes     transfer size in bytes
     * @param submitTimeNs  submit time, ns since run start
     * @param latencyNs     submit-to-completion latency, ns
     * @param queueDepth    I/Os outstanding on the worker at submit, this one included
     * @param status        0 for success, else a positive errno-style code
     */
    void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status);

    /**
     * As {@link #onIoCompleted(int, int, byte, long, int, long, long, int, int)}, for an I/O that may carry the
     * sequence its stamped write wrote into its units, or flags: a sink that records runs for verification (the
     * publisher) keeps them, others drop them.
     *
     * @param writeSequence the stamped write's sequence, or {@code IoFlags.NO_SEQUENCE}
     * @param ioFlags       {@code IoFlags} bits (FUA)
     */
    default void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {
        onIoCompleted(worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
    }

    /**
     * Every I/O of {@code worker} that completes before {@code runTimeNs} (ns since run start) has been passed to
     * {@link #onIoCompleted}: the I/Os still in flight complete later. Called by the thread that reports that
     * worker's completions, whenever the driver knows (the simulator after each step of its clock, the device
     * engine before it waits for completions). A sink that publishes the run live tells the analytics, which then
     * close a window as soon as every worker has passed its end; the default ignores it.
     */
    default void completedThrough(int worker, long runTimeNs) {}
}
