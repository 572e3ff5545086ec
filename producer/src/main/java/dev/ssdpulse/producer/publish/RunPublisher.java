package dev.ssdpulse.producer.publish;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.schemas.runs.RunStartTime;
import dev.ssdpulse.schemas.topics.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one run to Kafka: RunStarted to the runs topic, the ordered event stream (I/O batches, phase
 * changes, heartbeats, RunFinished) to the io topic, SMART samples to the smart topic, all keyed by run id.
 *
 * <p>A bounded queue separates the I/O path from Kafka: workers only append to a per-worker
 * {@link IoBatchBuilder} and hand complete batches to the queue; one sender thread calls
 * {@link Producer#send}. What happens when the queue is full is the configured {@link OverflowPolicy}; lost
 * I/Os are counted and reported, never silent.
 *
 * <p>Threading contract: {@link #onIoCompleted} for worker {@code w} is called by one thread at a time (the
 * worker's); {@link #phaseChanged} and {@link #finish} are called when no worker is submitting (between
 * phases, after the run). Everything goes through one queue and one sender, and the idempotent producer
 * keeps order per partition, so a consumer sees a run's events in the order they were published.
 *
 * <p><b>How far the run is complete.</b> A driver that knows it says, per worker, that every I/O completing before
 * a run time has been passed on ({@link #completedThrough(int, long)}); once that worker's builder has been
 * flushed, its I/Os before that time are in the queue. When a worker passes a whole second of run time
 * ({@link #PROGRESS_STEP_NS}) its builder is flushed at once, and when the lowest such time over the phase's workers
 * passes one, the sender sends everything queued so far, then a heartbeat carrying that time
 * ({@code completeUpToNs}): the analytics close a window as soon as every worker has passed its end, without
 * waiting for a grace, at the cost of one more record and heartbeat per worker and second. The time is only ever
 * advanced by drivers' reports, never guessed from completion times (the synchronous engine's workers report from
 * several threads, not strictly in completion order).
 */
public final class RunPublisher implements IoCompletionSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunPublisher.class);
    private static final Object STOP = new Object();
    /** Wakes the sender: a worker passed a whole second of run time (nothing to send of its own). */
    private static final Object PROGRESS = new Object();
    /**
     * The publisher announces how far the run is complete each time it passes a whole second of run time: the
     * analytics' windows are whole seconds (1 s by default), so every window end is such a second.
     */
    public static final long PROGRESS_STEP_NS = 1_000_000_000L;

    /** REPLAY phases' issue results for RunFinished. */
    private final List<ReplayPhaseResult> replayPhases = new ArrayList<>();

    private final Producer<String, SpecificRecord> producer;
    private final PublisherConfig config;
    private final String runId;
    private final IoBatchBuilder[] builders;
    private final long[] bytesReadPerWorker;
    private final long[] bytesWrittenPerWorker;
    private final long[] bytesTrimmedPerWorker;
    private final long[] lastFlushCheckNanos;
    private final int[] addsSinceFlushCheck;
    private final BlockingQueue<Object> queue;
    private final Thread sender;

    private final AtomicLong ioCompleted = new AtomicLong();
    private final AtomicLong ioQueued = new AtomicLong();
    private final AtomicLong ioPublished = new AtomicLong();
    private final AtomicLong ioNotPublished = new AtomicLong();
    private final AtomicLong recordsPublished = new AtomicLong();
    private final AtomicLong recordsFailed = new AtomicLong();
    private final AtomicReference<Exception> firstFailure = new AtomicReference<>();
    private volatile long lastEventTimeNs;
    /**
     * Latest I/O completion per worker (each worker writes only its own slot, on the I/O path), for the end time of
     * a run closed before it finished: {@link #lastEventTimeNs} moves only when a batch is queued.
     */
    private final long[] maxCompletionNsPerWorker;

    /**
     * Per worker: every I/O of the worker completing before this run time is in the queue (written by the worker's
     * thread after it queued the flushed batch, read by the sender).
     */
    private final AtomicLongArray publishedThroughNs;
    /** Per worker: the latest run time its driver reported complete (the worker's thread only). */
    private final long[] reportedThroughNs;
    /** Workers of the current phase: the run is complete up to the lowest of their times. */
    private volatile int activeWorkers;
    /** The completion time last sent in a heartbeat (the sender thread only); Long.MIN_VALUE before the first. */
    private long sentCompleteUpToNs = Long.MIN_VALUE;
    /** The run's group, carried by every heartbeat; null for a run on its own. */
    private volatile GroupMembership membership;

    private volatile boolean finished;

    /** One queued record and the I/Os it carries (0 for lifecycle and SMART records). */
    private record Pending(ProducerRecord<String, SpecificRecord> record, int ioCount) {}

    /**
     * Publishes {@code runStarted} synchronously (so a wrong bootstrap address or registry fails here, before
     * any I/O is done) and starts the sender thread.
     *
     * @param maxWorkers highest worker count of any phase of the run
     */
    public RunPublisher(
            Producer<String, SpecificRecord> producer, PublisherConfig config, RunStarted runStarted, int maxWorkers) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.config = Objects.requireNonNull(config, "config");
        this.runId = runStarted.getRunId();
        if (maxWorkers < 1) {
            throw new IllegalArgumentException("maxWorkers must be >= 1, got " + maxWorkers);
        }
        this.builders = new IoBatchBuilder[maxWorkers];
        for (int w = 0; w < maxWorkers; w++) {
            builders[w] = new IoBatchBuilder(runId, w, config.maxBatchIos());
        }
        this.bytesReadPerWorker = new long[maxWorkers];
        this.maxCompletionNsPerWorker = new long[maxWorkers];
        this.bytesWrittenPerWorker = new long[maxWorkers];
        this.bytesTrimmedPerWorker = new long[maxWorkers];
        this.lastFlushCheckNanos = new long[maxWorkers];
        this.addsSinceFlushCheck = new int[maxWorkers];
        this.publishedThroughNs = new AtomicLongArray(maxWorkers);
        this.reportedThroughNs = new long[maxWorkers];
        for (int w = 0; w < maxWorkers; w++) {
            publishedThroughNs.set(w, Long.MIN_VALUE);
            reportedThroughNs[w] = Long.MIN_VALUE;
        }
        this.membership = membershipOf(runStarted);
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        sendSynchronously(new ProducerRecord<>(Topics.RUNS.name(), runId, runStarted));
        // a first heartbeat, before any other event of the run: RunStarted is on the runs topic only, so without an
        // event on the io topic a producer that died before its first phase would leave the run unknown to the
        // analytics' heartbeat timeout forever, instead of INCOMPLETE
        sendSynchronously(ioRecord(heartbeat()));
        this.sender = new Thread(this::sendLoop, "ssdpulse-publisher-" + runId);
        this.sender.setDaemon(true);
        this.sender.start();
    }

    public String runId() {
        return runId;
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        onIoCompleted(
                worker,
                phaseIndex,
                op,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                IoFlags.NO_SEQUENCE,
                IoFlags.NONE);
    }

    /** Also records the sequence a stamped write carried and the I/O's flags (FUA), for {@code ssdpulse verify}. */
    @Override
    public void onIoCompleted(
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
        ioCompleted.incrementAndGet();
        long completionNs = submitTimeNs + latencyNs;
        if (completionNs > maxCompletionNsPerWorker[worker]) {
            maxCompletionNsPerWorker[worker] = completionNs;
        }
        switch (op) {
            case IoOpCode.READ -> bytesReadPerWorker[worker] += sizeBytes;
            case IoOpCode.WRITE -> bytesWrittenPerWorker[worker] += sizeBytes;
            case IoOpCode.TRIM -> bytesTrimmedPerWorker[worker] += sizeBytes;
            default -> {}
        }
        IoBatchBuilder builder = builders[worker];
        IoBatch full = builder.add(
                phaseIndex,
                op,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                writeSequence,
                ioFlags);
        if (full != null) {
            lastEventTimeNs = submitTimeNs + latencyNs;
            enqueueBatch(full);
            publishedThrough(worker);
            lastFlushCheckNanos[worker] = System.nanoTime();
            addsSinceFlushCheck[worker] = 0;
        } else if (++addsSinceFlushCheck[worker] >= 16) {
            // Reading the clock every I/O would cost more than the batching saves; every 16th is enough to
            // bound the linger of a slow run.
            addsSinceFlushCheck[worker] = 0;
            long now = System.nanoTime();
            if (lastFlushCheckNanos[worker] == 0) {
                lastFlushCheckNanos[worker] = now;
            } else if (now - lastFlushCheckNanos[worker] >= config.lingerFlush().toNanos()) {
                lastEventTimeNs = submitTimeNs + latencyNs;
                IoBatch partial = builder.flush();
                if (partial != null) {
                    enqueueBatch(partial);
                    publishedThrough(worker);
                }
                lastFlushCheckNanos[worker] = now;
            }
        }
    }

    /**
     * Every I/O of {@code worker} that completes before {@code runTimeNs} has been passed to {@link #onIoCompleted}
     * (I/Os in flight complete later). Called by the worker's own thread, like {@link #onIoCompleted}; cheap when the
     * time has not moved. A partial batch that waited {@link PublisherConfig#lingerFlush()} is published here too, so
     * an idle worker does not hold the run's completion back.
     */
    @Override
    public void completedThrough(int worker, long runTimeNs) {
        long before = reportedThroughNs[worker];
        if (runTimeNs <= before) {
            return;
        }
        reportedThroughNs[worker] = runTimeNs;
        boolean newSecond = Math.floorDiv(runTimeNs, PROGRESS_STEP_NS) > Math.floorDiv(before, PROGRESS_STEP_NS);
        IoBatchBuilder builder = builders[worker];
        if (builder.pendingCount() > 0) {
            long now = System.nanoTime();
            long last = lastFlushCheckNanos[worker];
            if (!newSecond && last != 0 && now - last < config.lingerFlush().toNanos()) {
                return;
            }
            IoBatch partial = builder.flush();
            if (partial != null) {
                lastEventTimeNs = Math.max(lastEventTimeNs, runTimeNs);
                enqueueBatch(partial);
            }
            lastFlushCheckNanos[worker] = now;
            addsSinceFlushCheck[worker] = 0;
        }
        publishedThrough(worker);
        if (newSecond) {
            // after the time is published: the sender wakes and sees it (a full queue wakes it anyway)
            queue.offer(PROGRESS);
        }
    }

    /**
     * {@link #completedThrough(int, long)} for every worker at once: only for a driver whose single thread reports
     * every worker's completions (the simulator).
     */
    public void completedThrough(long runTimeNs) {
        for (int w = 0; w < builders.length; w++) {
            completedThrough(w, runTimeNs);
        }
    }

    /** The worker's queued I/Os now cover what its driver reported: the sender may announce it. */
    private void publishedThrough(int worker) {
        long reported = reportedThroughNs[worker];
        if (reported > publishedThroughNs.get(worker)) {
            publishedThroughNs.set(worker, reported);
        }
    }

    /** As {@link #phaseChanged(PhaseChanged, int)} with every worker of the run taking part. */
    public void phaseChanged(PhaseChanged change) {
        phaseChanged(change, builders.length);
    }

    /**
     * Flushes every worker's pending I/Os of the previous phase, then publishes the phase change; the run is
     * complete up to the change, and from now on up to what the phase's {@code workers} (0..workers-1) report.
     */
    public void phaseChanged(PhaseChanged change, int workers) {
        flushWorkers();
        lastEventTimeNs = Math.max(lastEventTimeNs, change.getTimeNs());
        // Not on the I/O path (no worker is submitting), and per-phase results depend on it: never dropped.
        putBlocking(new Pending(ioRecord(change), 0));
        for (int w = 0; w < builders.length; w++) {
            reportedThroughNs[w] = Math.max(reportedThroughNs[w], change.getTimeNs());
            publishedThrough(w);
        }
        activeWorkers = Math.max(0, Math.min(workers, builders.length));
    }

    /** A REPLAY phase ended: its issue result goes into RunFinished (one per phase, in phase order). */
    public void replayFinished(ReplayResult result) {
        synchronized (replayPhases) {
            replayPhases.add(result.toAvro());
        }
    }

    public void publishSmart(SmartSample sample) {
        enqueue(new Pending(new ProducerRecord<>(Topics.SMART.name(), runId, sample), 0));
    }

    /**
     * Ends the run: flushes pending I/Os, publishes RunFinished with the run's totals, waits until Kafka has
     * acknowledged everything (or {@code timeoutMs} passed) and stops the sender.
     */
    public PublishReport finish(RunStatus status, String reason, long timeNs, long timeoutMs) {
        if (finished) {
            throw new IllegalStateException("run " + runId + " already finished");
        }
        flushWorkers();
        List<Long> ioPerWorker = new ArrayList<>(builders.length);
        List<Long> batchesPerWorker = new ArrayList<>(builders.length);
        long bytesRead = 0;
        long bytesWritten = 0;
        long bytesTrimmed = 0;
        for (int w = 0; w < builders.length; w++) {
            ioPerWorker.add(builders[w].nextIoSequence());
            batchesPerWorker.add(builders[w].nextBatchSequence());
            bytesRead += bytesReadPerWorker[w];
            bytesWritten += bytesWrittenPerWorker[w];
            bytesTrimmed += bytesTrimmedPerWorker[w];
        }
        RunFinished runFinished = RunFinished.newBuilder()
                .setRunId(runId)
                .setStatus(status)
                .setReason(reason)
                .setTimeNs(timeNs)
                .setWallClockEpochMs(Instant.ofEpochMilli(System.currentTimeMillis()))
                .setIoCount(ioCompleted.get())
                .setIoCountPerWorker(ioPerWorker)
                .setBatchCountPerWorker(batchesPerWorker)
                .setBytesRead(bytesRead)
                .setBytesWritten(bytesWritten)
                .setBytesTrimmed(bytesTrimmed)
                .setIoNotPublished(ioNotPublished.get())
                .setReplayPhases(replayPhasesSoFar())
                .build();
        // RunFinished is never dropped, whatever the overflow policy: it carries the totals.
        putBlocking(new Pending(ioRecord(runFinished), 0));
        finished = true;
        putBlocking(STOP);
        try {
            sender.join(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (sender.isAlive()) {
            sender.interrupt();
        }
        producer.flush();
        return report();
    }

    private List<ReplayPhaseResult> replayPhasesSoFar() {
        synchronized (replayPhases) {
            return new ArrayList<>(replayPhases);
        }
    }

    public PublishReport report() {
        Exception failure = firstFailure.get();
        return new PublishReport(
                ioCompleted.get(),
                ioPublished.get(),
                ioNotPublished.get(),
                recordsPublished.get(),
                recordsFailed.get(),
                queue.size(),
                failure == null ? null : failure.toString());
    }

    /** I/Os completed but not yet acknowledged by Kafka (queued or in flight). */
    public long lagIos() {
        return ioCompleted.get() - ioPublished.get() - ioNotPublished.get();
    }

    @Override
    public void close() {
        if (!finished) {
            // the workers have stopped by now (their owner closes the publisher after them): their slots are final
            long endNs = lastEventTimeNs;
            for (long workerEndNs : maxCompletionNsPerWorker) {
                endNs = Math.max(endNs, workerEndNs);
            }
            finish(RunStatus.ABORTED, "publisher closed before the run finished", endNs, 30_000);
        }
    }

    private void flushWorkers() {
        for (IoBatchBuilder builder : builders) {
            IoBatch partial = builder.flush();
            if (partial != null) {
                enqueueBatch(partial);
            }
        }
    }

    private void enqueueBatch(IoBatch batch) {
        ioQueued.addAndGet(batch.getIoCount());
        enqueue(new Pending(ioRecord(batch), batch.getIoCount()));
    }

    private ProducerRecord<String, SpecificRecord> ioRecord(SpecificRecord event) {
        return new ProducerRecord<>(Topics.IO.name(), runId, new IoStreamRecord(event));
    }

    private void enqueue(Pending pending) {
        if (config.overflowPolicy() == OverflowPolicy.BLOCK) {
            putBlocking(pending);
        } else if (!queue.offer(pending)) {
            long lost = ioNotPublished.addAndGet(pending.ioCount());
            if (pending.ioCount() == 0) {
                recordsFailed.incrementAndGet();
            }
            if (lost == pending.ioCount() && lost > 0) {
                LOG.warn(
                        "run {}: Kafka is falling behind; the hand-off queue is full and I/O events are being "
                                + "counted as not published (the I/O path is never stalled with --overflow drop)",
                        runId);
            }
        }
    }

    private void putBlocking(Object item) {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted while handing an event of run " + runId + " to Kafka", e);
        }
    }

    private void sendLoop() {
        long heartbeatNanos = config.heartbeatInterval().toNanos();
        long nextHeartbeat = System.nanoTime() + heartbeatNanos;
        List<Object> drained = new ArrayList<>();
        try {
            while (true) {
                long waitNanos = Math.max(0, nextHeartbeat - System.nanoTime());
                Object item = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (item == STOP) {
                    return;
                }
                if (item instanceof Pending pending) {
                    send(pending);
                }
                long completeUpTo = completeUpToNs();
                // a whole second passed since the last announcement; before the first second no window can close,
                // so nothing is announced (a run starting has nothing to say yet)
                if (completeUpTo >= PROGRESS_STEP_NS
                        && Math.floorDiv(completeUpTo, PROGRESS_STEP_NS)
                                > Math.floorDiv(sentCompleteUpToNs, PROGRESS_STEP_NS)
                        && !finished) {
                    // every batch the workers queued before their times moved goes first
                    queue.drainTo(drained);
                    for (Object queued : drained) {
                        if (queued == STOP) {
                            return;
                        }
                        if (queued instanceof Pending pending) {
                            send(pending);
                        }
                    }
                    drained.clear();
                    if (!finished) {
                        sentCompleteUpToNs = completeUpTo;
                        send(new Pending(ioRecord(heartbeat()), 0));
                        nextHeartbeat = System.nanoTime() + heartbeatNanos;
                    }
                }
                long now = System.nanoTime();
                if (now - nextHeartbeat >= 0) {
                    if (!finished) {
                        send(new Pending(ioRecord(heartbeat()), 0));
                    }
                    nextHeartbeat = System.nanoTime() + heartbeatNanos;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            firstFailure.compareAndSet(null, e);
            LOG.error("run {}: publisher stopped: {}", runId, e.toString());
        }
    }

    /** The lowest time the current phase's workers are published through; Long.MIN_VALUE when unknown. */
    private long completeUpToNs() {
        int workers = activeWorkers;
        if (workers == 0) {
            return Long.MIN_VALUE;
        }
        long min = Long.MAX_VALUE;
        for (int w = 0; w < workers; w++) {
            min = Math.min(min, publishedThroughNs.get(w));
        }
        return min;
    }

    /**
     * The run's times come due on the wall clock {@code shiftNs} later than its recorded start says (a paced phase
     * that started behind its schedule moved its origin forward): a group member's membership carries the moved
     * start from now on, in a heartbeat sent at once, before the I/Os it applies to, so the group places them on the
     * wall clock where they happened. Call it before the I/Os of the phase.
     */
    public void runTimeOriginMoved(long shiftNs) {
        GroupMembership current = membership;
        if (current == null || shiftNs <= 0) {
            return;
        }
        membership = GroupMembership.newBuilder(current)
                .setRunStart(current.getRunStart().plusNanos(shiftNs))
                .build();
        sendSynchronously(ioRecord(heartbeat()));
    }

    /** A heartbeat with the completion time last announced (by the sender, after what it covers was sent). */
    private RunHeartbeat heartbeat() {
        return RunHeartbeat.newBuilder()
                .setRunId(runId)
                .setTimeNs(lastEventTimeNs)
                .setWallClockEpochMs(Instant.ofEpochMilli(System.currentTimeMillis()))
                .setIoCompleted(ioCompleted.get())
                .setIoPublished(ioPublished.get())
                .setIoNotPublished(ioNotPublished.get())
                .setCompleteUpToNs(sentCompleteUpToNs == Long.MIN_VALUE ? null : sentCompleteUpToNs)
                .setMembership(membership)
                .build();
    }

    private static GroupMembership membershipOf(RunStarted started) {
        if (started.getGroup() == null) {
            return null;
        }
        String member = started.getMember() != null ? started.getMember() : started.getRunId();
        return GroupMembership.newBuilder()
                .setGroup(started.getGroup())
                .setMember(member)
                .setHost(started.getHost() == null ? null : started.getHost().getHostname())
                .setRunStart(RunStartTime.of(started))
                .build();
    }

    private void send(Pending pending) {
        producer.send(pending.record(), (metadata, exception) -> {
            if (exception == null) {
                recordsPublished.incrementAndGet();
                ioPublished.addAndGet(pending.ioCount());
            } else {
                recordsFailed.incrementAndGet();
                ioNotPublished.addAndGet(pending.ioCount());
                if (firstFailure.compareAndSet(null, exception)) {
                    LOG.error(
                            "run {}: Kafka rejected a record of topic {}: {}",
                            runId,
                            pending.record().topic(),
                            exception.toString());
                }
            }
        });
    }

    private void sendSynchronously(ProducerRecord<String, SpecificRecord> record) {
        try {
            producer.send(record).get(60, TimeUnit.SECONDS);
            recordsPublished.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted while publishing the start of run " + runId, e);
        } catch (ExecutionException e) {
            throw new PublishException(
                    "could not publish the start of run " + runId + " to topic " + record.topic() + ": " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new PublishException(
                    "Kafka did not acknowledge the start of run " + runId + " within 60 s; is the broker reachable?",
                    e);
        }
    }
}
