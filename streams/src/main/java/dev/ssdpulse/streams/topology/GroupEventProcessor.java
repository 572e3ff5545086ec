package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.group.GroupAnalysis;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The Kafka Streams adapter of {@link GroupAnalysis}: the members' events, forwarded by {@link RunEventProcessor} to
 * the group's partition of ssdpulse.group-events.v1 (key {@code group:NAME}), go into the group's analysis; its
 * outputs go where a run's go ({@link ViewStoresOutput}: the same topics and view stores, under the group's key),
 * and the group with its members to {@link Names#RUN_GROUP_STORE}. The group topic is keyed by the group id and
 * co-partitioned with the runs' topics, so a group's views live on the instance that owns the key
 * {@code group:NAME}, and the HTTP API routes a group as it routes a run.
 *
 * <p>State: one encoded {@link GroupAnalysis} per group in {@link Names#GROUP_STATE_STORE}, encoded at commit
 * ({@link EncodeOnCommitStore}), evicted from memory when the group finished.
 */
final class GroupEventProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {
    private final AnalysisSettings settings;
    private final ViewChanges changes;
    private ViewStoresOutput output;
    private EncodeOnCommitStore<GroupAnalysis> stateStore;
    private KeyValueStore<String, RunGroup> groupStore;
    /** Groups whose open windows or members changed since the last {@link RunEventProcessor#OPEN_WINDOW_EVERY}. */
    private final Set<String> changed = new LinkedHashSet<>();

    GroupEventProcessor(AnalysisSettings settings, ViewChanges changes) {
        this.settings = settings;
        this.changes = changes;
    }

    @Override
    public void init(ProcessorContext<String, SpecificRecord> context) {
        output = new ViewStoresOutput(context, changes);
        stateStore = context.getStateStore(Names.GROUP_STATE_STORE);
        groupStore = context.getStateStore(Names.RUN_GROUP_STORE);
        context.schedule(RunEventProcessor.OPEN_WINDOW_EVERY, PunctuationType.WALL_CLOCK_TIME, this::showChanges);
    }

    @Override
    public void process(Record<String, SpecificRecord> record) {
        String groupId = record.key();
        if (!GroupAnalysis.isGroupId(groupId) || !(record.value() instanceof GroupEvent event)) {
            return;
        }
        output.timestamp(record.timestamp());
        boolean created = stateStore.getLive(groupId) == null && stateStore.getEncoded(groupId) == null;
        GroupAnalysis group = load(groupId);
        boolean wasRunning = group.isRunning();
        if (!group.event(
                event.getMemberRunId(), event.getMembership(), event.getEvent().getEvent())) {
            return;
        }
        stateStore.put(groupId, group);
        if (created || wasRunning != group.isRunning()) {
            groupStore.put(groupId, group.describe());
            changes.changed(groupId);
        }
        changed.add(groupId);
        if (!group.isRunning()) {
            output.openWindows(groupId, null);
            stateStore.evict(groupId);
        }
    }

    private GroupAnalysis load(String groupId) {
        GroupAnalysis group = stateStore.getLive(groupId);
        if (group != null) {
            return group;
        }
        byte[] stored = stateStore.getEncoded(groupId);
        if (stored == null) {
            group = new GroupAnalysis(groupId, settings, output);
            output.statusStore().put(groupId, Names.STATUS_RUNNING);
        } else {
            group = GroupAnalysis.decode(groupId, stored, settings, output);
        }
        stateStore.put(groupId, group);
        return group;
    }

    /** The open windows and members' shares of the groups that changed since the last time. */
    private void showChanges(long nowMs) {
        if (changed.isEmpty()) {
            return;
        }
        output.timestamp(nowMs);
        for (String groupId : changed) {
            GroupAnalysis group = stateStore.getLive(groupId);
            if (group != null) {
                groupStore.put(groupId, group.describe());
                if (!group.isRunning()) {
                    output.openWindows(groupId, null);
                } else if (changes.watched(groupId)) {
                    output.openWindows(groupId, group.analysis());
                }
                changes.changed(groupId);
            }
        }
        changed.clear();
    }
}
