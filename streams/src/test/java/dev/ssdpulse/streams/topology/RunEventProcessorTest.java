package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run processor alone, on MockProcessorContext: outputs, and a task re-init (mirror lost) mid-run. */
class RunEventProcessorTest {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path stateDir;

    /** MockProcessorContext gives every store the topic "changelog": one registry per store avoids a subject clash. */
    private static <T extends SpecificRecord> Serde<T> fresh(Class<T> type) {
        return new AnalyticsSerdes(new InMemorySchemaRegistryClient()).value(type);
    }

    private MockProcessorContext<String, SpecificRecord> context() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "unit");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>(props);
        context.setCurrentSystemTimeMs(1_000L);
        EncodeOnCommitStore<?> runState = TopologyHarness.inMemoryRunStateStore();
        runState.init(context.getStateStoreContext(), runState);
        context.addStateStore(runState);
        add(context, Names.RUN_ACTIVITY_STORE, Serdes.Long());
        add(context, Names.RUN_STATUS_STORE, Serdes.String());
        add(context, Names.RUN_SUMMARY_STORE, fresh(RunSummary.class));
        add(context, Names.WINDOW_SERIES_STORE, fresh(WindowMetrics.class));
        add(context, Names.OPEN_WINDOW_STORE, fresh(WindowMetrics.class));
        add(context, Names.LATENCY_SCATTER_STORE, fresh(LatencyScatter.class));
        add(context, Names.STEADY_STATE_STORE, fresh(SteadyStateVerdict.class));
        add(context, Names.WAF_SERIES_STORE, fresh(WriteAmplification.class));
        return context;
    }

    private static <V> void add(MockProcessorContext<String, SpecificRecord> context, String name, Serde<V> values) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(name), Serdes.String(), values)
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
    }

    private AnalyticsConfig config() {
        return TopologyHarness.testConfig(stateDir).withSteadyState(5 * S, List.of(FioCriterion.parse("iops:20%:10")));
    }

    private SyntheticRun run() {
        SyntheticRun run = new SyntheticRun("run-mock");
        run.phase(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0);
        run.add(21, 0, 5, 200, 0);
        run.phase(1, "test", PhaseKind.TEST, 5 * S);
        run.add(22, 5 * S, 40, 200, 1);
        run.endNs = 46 * S;
        return run;
    }

    private List<Object> process(List<IoStreamRecord> records, int restartAt) {
        MockProcessorContext<String, SpecificRecord> context = context();
        RunEventProcessor processor = new RunEventProcessor(config().analysisSettings(), config().heartbeatTimeout());
        processor.init(context);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (i == restartAt) {
                // a commit, then a new task instance on the committed stores: live objects and detectors are gone
                EncodeOnCommitStore<?> runState = context.getStateStore(Names.RUN_STATE_STORE);
                runState.flushCache();
                runState.clearCache();
                processor.close();
                processor = new RunEventProcessor(config().analysisSettings(), config().heartbeatTimeout());
                processor.init(context);
            }
            processor.process(new Record<>("run-mock", records.get(i), i));
        }
        context.forwarded()
                .forEach(f ->
                        out.add(f.childName().orElseThrow() + " " + f.record().value()));
        return out;
    }

    @Test
    void aReplayPhaseResultInRunFinishedReachesItsPhaseSummaryBesideItsLoadTime() {
        SyntheticRun run = new SyntheticRun("run-mock");
        run.phase(0, "boot", PhaseKind.REPLAY, 0);
        run.add(21, 0, 5, 200, 0);
        run.endNs = 6 * S;
        List<IoStreamRecord> records = new ArrayList<>(run.records(64));
        RunFinished finished = (RunFinished) records.get(records.size() - 1).getEvent();
        ReplayPhaseResult issued = ReplayPhaseResult.newBuilder()
                .setPhaseIndex(0)
                .setTrace("boot.iolog")
                .setRecordedTiming(true)
                .setTimeScale(1.0)
                .setTraceIoCount(run.ios.size())
                .setIssuedIoCount(run.ios.size())
                .setLateIssueCount(3)
                .setLateThresholdNs(1_000_000)
                .setIssueLagP50Ns(50_000)
                .setIssueLagP99Ns(2_000_000)
                .setIssueLagMaxNs(4_000_000)
                .build();
        records.set(
                records.size() - 1,
                new IoStreamRecord(RunFinished.newBuilder(finished)
                        .setReplayPhases(List.of(issued))
                        .build()));
        MockProcessorContext<String, SpecificRecord> context = context();
        RunEventProcessor processor = new RunEventProcessor(config().analysisSettings(), config().heartbeatTimeout());
        processor.init(context);
        for (IoStreamRecord r : records) {
            processor.process(new Record<>("run-mock", r, 0L));
        }
        RunSummary summary = context.forwarded().stream()
                .filter(f -> f.childName().orElseThrow().equals(Names.SUMMARY_SINK))
                .map(f -> (RunSummary) f.record().value())
                .reduce((a, b) -> b)
                .orElseThrow();
        PhaseSummary phase = summary.getPhases().get(0);
        assertThat(phase.getReplay()).isEqualTo(issued);
        assertThat(phase.getLoadTimeNs())
                .isEqualTo(phase.getEndNs() - phase.getStartNs())
                .isPositive();
    }

    @Test
    void forwardsWindowsVerdictsLatenciesAndOneSummaryToTheNamedSinks() {
        List<IoStreamRecord> records = run().records(64);
        MockProcessorContext<String, SpecificRecord> context = context();
        RunEventProcessor processor = new RunEventProcessor(config().analysisSettings(), config().heartbeatTimeout());
        processor.init(context);
        assertThat(context.scheduledPunctuators())
                .as("the heartbeat check and the open windows")
                .hasSize(2);
        for (IoStreamRecord r : records) {
            processor.process(new Record<>("run-mock", r, 0L));
        }
        List<String> sinks = context.forwarded().stream()
                .map(f -> f.childName().orElseThrow())
                .toList();
        assertThat(sinks).contains(Names.METRICS_SINK, Names.LATENCY_SINK, Names.STEADY_STATE_SINK);
        assertThat(sinks.stream().filter(Names.SUMMARY_SINK::equals).count()).isEqualTo(1);
        assertThat(sinks.get(sinks.size() - 1)).isEqualTo(Names.SUMMARY_SINK);
        RunSummary summary =
                (RunSummary) context.forwarded().get(sinks.size() - 1).record().value();
        assertThat(summary.getIoCount()).isEqualTo(run().ios.size());
    }

    @Test
    void aTaskReInitMidRunResumesFromTheStoresWithIdenticalOutputs() {
        List<IoStreamRecord> records = run().records(64);
        List<Object> uninterrupted = process(records, -1);
        for (int restartAt : new int[] {records.size() / 3, records.size() * 2 / 3, records.size() - 1}) {
            assertThat(process(records, restartAt))
                    .as("restart at record %d", restartAt)
                    .isEqualTo(uninterrupted);
        }
    }

    @Test
    void afterAnAnalyticsOutageLongerThanTheTimeoutRunsGetATimeoutFromTheRestartBeforeExpiring() {
        List<IoStreamRecord> records = run().records(64);
        AnalyticsConfig config = config().withHeartbeatTimeout(Duration.ofSeconds(60));
        MockProcessorContext<String, SpecificRecord> context = context();
        RunEventProcessor processor = new RunEventProcessor(config.analysisSettings(), config.heartbeatTimeout());
        processor.init(context);
        processor.process(new Record<>("run-mock", records.get(0), 0L)); // activity stored at t = 1 s
        EncodeOnCommitStore<?> runState = context.getStateStore(Names.RUN_STATE_STORE);
        runState.flushCache();
        runState.clearCache();
        processor.close();

        // the analytics were down for 10 minutes; the run's newer events are still in the backlog
        context.setCurrentSystemTimeMs(601_000L);
        context.resetForwards();
        RunEventProcessor restarted = new RunEventProcessor(config.analysisSettings(), config.heartbeatTimeout());
        restarted.init(context);
        var punctuator = context.scheduledPunctuators().stream()
                .filter(p -> p.getInterval().equals(Duration.ofSeconds(5)))
                .reduce((first, last) -> last)
                .orElseThrow()
                .getPunctuator();
        punctuator.punctuate(615_000L);
        assertThat(context.forwarded())
                .as("no expiry within one timeout of the restart")
                .isEmpty();
        punctuator.punctuate(662_000L);
        assertThat(context.forwarded())
                .as("a run silent for a timeout after the restart expires")
                .anyMatch(f -> f.record().value() instanceof RunSummary s
                        && s.getStatus().name().equals("INCOMPLETE"));
    }
}
