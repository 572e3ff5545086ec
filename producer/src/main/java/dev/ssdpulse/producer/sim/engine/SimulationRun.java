package dev.ssdpulse.producer.sim.engine;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.sched.EventQueue;
import java.util.Arrays;
import java.util.List;

/**
 * Discrete-event driver of one run on a {@link SimulatedDrive}: the queue-depth-driven host, phases,
 * SMART sampling and idle GC, in virtual ns. Completions, samples and phase changes are delivered in
 * virtual-time order; times are ns since the run's start.
 *
 * <p>Run it as fast as possible with {@link #runToCompletion()}, or step it with {@link #runUntil(long)}
 * (e.g. sleeping between steps to pace it to real time): after {@code runUntil(t)} every event up to t
 * has been delivered and {@link #nowNs()} is t, unless the run finished earlier.
 *
 * <p>Host model: each worker keeps {@code queueDepth} commands outstanding. After a completion it asks
 * its generator for the next request and submits it after the request's think time, or, for a request with a
 * recorded time ({@link IoRequest#dueNs}, a replayed trace), at that time after the phase start or at once when
 * it is past, telling the generator the lag. Idle GC runs in
 * steps (one victim per plane each, the next step when its erases complete and the preset's
 * {@code idleGcIntervalNs} has passed) once no command has been outstanding for the preset's
 * {@code idleGcAfterNs}, and stops at the next submission.
 */
public final class SimulationRun {
    private static final int EV_COMPLETE = 0;
    private static final int EV_SUBMIT = 1;
    private static final int EV_SMART = 2;
    private static final int EV_IDLE_GC = 3;
    private static final int EV_PHASE_END = 4;

    private final SimulatedDrive drive;
    private final List<SimPhase> phases;
    private final IoCompletionSink sink;
    private final SmartSampleListener smartListener;
    private final long smartIntervalNs;
    private final PhaseListener phaseListener;
    private final EventQueue queue = new EventQueue();
    private final IoRequest request = new IoRequest();
    private final long startNs;
    private long nowNs;
    private boolean started;
    private boolean finished;
    private long idleGeneration;

    // current phase
    private int phasePosition;
    private int phaseIndex;
    private RequestGenerator[] generators;
    private int queueDepth;
    private double compressedFraction = 1.0;
    private long deadlineNs;
    private long byteBudget;
    private long bytesSubmitted;
    private boolean budgetReached;
    private boolean[] exhausted;
    private int[] outstanding;
    /** Per worker: when its latest request was (or will be) submitted; Long.MIN_VALUE before the first. */
    private long[] lastSubmitNs;

    private int totalOutstanding;
    private int pendingSubmits;
    private boolean awaitingPhaseEnd;
    private byte[] slotOp;
    private long[] slotOffset;
    private int[] slotSize;
    private long[] slotSubmitNs;
    /** Per slot: the drive time a replayed request was due, or Long.MIN_VALUE for a request without one. */
    private long[] slotDueNs;

    private long phaseStartNs;
    private int[] slotQueueDepth;
    private int[][] freeSlots;
    private int[] freeTop;

    SimulationRun(
            SimulatedDrive drive,
            List<SimPhase> phases,
            IoCompletionSink sink,
            SmartSampleListener smartListener,
            long smartIntervalNs,
            PhaseListener phaseListener) {
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one phase");
        }
        if (smartIntervalNs <= 0) {
            throw new IllegalArgumentException("smartIntervalNs must be > 0, got " + smartIntervalNs);
        }
        this.drive = drive;
        this.phases = List.copyOf(phases);
        this.sink = sink;
        this.smartListener = smartListener;
        this.smartIntervalNs = smartIntervalNs;
        this.phaseListener = phaseListener == null ? PhaseListener.NONE : phaseListener;
        this.startNs = drive.clockNs();
        this.nowNs = startNs;
    }

    /** Virtual time, ns since the run's start. */
    public long nowNs() {
        return nowNs - startNs;
    }

    public boolean isFinished() {
        return finished;
    }

    /** Processes every event at or before {@code timeNs} (ns since run start). */
    public void runUntil(long timeNs) {
        start();
        long limit = startNs + timeNs;
        while (!finished && queue.peekTimeNs() <= limit) {
            step();
        }
        if (!finished && limit > nowNs) {
            nowNs = limit;
            drive.advanceClockTo(limit);
        }
    }

    /** Runs every phase to its end, as fast as possible. */
    public void runToCompletion() {
        start();
        while (!finished) {
            step();
        }
    }

    private void start() {
        if (started) {
            return;
        }
        started = true;
        smartListener.onSample(drive.smart(0));
        queue.push(startNs + smartIntervalNs, EV_SMART, 0, 0);
        beginPhase(0, startNs);
    }

    private void step() {
        queue.pop();
        long t = queue.headTime();
        nowNs = t;
        switch (queue.headType()) {
            case EV_COMPLETE:
                onComplete(queue.headArg(), t);
                break;
            case EV_SUBMIT:
                pendingSubmits--;
                issue(queue.headArg(), t);
                checkPhaseDone(t);
                break;
            case EV_SMART:
                smartListener.onSample(drive.smart(t - startNs));
                queue.push(t + smartIntervalNs, EV_SMART, 0, 0);
                break;
            case EV_IDLE_GC:
                onIdleGc(queue.headArg2(), t);
                break;
            case EV_PHASE_END:
                finishPhase(t);
                break;
            default:
                throw new IllegalStateException("unknown event type " + queue.headType());
        }
        drive.advanceClockTo(t);
    }

    private void beginPhase(int position, long t) {
        SimPhase phase = phases.get(position);
        phasePosition = position;
        phaseIndex = phase.phaseIndex();
        phaseListener.onPhaseStarted(phaseIndex, t - startNs);
        if (phase.idle()) {
            queue.push(t + phase.durationNs(), EV_PHASE_END, 0, 0);
            scheduleIdleGc(t);
            return;
        }
        int workers = phase.workers().size();
        queueDepth = phase.queueDepth();
        compressedFraction = phase.compressedFraction();
        generators = phase.workers().toArray(new RequestGenerator[0]);
        deadlineNs = phase.durationNs() > 0 ? t + phase.durationNs() : Long.MAX_VALUE;
        byteBudget = phase.byteBudget();
        bytesSubmitted = 0;
        budgetReached = false;
        exhausted = new boolean[workers];
        outstanding = new int[workers];
        lastSubmitNs = new long[workers];
        Arrays.fill(lastSubmitNs, Long.MIN_VALUE);
        totalOutstanding = 0;
        pendingSubmits = 0;
        awaitingPhaseEnd = false;
        int slots = workers * queueDepth;
        slotOp = new byte[slots];
        slotOffset = new long[slots];
        slotSize = new int[slots];
        slotSubmitNs = new long[slots];
        slotDueNs = new long[slots];
        phaseStartNs = t;
        slotQueueDepth = new int[slots];
        freeSlots = new int[workers][queueDepth];
        freeTop = new int[workers];
        for (int w = 0; w < workers; w++) {
            for (int k = 0; k < queueDepth; k++) {
                freeSlots[w][k] = w * queueDepth + (queueDepth - 1 - k);
            }
            freeTop[w] = queueDepth;
        }
        for (int w = 0; w < workers; w++) {
            for (int k = 0; k < queueDepth; k++) {
                submitNext(w, t);
            }
        }
        checkPhaseDone(t);
    }

    /**
     * Draws the worker's next request and submits it now, or when its delay after the worker's previous submit
     * has passed (the generator contract, as the device engine does): with a queue depth above 1 every slot
     * paces against the worker's last submit, so a rate limit caps the worker's submits, not each slot's.
     */
    private void submitNext(int worker, long t) {
        if (budgetReached || t >= deadlineNs || exhausted[worker]) {
            return;
        }
        if (!generators[worker].next(request)) {
            exhausted[worker] = true;
            return;
        }
        long submitNs = t;
        long dueNs = Long.MIN_VALUE;
        if (request.dueNs != IoRequest.UNSCHEDULED) {
            dueNs = phaseStartNs + request.dueNs;
            submitNs = Math.max(t, dueNs);
        } else if (request.delayNs > 0 && lastSubmitNs[worker] != Long.MIN_VALUE) {
            submitNs = Math.max(t, lastSubmitNs[worker] + request.delayNs);
        }
        lastSubmitNs[worker] = submitNs;
        if (submitNs >= deadlineNs) {
            return;
        }
        int slot = freeSlots[worker][--freeTop[worker]];
        slotOp[slot] = request.op;
        slotOffset[slot] = request.offsetBytes;
        slotSize[slot] = request.sizeBytes;
        slotDueNs[slot] = dueNs;
        bytesSubmitted += request.sizeBytes;
        if (byteBudget > 0 && bytesSubmitted >= byteBudget) {
            budgetReached = true;
        }
        if (submitNs > t) {
            pendingSubmits++;
            queue.push(submitNs, EV_SUBMIT, slot, 0);
        } else {
            issue(slot, t);
        }
    }

    private void issue(int slot, long t) {
        int worker = slot / queueDepth;
        int depth = ++outstanding[worker];
        totalOutstanding++;
        idleGeneration++;
        slotQueueDepth[slot] = depth;
        slotSubmitNs[slot] = t;
        if (slotDueNs[slot] != Long.MIN_VALUE) {
            generators[worker].issued(t - slotDueNs[slot]);
        }
        long doneNs = drive.execute(slotOp[slot], slotOffset[slot], slotSize[slot], compressedFraction, t);
        queue.push(doneNs, EV_COMPLETE, slot, 0);
    }

    private void onComplete(int slot, long t) {
        int worker = slot / queueDepth;
        long submitNs = slotSubmitNs[slot];
        sink.onIoCompleted(
                worker,
                phaseIndex,
                slotOp[slot],
                slotOffset[slot],
                slotSize[slot],
                submitNs - startNs,
                t - submitNs,
                slotQueueDepth[slot],
                0);
        outstanding[worker]--;
        totalOutstanding--;
        freeSlots[worker][freeTop[worker]++] = slot;
        submitNext(worker, t);
        if (totalOutstanding == 0) {
            scheduleIdleGc(t);
        }
        checkPhaseDone(t);
    }

    private void checkPhaseDone(long t) {
        if (awaitingPhaseEnd || totalOutstanding > 0 || pendingSubmits > 0) {
            return;
        }
        boolean stoppedByTime = !budgetReached && !allExhausted() && deadlineNs != Long.MAX_VALUE && t < deadlineNs;
        if (stoppedByTime) {
            // think time reaches past the deadline: the phase still lasts its full duration
            queue.push(deadlineNs, EV_PHASE_END, 0, 0);
            awaitingPhaseEnd = true;
            return;
        }
        finishPhase(t);
    }

    private boolean allExhausted() {
        for (boolean e : exhausted) {
            if (!e) {
                return false;
            }
        }
        return true;
    }

    private void finishPhase(long t) {
        phaseListener.onPhaseEnded(phaseIndex, t - startNs);
        if (phasePosition + 1 < phases.size()) {
            beginPhase(phasePosition + 1, t);
        } else {
            finished = true;
            nowNs = t;
            drive.advanceClockTo(t);
            smartListener.onSample(drive.smart(t - startNs));
        }
    }

    private void scheduleIdleGc(long t) {
        queue.push(t + drive.idleGcAfterNs(), EV_IDLE_GC, 0, idleGeneration);
    }

    private void onIdleGc(long generation, long t) {
        if (generation != idleGeneration || totalOutstanding > 0) {
            return; // the host submitted something since it went idle
        }
        long doneNs = drive.idleGcStep(t);
        if (doneNs >= 0) {
            // firmware paces idle GC: the next round after the interval, or when this one's erases are done
            queue.push(Math.max(doneNs, t + Math.max(1, drive.idleGcIntervalNs())), EV_IDLE_GC, 0, generation);
        }
    }
}
