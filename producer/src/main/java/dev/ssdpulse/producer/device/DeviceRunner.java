package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.device.engine.CpuList;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoRequestCheck;
import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.producer.device.engine.IoStatus;
import dev.ssdpulse.producer.device.engine.PatternFiller;
import dev.ssdpulse.producer.device.engine.StampFiller;
import dev.ssdpulse.producer.device.engine.ThreadAffinity;
import dev.ssdpulse.producer.device.engine.WriteFiller;
import dev.ssdpulse.producer.integrity.StampWriter;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.replay.ReplayGenerator;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadGenerators;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives a workload's scheduled phases against an opened {@link IoEngine}.
 *
 * <p>Per I/O phase, with an asynchronous engine (libaio, io_uring): one thread per worker (fio's numjobs), each
 * with its own engine ({@link IoEngine#openSibling()} for workers after the first), keeping up to
 * {@code queueDepth} I/Os in flight: it submits into every free slot, then reaps (which hands the batch to the
 * kernel) and refills. With a synchronous engine (psync): {@code workers x queueDepth} threads; the threads of
 * one worker share its generator ({@link WorkerStream}), so the worker has up to {@code queueDepth} I/Os
 * outstanding. A phase ends at the first of: its duration on the wall clock (checked before each submit; I/Os in
 * flight finish and are recorded), its byte budget or generator exhaustion, cancellation, or a device error.
 *
 * <p>Device errors: an I/O the device fails ({@link IoStatus#isDeviceError}: EIO, ENOSPC, ENODEV, ...) ends the
 * phase as FAILED and the run as FAILED (like fio without continue_on_error); the I/Os in flight complete and
 * are recorded, every failed one counted. A request refused by design (EINVAL, EOPNOTSUPP TRIM) is counted and
 * the phase goes on. With an asynchronous engine, outstanding I/Os that see no completion for
 * {@link DeviceRunOptions#ioTimeoutNs()} fail the phase too, so a vanished device cannot hang the run. Ramp time is not
 * treated specially: ramp I/Os are recorded like any other, and consumers exclude the first {@code rampNs} of the phase
 * from statistics (PhaseSpec's contract). {@code delayNs} is honoured as the minimum gap between consecutive submits of
 * a worker (rate limit, think time), by parking the submitting thread until its slot's due time.
 *
 * <p>IDLE phases sleep for their duration (cancellable). PURGE without access specs: on a file there is nothing to
 * purge (a file has no FTL state to reset) and the phase is skipped with a notice; on a block device, with
 * --allow-destroy-data, the whole device is discarded as {@code blkdiscard} does (not a secure erase: NVMe Format /
 * ATA Sanitize are out of reach), and without --allow-destroy-data the run fails instead. A PURGE with {@code trim} and
 * access specs is a TRIM pass, issued like any I/O phase.
 *
 * <p>Cancellation ({@link #cancel()}, e.g. from a Ctrl-C hook): no new I/O is submitted, outstanding I/Os
 * complete and are delivered to the sink, and {@code run} returns a result with status ABORTED. A runner serves
 * one run: cancellation is final.
 */
public final class DeviceRunner {
    /**
     * An asynchronous worker tells the sink how far it is complete at most this often (a live run's publisher
     * turns it into the analytics' window closing, every 100 ms): once per reap would be a call per batch.
     */
    private static final long PROGRESS_EVERY_NS = 1_000_000L;

    private final IoEngine engine;
    private final DeviceRunOptions options;
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private volatile boolean stop;
    private volatile String cancelReason;
    /** The engines' registration refusals already told to the user: once per run, not once per phase or worker. */
    private final Set<String> refusalsNoticed = new HashSet<>();
    /** The next sequence a stamped write of the run gets (with {@link DeviceRunOptions#stamps()}). */
    private final AtomicLong writeSequences = new AtomicLong();
    /** The run's stamp writer (its random pool is made once per run), or null. */
    private final StampWriter stampWriter;
    /** The run's traces, scanned before its first phase. */
    private ReplayTraces replays = ReplayTraces.NONE;

    public DeviceRunner(IoEngine engine, DeviceRunOptions options) {
        this.engine = engine;
        this.options = options;
        WriteStamps stamps = options.stamps();
        this.stampWriter = stamps == null ? null : new StampWriter(stamps.runHash(), stamps.seed());
    }

    /** Asks the run to end: safe from any thread (a shutdown hook included); idempotent. */
    public void cancel() {
        cancel("cancelled by the user");
    }

    public void cancel(String reason) {
        if (cancelReason == null) {
            cancelReason = reason;
        }
        stop = true;
        cancelled.countDown();
    }

    public boolean isCancelled() {
        return cancelled.getCount() == 0;
    }

    /**
     * Refuses a workload with a phase only a simulated drive can run, before the caller touches a target (a device
     * run creates and may fill a file first).
     *
     * @throws IllegalArgumentException naming the phase and what to do instead
     */
    public static void checkRunsOnADevice(WorkloadSpec spec) {
        for (ScheduledPhase p : spec.schedule()) {
            if (p.phase().kind() == PhaseKind.POWER_CUT) {
                throw new IllegalArgumentException("phase '" + p.name() + "': a POWER_CUT phase cuts the power of a"
                        + " simulated drive only; cut a real drive's power from outside (a relay or a hot-plug bay)"
                        + " and run `ssdpulse verify` after it (docs/power-loss.md)");
            }
        }
    }

    /**
     * Runs every scheduled phase. Times given to the sink and the listener are ns since this call.
     *
     * @throws IllegalArgumentException before any I/O, when a phase cannot run on this engine (alignment)
     */
    public DeviceRunResult run(WorkloadSpec spec, IoCompletionSink sink, DeviceRunListener listener) {
        return run(spec, ReplayTraces.scan(spec), sink, listener);
    }

    /**
     * As {@link #run(WorkloadSpec, IoCompletionSink, DeviceRunListener)}, with the workload's traces already
     * scanned (the caller needed to know whether they write before opening the target).
     */
    public DeviceRunResult run(
            WorkloadSpec spec, ReplayTraces replays, IoCompletionSink sink, DeviceRunListener listener) {
        List<ScheduledPhase> schedule = spec.schedule();
        checkRunsOnADevice(spec);
        for (ScheduledPhase p : schedule) {
            checkAlignment(p);
            if (issuesIo(p.phase()) && p.phase().queueDepth() > engine.maxQueueDepth()) {
                throw new IllegalArgumentException(
                        "phase '" + p.name() + "': queue depth " + p.phase().queueDepth() + " exceeds the "
                                + engine.name() + " engine's " + engine.maxQueueDepth());
            }
        }
        replays.checkTarget(spec, options.targetSizeBytes(), engine.alignmentBytes(), "engine " + engine.name());
        this.replays = replays;
        long runStart = System.nanoTime();
        RunCounters totals = new RunCounters();
        List<PhaseOutcome> outcomes = new ArrayList<>();
        DeviceRunResult.Status status = DeviceRunResult.Status.COMPLETED;
        String reason = null;
        for (ScheduledPhase p : schedule) {
            if (isCancelled()) {
                break;
            }
            long start = System.nanoTime() - runStart;
            listener.onPhaseStarted(p, start);
            PhaseOutcome outcome;
            try {
                outcome = runPhase(p, runStart, start, sink, listener, totals);
            } catch (RuntimeException e) {
                outcome = new PhaseOutcome(
                        p.index(),
                        p.name(),
                        start,
                        System.nanoTime() - runStart,
                        0,
                        0,
                        0,
                        0,
                        0,
                        PhaseOutcome.EndReason.FAILED,
                        e.getMessage());
            }
            outcomes.add(outcome);
            listener.onPhaseEnded(p, outcome);
            if (outcome.endReason() == PhaseOutcome.EndReason.FAILED) {
                status = DeviceRunResult.Status.FAILED;
                reason = "phase '" + p.name() + "' failed: " + outcome.note();
                break;
            }
        }
        if (status == DeviceRunResult.Status.COMPLETED && isCancelled()) {
            status = DeviceRunResult.Status.ABORTED;
            reason = cancelReason;
        }
        return new DeviceRunResult(status, reason, System.nanoTime() - runStart, outcomes, engine.lastError());
    }

    private void checkAlignment(ScheduledPhase p) {
        int align = Math.max(1, engine.alignmentBytes());
        PhaseSpec phase = p.phase();
        for (AccessSpec a : phase.accessSpecs()) {
            if (a.transferSizeBytes() % align != 0 || a.alignmentBytes() % align != 0) {
                throw new IllegalArgumentException("phase '" + p.name() + "': access spec with transfer size "
                        + a.transferSizeBytes() + " B and alignment " + a.alignmentBytes() + " B cannot run on engine "
                        + engine.name() + ": "
                        + IoRequestCheck.alignmentMessage(a.alignmentBytes(), a.transferSizeBytes(), align));
            }
        }
        if (issuesIo(phase)) {
            long offset = phase.span().offsetBytes(options.targetSizeBytes());
            if (offset % align != 0) {
                throw new IllegalArgumentException("phase '" + p.name() + "': span offset " + offset
                        + " B is not a multiple of the engine's alignment " + align + " B (" + engine.name() + ")");
            }
            if (options.stamps() != null && offset % UnitStamp.UNIT_BYTES != 0) {
                throw new IllegalArgumentException("phase '" + p.name() + "': span offset " + offset
                        + " B is not a multiple of 4 KiB: stamped writes (verify) cover whole 4 KiB units");
            }
        }
    }

    /** A phase that issues I/O (access specs or a trace), not one that idles or purges the whole device. */
    private static boolean issuesIo(PhaseSpec phase) {
        return !phase.accessSpecs().isEmpty() || phase.kind() == PhaseKind.REPLAY;
    }

    private PhaseOutcome runPhase(
            ScheduledPhase p,
            long runStart,
            long startNs,
            IoCompletionSink sink,
            DeviceRunListener listener,
            RunCounters totals) {
        PhaseSpec phase = p.phase();
        if (phase.kind() == PhaseKind.IDLE || (!issuesIo(phase) && phase.kind() != PhaseKind.PURGE)) {
            return idle(p, runStart, startNs, listener, totals);
        }
        if (!issuesIo(phase)) { // plain PURGE
            String note;
            if (!options.blockDevice()) {
                note = "PURGE on a file target: nothing to purge (a file has no FTL state to reset); skipped";
            } else if (!options.allowDestroyData()) {
                return new PhaseOutcome(
                        p.index(),
                        p.name(),
                        startNs,
                        System.nanoTime() - runStart,
                        0,
                        0,
                        0,
                        0,
                        0,
                        PhaseOutcome.EndReason.FAILED,
                        "PURGE of a block device destroys its data and needs" + " --allow-destroy-data");
            } else if (engine.supportsTrim()) {
                return discardWholeDevice(p, runStart, startNs, sink, listener, totals);
            } else {
                note = "PURGE on a block device needs TRIM, which this engine/target does not offer ("
                        + engine.lastError() + "): run `nvme format` or `blkdiscard` on the device before the run;"
                        + " skipped";
            }
            listener.onNotice(note);
            return new PhaseOutcome(
                    p.index(),
                    p.name(),
                    startNs,
                    System.nanoTime() - runStart,
                    0,
                    0,
                    0,
                    0,
                    0,
                    PhaseOutcome.EndReason.SKIPPED,
                    note);
        }
        return new PhaseExecution(p, runStart, sink, totals).execute(startNs, listener);
    }

    /**
     * PURGE of a block device, as {@code blkdiscard} does: the whole device discarded in 1-GiB TRIMs, each recorded
     * as an I/O of the phase. Not a secure erase (no NVMe Format / ATA Sanitize from Java): most SSDs then read
     * the range as deallocated and their FTL starts from empty mappings, which is what a purge before a
     * steady-state test is for; the notice says so.
     */
    private PhaseOutcome discardWholeDevice(
            ScheduledPhase p,
            long runStart,
            long startNs,
            IoCompletionSink sink,
            DeviceRunListener listener,
            RunCounters totals) {
        long chunkBytes = 1L << 30;
        IoSlot slot = engine.allocateSlot(Math.max(1, engine.alignmentBytes()));
        long ios = 0;
        long errors = 0;
        long trimmed = 0;
        String failure = null;
        listener.onNotice("PURGE: discarding the target (" + options.targetSizeBytes() + " bytes, as blkdiscard"
                + " does; not a secure erase)");
        for (long offset = 0; offset < options.targetSizeBytes() && !isCancelled(); offset += chunkBytes) {
            int size = (int) Math.min(chunkBytes, options.targetSizeBytes() - offset);
            slot.op = IoOpCode.TRIM;
            slot.offsetBytes = offset;
            slot.sizeBytes = size;
            submitAndWait(engine, slot);
            ios++;
            totals.ios.increment();
            if (slot.status == IoStatus.OK) {
                trimmed += size;
            } else {
                errors++;
                totals.errors.increment();
                failure = engine.lastError();
            }
            sink.onIoCompleted(
                    0,
                    p.index(),
                    slot.op,
                    offset,
                    size,
                    slot.submitNanos - runStart,
                    slot.completeNanos - slot.submitNanos,
                    1,
                    slot.status);
        }
        PhaseOutcome.EndReason reason = isCancelled()
                ? PhaseOutcome.EndReason.CANCELLED
                : failure != null ? PhaseOutcome.EndReason.FAILED : PhaseOutcome.EndReason.BYTES;
        String note = failure != null
                ? "PURGE discard failed: " + failure
                : "PURGE: whole device discarded (not a secure erase)";
        return new PhaseOutcome(
                p.index(), p.name(), startNs, System.nanoTime() - runStart, ios, errors, 0, 0, trimmed, reason, note);
    }

    /** One I/O, waited for: the synchronous use of either kind of engine. */
    private void submitAndWait(IoEngine e, IoSlot slot) {
        if (!e.submit(slot)) {
            IoSlot[] out = new IoSlot[1];
            try {
                while (e.reap(out, 1, 1, options.ioTimeoutNs()) == 0) {
                    if (System.nanoTime() - slot.submitNanos > options.ioTimeoutNs()) {
                        throw new IllegalStateException("the device did not complete an I/O within "
                                + options.ioTimeoutNs() / 1_000_000 + " ms");
                    }
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for an I/O", ex);
            }
        }
    }

    private PhaseOutcome idle(
            ScheduledPhase p, long runStart, long startNs, DeviceRunListener listener, RunCounters totals) {
        long durationNs = p.phase().durationNs().orElse(0);
        long end = runStart + startNs + durationNs;
        ProgressTicker ticker = new ProgressTicker(runStart, p, totals, listener);
        try {
            while (true) {
                long now = System.nanoTime();
                long wait = Math.min(end - now, ticker.nextTickNanos - now);
                if (end - now <= 0 || cancelled.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                    break;
                }
                ticker.tickIfDue();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel("interrupted");
        }
        return new PhaseOutcome(
                p.index(),
                p.name(),
                startNs,
                System.nanoTime() - runStart,
                0,
                0,
                0,
                0,
                0,
                isCancelled() ? PhaseOutcome.EndReason.CANCELLED : PhaseOutcome.EndReason.IDLE,
                null);
    }

    /** Run-wide counters read by the progress ticker; LongAdder keeps the I/O threads from contending. */
    static final class RunCounters {
        final LongAdder ios = new LongAdder();
        final LongAdder bytes = new LongAdder();
        final LongAdder errors = new LongAdder();
    }

    private final class ProgressTicker {
        final long runStart;
        final ScheduledPhase phase;
        final RunCounters totals;
        final DeviceRunListener listener;
        long nextTickNanos;
        long lastTickNanos;
        long lastIos;
        long lastBytes;

        ProgressTicker(long runStart, ScheduledPhase phase, RunCounters totals, DeviceRunListener listener) {
            this.runStart = runStart;
            this.phase = phase;
            this.totals = totals;
            this.listener = listener;
            this.lastTickNanos = System.nanoTime();
            this.nextTickNanos = lastTickNanos + options.progressIntervalNs();
            this.lastIos = totals.ios.sum();
            this.lastBytes = totals.bytes.sum();
        }

        void tickIfDue() {
            long now = System.nanoTime();
            if (now - nextTickNanos < 0) {
                return;
            }
            long ios = totals.ios.sum();
            long bytes = totals.bytes.sum();
            double seconds = (now - lastTickNanos) / 1e9;
            listener.onProgress(new DeviceProgress(
                    now - runStart,
                    phase.index(),
                    phase.name(),
                    ios,
                    bytes,
                    totals.errors.sum(),
                    (ios - lastIos) / seconds,
                    (bytes - lastBytes) / seconds / 1e6));
            lastIos = ios;
            lastBytes = bytes;
            lastTickNanos = now;
            nextTickNanos = now + options.progressIntervalNs();
        }
    }

    /** One I/O phase: its worker streams and threads. */
    private final class PhaseExecution {
        final ScheduledPhase scheduled;
        final PhaseSpec phase;
        final long runStart;
        final IoCompletionSink sink;
        final RunCounters totals;
        final WorkerStream[] workers;
        final long endNanos;
        final boolean timed;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        /** The first device error of the phase (ends it), or null. */
        final AtomicReference<String> deviceError = new AtomicReference<>();
        /** Set when the phase must end early (device error, failure); I/Os in flight still complete. */
        volatile boolean ending;
        /** A REPLAY phase's generator (one worker), else null. */
        final ReplayGenerator replay;
        /**
         * Time 0 of a replayed trace's due times: set just before the I/O threads start (Thread.start publishes
         * it to them).
         */
        long originNanos;

        PhaseExecution(ScheduledPhase scheduled, long runStart, IoCompletionSink sink, RunCounters totals) {
            this.scheduled = scheduled;
            this.phase = scheduled.phase();
            this.runStart = runStart;
            this.sink = sink;
            this.totals = totals;
            this.workers = new WorkerStream[phase.workers()];
            this.replay =
                    phase.kind() == PhaseKind.REPLAY ? replays.generator(scheduled, options.targetSizeBytes()) : null;
            for (int w = 0; w < workers.length; w++) {
                workers[w] = new WorkerStream(
                        w,
                        replay != null
                                ? replay
                                : WorkloadGenerators.forPhase(phase, w, scheduled.seed(), options.targetSizeBytes()));
            }
            this.timed = phase.durationNs().isPresent();
            this.endNanos = timed ? System.nanoTime() + phase.durationNs().getAsLong() : 0;
        }

        PhaseOutcome execute(long startNs, DeviceRunListener listener) {
            try {
                return executeThreads(startNs, listener);
            } finally {
                if (replay != null) {
                    replay.close();
                }
            }
        }

        private PhaseOutcome executeThreads(long startNs, DeviceRunListener listener) {
            int maxSize = replay != null
                    ? replays.maxTransferBytes(phase)
                    : phase.accessSpecs().stream()
                            .mapToInt(AccessSpec::transferSizeBytes)
                            .max()
                            .orElse(4096);
            List<Thread> threads = new ArrayList<>(workers.length * phase.queueDepth());
            List<IoEngine> siblings = new ArrayList<>();
            try {
                if (engine.asynchronous()) {
                    for (WorkerStream w : workers) {
                        IoEngine e = w.worker == 0 ? engine : engine.openSibling();
                        if (e != engine) {
                            siblings.add(e);
                        }
                        IoSlot[] slots = new IoSlot[phase.queueDepth()];
                        for (int q = 0; q < slots.length; q++) {
                            slots[q] = e.allocateSlot(maxSize);
                        }
                        WriteFiller filler = filler(w, 0); // one thread fills every slot of the worker
                        Thread t = new Thread(
                                pinned(() -> asyncLoop(w, e, slots, filler)),
                                "ssdpulse-io-p" + scheduled.index() + "-w" + w.worker);
                        t.setDaemon(true);
                        threads.add(t);
                    }
                } else {
                    for (WorkerStream w : workers) {
                        for (int q = 0; q < phase.queueDepth(); q++) {
                            IoSlot slot = engine.allocateSlot(maxSize);
                            WriteFiller filler = filler(w, q);
                            Thread t = new Thread(
                                    pinned(() -> ioLoop(w, slot, filler)),
                                    "ssdpulse-io-p" + scheduled.index() + "-w" + w.worker + "-q" + q);
                            t.setDaemon(true);
                            threads.add(t);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                closeAll(siblings);
                return new PhaseOutcome(
                        scheduled.index(),
                        scheduled.name(),
                        startNs,
                        System.nanoTime() - runStart,
                        0,
                        0,
                        0,
                        0,
                        0,
                        PhaseOutcome.EndReason.FAILED,
                        "cannot open an engine per worker: " + e);
            }
            try {
                return runThreads(threads, startNs, listener);
            } finally {
                noticeRegistrationRefusals(siblings, listener);
                closeAll(siblings);
            }
        }

        private WriteFiller filler(WorkerStream w, int q) {
            if (stampWriter != null) {
                return new StampFiller(stampWriter, writeSequences);
            }
            return new PatternFiller(
                    phase.dataPattern(), scheduled.seed() ^ (0x9E3779B97F4A7C15L * (w.worker * 4099L + q + 1)));
        }

        /** The engines bind (and register) in their phase threads, so a refusal is known once those have run. */
        private void noticeRegistrationRefusals(List<IoEngine> siblings, DeviceRunListener listener) {
            List<IoEngine> used = new ArrayList<>(siblings);
            used.add(0, engine);
            for (IoEngine e : used) {
                String refusal = e.registrationRefusal();
                if (refusal != null && refusalsNoticed.add(refusal)) {
                    listener.onNotice(e.name() + " runs without its registered resources, as fio's defaults do ("
                            + "each request then maps its buffer or file in the kernel): " + refusal);
                }
            }
        }

        private void closeAll(List<IoEngine> engines) {
            for (IoEngine e : engines) {
                try {
                    e.close();
                } catch (Exception ignored) {
                    // a sibling only read/wrote through O_DIRECT and was reaped empty: nothing is lost
                }
            }
        }

        private PhaseOutcome runThreads(List<Thread> threads, long startNs, DeviceRunListener listener) {
            originNanos = System.nanoTime();
            threads.forEach(Thread::start);
            ProgressTicker ticker = new ProgressTicker(runStart, scheduled, totals, listener);
            boolean interrupted = false;
            for (Thread t : threads) {
                while (t.isAlive()) {
                    try {
                        long wait = ticker.nextTickNanos - System.nanoTime();
                        if (wait > 0) {
                            t.join(Math.max(1, wait / 1_000_000));
                        }
                    } catch (InterruptedException e) {
                        interrupted = true;
                        cancel("interrupted");
                    }
                    ticker.tickIfDue();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            long endNs = System.nanoTime() - runStart;
            long ios = 0, errors = 0, read = 0, written = 0, trimmed = 0;
            for (WorkerStream w : workers) {
                w.sinkLock.lock();
                try {
                    ios += w.ios;
                    errors += w.errors;
                    read += w.bytesRead;
                    written += w.bytesWritten;
                    trimmed += w.bytesTrimmed;
                } finally {
                    w.sinkLock.unlock();
                }
            }
            PhaseOutcome.EndReason reason;
            String note = null;
            Throwable f = failure.get();
            String de = deviceError.get();
            if (de != null) {
                reason = PhaseOutcome.EndReason.FAILED;
                note = de + " (" + errors + " of " + ios + " I/Os failed)";
            } else if (f != null) {
                reason = PhaseOutcome.EndReason.FAILED;
                note = f.toString();
            } else if (isCancelled()) {
                reason = PhaseOutcome.EndReason.CANCELLED;
            } else if (timed && System.nanoTime() - endNanos >= 0) {
                reason = PhaseOutcome.EndReason.DURATION;
            } else {
                reason = PhaseOutcome.EndReason.BYTES;
            }
            return new PhaseOutcome(
                    scheduled.index(),
                    scheduled.name(),
                    startNs,
                    endNs,
                    ios,
                    errors,
                    read,
                    written,
                    trimmed,
                    reason,
                    note,
                    replay == null ? null : replay.result());
        }

        private void ioLoop(WorkerStream w, IoSlot slot, WriteFiller filler) {
            try {
                IoRequest r = w.request;
                while (!stop && !ending) {
                    long scheduledNanos;
                    boolean due;
                    w.lock.lock();
                    try {
                        if (w.exhausted || (timed && System.nanoTime() - endNanos >= 0)) {
                            return;
                        }
                        if (!w.generator.next(r)) {
                            w.exhausted = true;
                            return;
                        }
                        slot.op = r.op;
                        slot.offsetBytes = r.offsetBytes;
                        slot.sizeBytes = r.sizeBytes;
                        slot.fua = r.fua;
                        slot.writeSequence = IoFlags.NO_SEQUENCE;
                        due = r.dueNs != IoRequest.UNSCHEDULED;
                        scheduledNanos = due
                                ? originNanos + r.dueNs
                                : SubmitPacing.scheduledNanos(w.lastScheduledSubmitNanos, r.delayNs, System.nanoTime());
                        w.lastScheduledSubmitNanos = scheduledNanos;
                    } finally {
                        w.lock.unlock();
                    }
                    if (!waitUntil(scheduledNanos)) {
                        return; // ended while waiting: the request is not submitted
                    }
                    if (due) {
                        w.generator.issued(System.nanoTime() - scheduledNanos);
                    }
                    if (slot.op == IoOpCode.WRITE) {
                        filler.fill(slot, slot.sizeBytes);
                    }
                    int queueDepth = w.outstanding.incrementAndGet();
                    engine.submit(slot);
                    w.outstanding.decrementAndGet();
                    complete(w, slot, queueDepth);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                stop = true;
            }
        }

        /**
         * One worker on an asynchronous engine: submit into every free slot (each request drawn from the worker's
         * generator and paced as in {@link #ioLoop}), hand the batch to the kernel, record the completions that
         * freed those slots (kept in a {@link CompletionBacklog} meanwhile, so the device is not idle while
         * ssdpulse records), then wait for at least one completion. At the end (duration, budget, cancel, device
         * error) no new request is drawn and the loop reaps until nothing is in flight, so every submitted I/O is
         * recorded.
         *
         * <p>Cost: the clock is read once per batch here (the end of a timed phase is checked per batch, so a phase
         * overshoots its duration by at most one batch, a few I/O latencies) and once per request only when the
         * request is paced; the engine stamps submit and completion times once per batch.
         */
        private void asyncLoop(WorkerStream w, IoEngine e, IoSlot[] slots, WriteFiller filler) {
            int depth = slots.length;
            IoSlot[] free = slots.clone();
            int freeCount = depth;
            IoSlot[] done = new IoSlot[depth];
            CompletionBacklog backlog = new CompletionBacklog(depth);
            CompletionBacklog.Recorder recorder =
                    (op, offset, size, submitNanos, completeNanos, qd, status, sequence, flags) ->
                            complete(w, op, offset, size, submitNanos, completeNanos, qd, status, sequence, flags);
            IoRequest r = w.request;
            int inFlight = 0;
            int unsubmitted = 0; // submitted to the engine, not yet handed to the kernel
            int submitBatch = options.submitBatch();
            // the waiting reap below takes what is still unsubmitted in its own system call (io_uring)
            boolean waitSubmits = e.submitsWhileWaiting();
            IoSlot staged = null; // drawn from the generator, waiting for its paced submit time
            long stagedDueNanos = 0;
            boolean stagedScheduled = false; // the staged request has a recorded time (a replayed trace)
            long now = System.nanoTime();
            long lastCompletionNanos = now;
            long lastProgressNanos = now - PROGRESS_EVERY_NS;
            try {
                e.bindSubmitter();
                while (true) {
                    boolean drawing = !stop && !ending && !w.exhausted && !(timed && now - endNanos >= 0);
                    while (drawing && (staged != null || freeCount > 0)) {
                        if (staged == null) {
                            if (!w.generator.next(r)) {
                                w.exhausted = true;
                                break;
                            }
                            staged = free[--freeCount];
                            staged.op = r.op;
                            staged.offsetBytes = r.offsetBytes;
                            staged.sizeBytes = r.sizeBytes;
                            staged.fua = r.fua;
                            staged.writeSequence = IoFlags.NO_SEQUENCE;
                            stagedScheduled = r.dueNs != IoRequest.UNSCHEDULED;
                            if (stagedScheduled) {
                                stagedDueNanos = originNanos + r.dueNs; // a trace's recorded time: never shifted
                            } else {
                                if (r.delayNs > 0) {
                                    now = System.nanoTime();
                                }
                                stagedDueNanos =
                                        SubmitPacing.scheduledNanos(w.lastScheduledSubmitNanos, r.delayNs, now);
                            }
                            w.lastScheduledSubmitNanos = stagedDueNanos;
                        }
                        if (stagedDueNanos - now > 0 || stagedScheduled) {
                            now = System.nanoTime();
                            if (stagedDueNanos - now > 0) {
                                break;
                            }
                        }
                        if (stagedScheduled) {
                            w.generator.issued(now - stagedDueNanos);
                        }
                        if (staged.op == IoOpCode.WRITE) {
                            filler.fill(staged, staged.sizeBytes);
                        }
                        staged.queueDepthAtSubmit = ++inFlight;
                        if (e.submit(staged)) {
                            inFlight--;
                            if (backlog.isFull()) {
                                // a synchronous completion (TRIM, FLUSH) frees its slot at once: with the slots'
                                // reaped completions still held, one more would not fit until they are recorded
                                backlog.drainTo(recorder);
                            }
                            backlog.add(staged);
                            free[freeCount++] = staged;
                        } else if (++unsubmitted >= submitBatch && !(waitSubmits && freeCount == 0)) {
                            // hands the batch to the kernel (fio's iodepth_batch_submit); with every slot taken the
                            // next step is the waiting reap, which submits it too where waitSubmits
                            e.reap(done, 0, 0, 0);
                            unsubmitted = 0;
                        }
                        staged = null;
                        drawing = !stop && !ending;
                    }
                    if (staged != null && !drawing) {
                        free[freeCount++] = staged; // ended while waiting: the request is not submitted
                        staged = null;
                    }
                    if (!backlog.isEmpty()) {
                        // the new requests go to the kernel first (a reap of at most 0 only submits), then the
                        // completions that freed their slots are recorded while the device works on them; where
                        // the waiting reap submits (waitSubmits) they are recorded first and go with the wait: one
                        // system call instead of two, for the recording's time between a completion and the next
                        // submission (~0.4 us per I/O in a profile of QD1 reads: under 1 % of a read on flash)
                        if (unsubmitted > 0 && !waitSubmits) {
                            e.reap(done, 0, 0, 0);
                            unsubmitted = 0;
                        }
                        backlog.drainTo(recorder);
                        now = System.nanoTime();
                    }
                    if (inFlight == 0 && staged == null) {
                        if (!drawing || w.exhausted) {
                            return;
                        }
                        now = System.nanoTime();
                        continue;
                    }
                    if (now - lastProgressNanos >= PROGRESS_EVERY_NS) {
                        // every completion reaped so far is recorded; those still in flight are stamped at a later
                        // reap, so the worker is complete up to now
                        lastProgressNanos = now;
                        completedThrough(w, now);
                    }
                    long timeoutNs = options.ioTimeoutNs();
                    if (staged != null) {
                        now = System.nanoTime();
                        timeoutNs = Math.max(0, stagedDueNanos - now);
                        if (timed) {
                            timeoutNs = Math.min(timeoutNs, Math.max(0, endNanos - now));
                        }
                    }
                    int n = 0;
                    if (inFlight > 0) {
                        n = e.reap(done, 1, depth, timeoutNs);
                        unsubmitted = 0;
                    } else if (timeoutNs > 0) {
                        LockSupport.parkNanos(timeoutNs); // only a paced request waits: nothing to reap
                    }
                    now = System.nanoTime();
                    if (n > 0) {
                        lastCompletionNanos = now;
                    } else if (inFlight > 0 && now - lastCompletionNanos >= options.ioTimeoutNs()) {
                        throw new DeviceStalledException(inFlight + " I/Os outstanding saw no completion for "
                                + (now - lastCompletionNanos) / 1_000_000 + " ms (--io-timeout "
                                + options.ioTimeoutNs() / 1_000_000 + " ms): the device stopped responding"
                                + lastErrorSuffix());
                    }
                    for (int i = 0; i < n; i++) {
                        IoSlot s = done[i];
                        done[i] = null;
                        inFlight--;
                        backlog.add(s);
                        free[freeCount++] = s;
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                stop = true;
            }
        }

        /**
         * The I/O loop, run after pinning its thread to {@code --cpus-allowed} when given; a refusal fails the phase.
         */
        private Runnable pinned(Runnable ioLoop) {
            CpuList cpus = options.cpusAllowed();
            if (cpus == null) {
                return ioLoop;
            }
            return () -> {
                try {
                    ThreadAffinity.pinCurrentThread(cpus);
                } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                    stop = true;
                    return;
                }
                ioLoop.run();
            };
        }

        private String lastErrorSuffix() {
            String last = engine.lastError();
            return last == null ? "" : "; last error: " + last;
        }

        /** Parks until {@code dueNanos}; false when the phase ended or the run was cancelled meanwhile. */
        private boolean waitUntil(long dueNanos) {
            while (true) {
                if (stop || ending || (timed && System.nanoTime() - endNanos >= 0)) {
                    return false;
                }
                long wait = dueNanos - System.nanoTime();
                if (wait <= 0) {
                    return true;
                }
                LockSupport.parkNanos(timed ? Math.min(wait, Math.max(0, endNanos - System.nanoTime())) : wait);
            }
        }

        /** Tells the sink that the worker's completions before {@code nowNanos} are all recorded. */
        private void completedThrough(WorkerStream w, long nowNanos) {
            w.sinkLock.lock();
            try {
                sink.completedThrough(w.worker, nowNanos - runStart);
            } finally {
                w.sinkLock.unlock();
            }
        }

        private void complete(WorkerStream w, IoSlot slot, int queueDepth) {
            complete(
                    w,
                    slot.op,
                    slot.offsetBytes,
                    slot.sizeBytes,
                    slot.submitNanos,
                    slot.completeNanos,
                    queueDepth,
                    slot.status,
                    slot.writeSequence,
                    slot.fua ? IoFlags.FUA : IoFlags.NONE);
        }

        private void complete(
                WorkerStream w,
                byte op,
                long offsetBytes,
                int size,
                long submitNanos,
                long completeNanos,
                int queueDepth,
                int status,
                long writeSequence,
                int ioFlags) {
            boolean ok = status == IoStatus.OK;
            w.sinkLock.lock();
            try {
                w.ios++;
                if (!ok) {
                    w.errors++;
                } else if (op == IoOpCode.READ) {
                    w.bytesRead += size;
                } else if (op == IoOpCode.WRITE) {
                    w.bytesWritten += size;
                } else if (op == IoOpCode.TRIM) {
                    w.bytesTrimmed += size;
                }
                sink.onIoCompleted(
                        w.worker,
                        scheduled.index(),
                        op,
                        offsetBytes,
                        size,
                        submitNanos - runStart,
                        completeNanos - submitNanos,
                        queueDepth,
                        status,
                        writeSequence,
                        ioFlags);
            } finally {
                w.sinkLock.unlock();
            }
            totals.ios.increment();
            if (ok) {
                totals.bytes.add(size);
            } else {
                totals.errors.increment();
                if (IoStatus.isDeviceError(status)
                        && deviceError.get() == null
                        && deviceError.compareAndSet(
                                null,
                                "device error on worker " + w.worker + ": "
                                        + IoOpCode.name(op) + " of " + size + " bytes at offset " + offsetBytes
                                        + " completed with errno " + status + lastErrorSuffix())) {
                    ending = true;
                }
            }
        }
    }
}
