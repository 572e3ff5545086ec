package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.group.GroupAnalysis;
import java.time.Duration;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.Topology;

/**
 * The analytics topology, built in one place (Processor API throughout; see {@link RunEventProcessor} for why).
 *
 * <pre>
 * io.v1 (bytes) -> io-decode ----\
 *                      \-> io dead letters   run-aggregate -> metrics-1s, latency, latency-scatter, steady-state,
 *                                                            waf, run-summary
 * smart.v1 (bytes) -> smart-decode -/
 *                      \-> smart dead letters
 * runs.v1 (bytes) -> runs-decode -> runs-materialize (runs store)
 * write-verification.v1 (bytes) -> write-verification-decode -> write-verification-materialize (live only)
 * </pre>
 * The io and smart branches feed one processor, and the runs branch shares its status and activity stores, so
 * they form one sub-topology: the three topics must be co-partitioned (same key, same partition count), which
 * the topic catalogue guarantees. Every node and store has a name
 * from {@link Names}; changelog topics are named after their stores.
 */
public final class AnalyticsTopology {
    private AnalyticsTopology() {}

    /** The live topology: catalogue topics, every run. */
    public static Topology build(
            String applicationId, AnalysisSettings analysis, Duration heartbeatTimeout, AnalyticsSerdes serdes) {
        return build(applicationId, analysis, heartbeatTimeout, serdes, TopologyMode.live());
    }

    /** As {@link #build(String, AnalysisSettings, Duration, AnalyticsSerdes, TopologyMode, ViewChanges)}, unwatched. */
    public static Topology build(
            String applicationId,
            AnalysisSettings analysis,
            Duration heartbeatTimeout,
            AnalyticsSerdes serdes,
            TopologyMode mode) {
        return build(applicationId, analysis, heartbeatTimeout, serdes, mode, ViewChanges.none());
    }

    /**
     * @param applicationId    names this application in the dead letters it writes (their rejected-by header)
     * @param analysis         what the run analysis computes
     * @param heartbeatTimeout a run with no event for this long (wall clock) is marked INCOMPLETE
     * @param changes          told of every change of a run's (or group's) views, for live clients
     */
    public static Topology build(
            String applicationId,
            AnalysisSettings analysis,
            Duration heartbeatTimeout,
            AnalyticsSerdes serdes,
            TopologyMode mode,
            ViewChanges changes) {
        OutputTopics outputs = mode.outputs();
        Predicate<String> runFilter = mode.runFilter();
        StoreFactory stores = new StoreFactory(mode);
        Topology topology = new Topology();

        topology.addSource(Names.IO_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), Topics.IO.name());
        topology.addSource(
                Names.SMART_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), Topics.SMART.name());
        topology.addSource(
                Names.RUNS_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), Topics.RUNS.name());

        String rejectedBy = applicationId;
        topology.addProcessor(
                Names.IO_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(IoStreamRecord.class).deserializer(),
                        Names.RUN_PROCESSOR,
                        Names.IO_DEAD_LETTER_SINK,
                        Names.IO_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        runFilter),
                Names.IO_SOURCE);
        topology.addProcessor(
                Names.SMART_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(SmartSample.class).deserializer(),
                        Names.RUN_PROCESSOR,
                        Names.SMART_DEAD_LETTER_SINK,
                        Names.SMART_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        runFilter),
                Names.SMART_SOURCE);
        topology.addProcessor(
                Names.RUNS_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(RunStarted.class).deserializer(),
                        Names.RUNS_PROCESSOR,
                        Names.RUNS_DEAD_LETTER_SINK,
                        Names.RUNS_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        runFilter),
                Names.RUNS_SOURCE);

        boolean groups = mode.isLive();
        topology.addProcessor(
                Names.RUN_PROCESSOR,
                () -> new RunEventProcessor(analysis, heartbeatTimeout, changes, groups),
                Names.IO_DECODE,
                Names.SMART_DECODE);
        topology.addProcessor(Names.RUNS_PROCESSOR, RunsProcessor::new, Names.RUNS_DECODE);
        // the processors whose analyses write the output topics and view stores: the runs', and the groups' live
        String[] analyses =
                groups ? new String[] {Names.RUN_PROCESSOR, Names.GROUP_PROCESSOR} : new String[] {Names.RUN_PROCESSOR};
        if (groups) {
            addGroups(topology, analysis, serdes, outputs.deadLetter(), rejectedBy, stores, changes);
        }

        topology.addStateStore(stores.keyValue(Names.IO_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.IO_DECODE);
        topology.addStateStore(stores.keyValue(Names.SMART_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.SMART_DECODE);
        topology.addStateStore(stores.keyValue(Names.RUNS_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.RUNS_DECODE);
        topology.addStateStore(stores.runState(Names.RUN_STATE_STORE, RunAnalysis::encode), Names.RUN_PROCESSOR);
        topology.addStateStore(
                stores.keyValue(Names.RUN_ACTIVITY_STORE, Serdes.Long()), Names.RUN_PROCESSOR, Names.RUNS_PROCESSOR);
        topology.addStateStore(
                stores.keyValue(Names.RUN_STATUS_STORE, Serdes.String()), Names.RUN_PROCESSOR, Names.RUNS_PROCESSOR);
        topology.addStateStore(stores.keyValue(Names.WINDOW_SERIES_STORE, serdes.value(WindowMetrics.class)), analyses);
        topology.addStateStore(
                stores.transientKeyValue(Names.OPEN_WINDOW_STORE, serdes.value(WindowMetrics.class)), analyses);
        topology.addStateStore(
                stores.keyValue(Names.LATENCY_SCATTER_STORE, serdes.value(LatencyScatter.class)), analyses);
        topology.addStateStore(
                stores.keyValue(Names.STEADY_STATE_STORE, serdes.value(SteadyStateVerdict.class)), analyses);
        topology.addStateStore(stores.keyValue(Names.RUN_SUMMARY_STORE, serdes.value(RunSummary.class)), analyses);
        topology.addStateStore(
                stores.keyValue(Names.WAF_SERIES_STORE, serdes.value(WriteAmplification.class)), analyses);
        if (groups) {
            topology.connectProcessorAndStateStores(Names.GROUP_PROCESSOR, Names.RUN_STATUS_STORE);
            topology.addStateStore(
                    stores.keyValue(Names.RUN_MEMBERSHIP_STORE, serdes.value(GroupMembership.class)),
                    Names.RUN_PROCESSOR);
            topology.addSink(
                    Names.GROUP_EVENTS_SINK,
                    Topics.GROUP_EVENTS.name(),
                    keySer(),
                    anyRecord(serdes.value(GroupEvent.class).serializer()),
                    Names.RUN_PROCESSOR);
        }
        topology.addStateStore(stores.keyValue(Names.RUNS_STORE, serdes.value(RunStarted.class)), Names.RUNS_PROCESSOR);

        StringSerializer keySer = new StringSerializer();
        topology.addSink(
                Names.METRICS_SINK,
                outputs.metrics(),
                keySer,
                anyRecord(serdes.value(WindowMetrics.class).serializer()),
                analyses);
        topology.addSink(
                Names.LATENCY_SINK,
                outputs.latency(),
                keySer,
                anyRecord(serdes.value(RunLatency.class).serializer()),
                analyses);
        topology.addSink(
                Names.LATENCY_SCATTER_SINK,
                outputs.latencyScatter(),
                keySer,
                anyRecord(serdes.value(LatencyScatter.class).serializer()),
                analyses);
        topology.addSink(
                Names.STEADY_STATE_SINK,
                outputs.steadyState(),
                keySer,
                anyRecord(serdes.value(SteadyStateVerdict.class).serializer()),
                analyses);
        topology.addSink(
                Names.SUMMARY_SINK,
                outputs.runSummary(),
                keySer,
                anyRecord(serdes.value(RunSummary.class).serializer()),
                analyses);
        topology.addSink(
                Names.WAF_SINK,
                outputs.waf(),
                keySer,
                anyRecord(serdes.value(WriteAmplification.class).serializer()),
                analyses);
        ByteArraySerializer raw = new ByteArraySerializer();
        topology.addSink(Names.IO_DEAD_LETTER_SINK, outputs.deadLetter(), keySer, anyRecord(raw), Names.IO_DECODE);
        topology.addSink(
                Names.SMART_DEAD_LETTER_SINK, outputs.deadLetter(), keySer, anyRecord(raw), Names.SMART_DECODE);
        topology.addSink(Names.RUNS_DEAD_LETTER_SINK, outputs.deadLetter(), keySer, anyRecord(raw), Names.RUNS_DECODE);
        if (mode.isLive()) {
            // the live application also serves result sets and applies deletions; a run-once mode does neither
            ResultSetTopology.addTo(topology, serdes, outputs.deadLetter(), rejectedBy, stores);
            VerificationsProcessor.addTo(topology, serdes, outputs.deadLetter(), rejectedBy, stores);
        }
        return topology;
    }

    /**
     * The live application's run groups: the members' events, forwarded by the run processor, merged per group.
     * <pre>
     * group-events.v1 (bytes, key group:NAME) -> group-events-decode -> group-aggregate (GroupAnalysis)
     *                      \-> group-events dead letters              -> the run outputs' topics and view stores
     * </pre>
     */
    private static void addGroups(
            Topology topology,
            AnalysisSettings analysis,
            AnalyticsSerdes serdes,
            String deadLetterTopic,
            String rejectedBy,
            StoreFactory stores,
            ViewChanges changes) {
        topology.addSource(
                Names.GROUP_SOURCE, new StringDeserializer(), new ByteArrayDeserializer(), Topics.GROUP_EVENTS.name());
        topology.addProcessor(
                Names.GROUP_DECODE,
                () -> new DecodeOrDeadLetterProcessor<>(
                        serdes.value(GroupEvent.class).deserializer(),
                        Names.GROUP_PROCESSOR,
                        Names.GROUP_DEAD_LETTER_SINK,
                        Names.GROUP_DEAD_LETTER_COUNT_STORE,
                        rejectedBy,
                        k -> true),
                Names.GROUP_SOURCE);
        topology.addProcessor(
                Names.GROUP_PROCESSOR, () -> new GroupEventProcessor(analysis, changes), Names.GROUP_DECODE);
        topology.addStateStore(stores.keyValue(Names.GROUP_DEAD_LETTER_COUNT_STORE, Serdes.Long()), Names.GROUP_DECODE);
        topology.addStateStore(stores.runState(Names.GROUP_STATE_STORE, GroupAnalysis::encode), Names.GROUP_PROCESSOR);
        topology.addStateStore(
                stores.keyValue(Names.RUN_GROUP_STORE, serdes.value(RunGroup.class)), Names.GROUP_PROCESSOR);
        topology.addSink(
                Names.GROUP_DEAD_LETTER_SINK,
                deadLetterTopic,
                keySer(),
                anyRecord(new ByteArraySerializer()),
                Names.GROUP_DECODE);
    }

    private static StringSerializer keySer() {
        return new StringSerializer();
    }

    /** Processors forward a common supertype to several typed sinks; each sink only ever gets its own type. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Serializer<Object> anyRecord(Serializer<?> serializer) {
        return (Serializer) serializer;
    }
}
