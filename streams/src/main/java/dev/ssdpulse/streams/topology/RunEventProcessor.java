package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.group.GroupAnalysis;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Kafka Streams adapter of {@link RunAnalysis}: feeds it the decoded records of ssdpulse.io.v1 (I/O batches,
 * phase changes, run ends) and ssdpulse.smart.v1 (SMART samples; the topics are co-partitioned, so one task sees
 * both of a run), routes its outputs to the sinks and the queryable stores, and ends runs that fell silent.
 *
 * <p><b>Why the Processor API and not DSL windowedBy.</b> DSL windows close on the partition's stream time
 * (the max record timestamp seen by the task). Many runs share a partition and are at unrelated run times (a
 * simulated run at 100x next to a live one, a replay next to both), so one run's windows would close because
 * of another run's progress, or never. The analysis closes each run's windows on its own watermark. Record
 * timestamps play no part in any result.
 *
 * <p><b>State.</b> One value per run in {@link Names#RUN_STATE_STORE}, an {@link EncodeOnCommitStore}: the live
 * {@link RunAnalysis} is updated by every event and encoded into the changelogged store at every commit (so a
 * crash + restart under exactly_once_v2 resumes from exactly the committed state); it is decoded only on a miss
 * (a new task, a restart). The other stores are views of the outputs, for the HTTP API.
 *
 * <p><b>Live.</b> A heartbeat's {@code completeUpToNs} closes the windows the producer says are complete; every
 * {@link #OPEN_WINDOW_EVERY} the newest open window of each direction of the runs that received I/Os and that a live
 * client watches goes to the open-window store (provisional), and every view change is announced to
 * {@link ViewChanges}.
 *
 * <p><b>Run groups.</b> A run whose heartbeats name a group ({@code membership}) is a member: its events (and its
 * end by heartbeat timeout) are also forwarded, with its membership, to the group's partition of
 * ssdpulse.group-events.v1, where {@link GroupEventProcessor} merges the members.
 */
public final class RunEventProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {
    /** How often the views' open windows are brought up to date (wall clock). */
    static final Duration OPEN_WINDOW_EVERY = Duration.ofMillis(250);

    private final AnalysisSettings settings;
    private final Duration heartbeatTimeout;
    private final ViewChanges changes;
    private final boolean forwardsGroups;
    private ProcessorContext<String, SpecificRecord> context;
    private ViewStoresOutput output;
    private EncodeOnCommitStore<RunAnalysis> stateStore;
    private KeyValueStore<String, Long> activityStore;
    private KeyValueStore<String, String> statusStore;
    private KeyValueStore<String, GroupMembership> membershipStore;
    /** Memberships of the runs seen since this task started (null value: no group); the store is the authority. */
    private final Map<String, GroupMembership> memberships = new HashMap<>();
    /** Runs whose open windows changed since the last {@link #OPEN_WINDOW_EVERY}. */
    private final Set<String> openWindowsChanged = new LinkedHashSet<>();
    /**
     * Wall clock when this task started: a run's silence is measured from no earlier than this, so an analytics
     * outage longer than the heartbeat timeout does not expire live runs whose newer events still wait in the
     * backlog.
     */
    private long initWallMs;

    /** @param heartbeatTimeout a run with no event for this long (wall clock) is marked INCOMPLETE */
    public RunEventProcessor(AnalysisSettings settings, Duration heartbeatTimeout) {
        this(settings, heartbeatTimeout, ViewChanges.none(), false);
    }

    /**
     * @param changes        told of every change of a run's views
     * @param forwardsGroups forward the events of group members to ssdpulse.group-events.v1 (the live application)
     */
    public RunEventProcessor(
            AnalysisSettings settings, Duration heartbeatTimeout, ViewChanges changes, boolean forwardsGroups) {
        this.settings = settings;
        this.heartbeatTimeout = heartbeatTimeout;
        this.changes = changes;
        this.forwardsGroups = forwardsGroups;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        this.context = context;
        initWallMs = context.currentSystemTimeMs();
        output = new ViewStoresOutput(context, changes);
        stateStore = context.getStateStore(Names.RUN_STATE_STORE);
        activityStore = context.getStateStore(Names.RUN_ACTIVITY_STORE);
        statusStore = output.statusStore();
        membershipStore = forwardsGroups ? context.getStateStore(Names.RUN_MEMBERSHIP_STORE) : null;
        Duration timeout = heartbeatTimeout;
        Duration every = timeout.dividedBy(4).compareTo(Duration.ofSeconds(5)) < 0
                ? timeout.dividedBy(4)
                : Duration.ofSeconds(5);
        if (every.isZero()) {
            every = Duration.ofMillis(1);
        }
        context.schedule(every, PunctuationType.WALL_CLOCK_TIME, this::checkHeartbeats);
        context.schedule(OPEN_WINDOW_EVERY, PunctuationType.WALL_CLOCK_TIME, this::showOpenWindows);
    }

    @Override
    public void process(Record<String, SpecificRecord> record) {
        String runId = record.key();
        if (runId == null || record.value() == null) {
            return;
        }
        output.timestamp(record.timestamp());
        RunAnalysis run = load(runId);
        if (record.value() instanceof SmartSample sample) {
            run.smart(sample);
        } else if (record.value() instanceof IoStreamRecord io) {
            Object event = io.getEvent();
            if (event instanceof IoBatch batch) {
                forwardToGroup(runId, event, record.timestamp());
                run.ioBatch(batch);
                openWindowsChanged.add(runId);
            } else if (event instanceof RunHeartbeat heartbeat) {
                if (heartbeat.getMembership() != null) {
                    joined(runId, heartbeat.getMembership());
                }
                forwardToGroup(runId, event, record.timestamp());
                if (heartbeat.getCompleteUpToNs() != null && run.isRunning()) {
                    run.completedThrough(heartbeat.getCompleteUpToNs());
                    openWindowsChanged.add(runId);
                }
            } else if (event instanceof PhaseChanged change) {
                forwardToGroup(runId, event, record.timestamp());
                run.phaseChanged(
                        change.getPhaseIndex(),
                        change.getPhaseName().toString(),
                        change.getPhaseKind(),
                        change.getTimeNs());
            } else if (event instanceof RunFinished finished) {
                forwardToGroup(runId, event, record.timestamp());
                finished.getReplayPhases().forEach(run::replayFinished);
                run.finish(
                        finished.getStatus(),
                        finished.getReason() == null
                                ? null
                                : finished.getReason().toString(),
                        finished.getTimeNs(),
                        finished.getIoCount(),
                        finished.getIoNotPublished());
                openWindowsChanged.add(runId);
            }
        }
        if (run.isRunning()) {
            activityStore.put(runId, context.currentSystemTimeMs());
        } else {
            activityStore.delete(runId);
        }
        stateStore.put(runId, run);
        if (!run.isRunning()) {
            // a finished run rarely gets more events (late samples, duplicates): encoded now and kept in the
            // store only, so memory holds live runs and does not grow with the number of runs ever seen
            stateStore.evict(runId);
        }
    }

    private RunAnalysis load(String runId) {
        RunAnalysis run = stateStore.getLive(runId);
        if (run != null) {
            return run;
        }
        byte[] stored = stateStore.getEncoded(runId);
        if (stored == null) {
            run = new RunAnalysis(runId, settings, output);
            statusStore.put(runId, Names.STATUS_RUNNING);
            changes.changed(runId);
        } else {
            run = RunAnalysis.decode(runId, stored, settings, output);
        }
        stateStore.put(runId, run);
        return run;
    }

    /** The run is a member of a group (its heartbeats say so, the first before any other event of the run). */
    private void joined(String runId, GroupMembership membership) {
        if (membershipStore == null || membership.equals(memberships.get(runId))) {
            return;
        }
        memberships.put(runId, membership);
        membershipStore.put(runId, membership);
    }

    private GroupMembership membershipOf(String runId) {
        if (membershipStore == null) {
            return null;
        }
        if (memberships.containsKey(runId)) {
            return memberships.get(runId);
        }
        GroupMembership stored = membershipStore.get(runId);
        memberships.put(runId, stored);
        return stored;
    }

    /** A member's event goes to its group's partition as well. */
    private void forwardToGroup(String runId, Object event, long timestampMs) {
        GroupMembership membership = membershipOf(runId);
        if (membership == null) {
            return;
        }
        GroupEvent forwarded = new GroupEvent(runId, membership, new IoStreamRecord(event));
        context.forward(
                new Record<String, SpecificRecord>(GroupAnalysis.idOf(membership.getGroup()), forwarded, timestampMs),
                Names.GROUP_EVENTS_SINK);
    }

    /**
     * The views' open windows of the runs that received I/Os since the last time and that a live client watches (the
     * percentiles of an open window are not free: a run nobody watches gets none).
     */
    private void showOpenWindows(long nowMs) {
        if (openWindowsChanged.isEmpty()) {
            return;
        }
        output.timestamp(nowMs);
        for (String runId : openWindowsChanged) {
            RunAnalysis run = stateStore.getLive(runId);
            if (run == null || !run.isRunning()) {
                output.openWindows(runId, null);
            } else if (changes.watched(runId)) {
                output.openWindows(runId, run);
            }
        }
        openWindowsChanged.clear();
    }

    /** Marks runs silent for longer than the heartbeat timeout INCOMPLETE and emits their summary. */
    private void checkHeartbeats(long nowMs) {
        long limitMs = nowMs - heartbeatTimeout.toMillis();
        if (initWallMs >= limitMs) {
            return; // not one timeout since this task started: every stored activity counts as "now"
        }
        List<String> expired = new ArrayList<>();
        try (KeyValueIterator<String, Long> it = activityStore.all()) {
            while (it.hasNext()) {
                KeyValue<String, Long> kv = it.next();
                if (kv.value != null && kv.value < limitMs) {
                    expired.add(kv.key);
                }
            }
        }
        for (String runId : expired) {
            output.timestamp(nowMs);
            RunAnalysis run = load(runId);
            activityStore.delete(runId);
            if (run.isRunning()) {
                long endNs = run.maxCompletionTimeNs() == Long.MIN_VALUE ? 0 : run.maxCompletionTimeNs();
                String reason = "no event for more than " + heartbeatTimeout.toSeconds() + " s (heartbeat timeout)";
                run.finish(RunStatus.INCOMPLETE, reason, endNs, -1, 0);
                stateStore.put(runId, run);
                forwardToGroup(runId, timedOut(runId, reason, endNs), nowMs);
                output.openWindows(runId, null);
            }
            stateStore.evict(runId);
        }
    }

    /** The end the analytics give a member that fell silent, for its group. */
    private static RunFinished timedOut(String runId, String reason, long endNs) {
        return RunFinished.newBuilder()
                .setRunId(runId)
                .setStatus(RunStatus.INCOMPLETE)
                .setReason(reason)
                .setTimeNs(endNs)
                .setWallClockEpochMs(Instant.now())
                .setIoCount(-1)
                .setIoCountPerWorker(List.of())
                .setBatchCountPerWorker(List.of())
                .setBytesRead(0)
                .setBytesWritten(0)
                .build();
    }
}
