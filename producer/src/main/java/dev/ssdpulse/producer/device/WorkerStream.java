package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One worker of a phase: its request generator, shared by the worker's queue-depth threads under {@link #lock}.
 * Sharing one generator (rather than giving each thread an independent sub-stream) keeps the worker's request
 * sequence exactly what the workload model defines: sequential runs stay contiguous, the worker's byte budget is
 * exact and {@code delayNs} pacing applies between consecutive submits of the worker. A second lock,
 * {@link #sinkLock}, serialises the worker's completions into the sink (which requires per-worker single-threaded
 * calls); two locks rather than one halve the contention among the worker's threads at high queue depth.
 */
final class WorkerStream {
    final int worker;
    final RequestGenerator generator;
    final ReentrantLock lock = new ReentrantLock();
    final ReentrantLock sinkLock = new ReentrantLock();
    final IoRequest request = new IoRequest();
    final AtomicInteger outstanding = new AtomicInteger();
    /** Guarded by lock. */
    boolean exhausted;

    long lastScheduledSubmitNanos = SubmitPacing.NONE;
    /** Guarded by sinkLock. */
    long ios;

    long errors;
    long bytesRead;
    long bytesWritten;
    long bytesTrimmed;

    WorkerStream(int worker, RequestGenerator generator) {
        this.worker = worker;
        this.generator = generator;
    }
}
