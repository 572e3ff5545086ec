package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.ReplayResult;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/** A TopologyTestDriver around the analytics topology with an in-memory schema registry. */
public final class TopologyHarness implements AutoCloseable {
    final AnalyticsConfig config;
    final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    final AnalyticsSerdes serdes = new AnalyticsSerdes(registry);
    final TopologyTestDriver driver;
    final TestInputTopic<String, IoStreamRecord> io;
    final TestInputTopic<String, byte[]> ioRaw;
    final TestInputTopic<String, SmartSample> smart;
    final TestInputTopic<String, RunStarted> runs;

    static AnalyticsConfig testConfig(Path stateDir) {
        return AnalyticsConfig.defaults("unused:9092", "http://unused:8081", stateDir)
                .withApplicationId("ssdpulse-test");
    }

    TopologyHarness(AnalyticsConfig config) {
        this(config, ViewChanges.none());
    }

    /** @param changes where the topology announces view changes */
    TopologyHarness(AnalyticsConfig config, ViewChanges changes) {
        this.config = config;
        Properties props = AnalyticsApp.streamsProperties(config);
        driver = new TopologyTestDriver(
                AnalyticsTopology.build(
                        config.applicationId(),
                        config.analysisSettings(),
                        config.heartbeatTimeout(),
                        serdes,
                        TopologyMode.live(),
                        changes),
                props,
                Instant.ofEpochMilli(0));
        io = driver.createInputTopic(
                Topics.IO.name(),
                new StringSerializer(),
                serdes.value(IoStreamRecord.class).serializer());
        ioRaw = driver.createInputTopic(Topics.IO.name(), new StringSerializer(), new ByteArraySerializer());
        smart = driver.createInputTopic(
                Topics.SMART.name(),
                new StringSerializer(),
                serdes.value(SmartSample.class).serializer());
        runs = driver.createInputTopic(
                Topics.RUNS.name(),
                new StringSerializer(),
                serdes.value(RunStarted.class).serializer());
    }

    void send(String runId, List<IoStreamRecord> records) {
        for (IoStreamRecord r : records) {
            io.pipeInput(runId, r);
        }
    }

    List<TestRecord<String, byte[]>> raw(String topic) {
        TestOutputTopic<String, byte[]> out =
                driver.createOutputTopic(topic, new StringDeserializer(), new ByteArrayDeserializer());
        return out.readRecordsToList();
    }

    /** Datums (Avro bytes without the Confluent header) of a topic, in order. */
    List<byte[]> datums(String topic) {
        List<byte[]> out = new ArrayList<>();
        for (TestRecord<String, byte[]> r : raw(topic)) {
            out.add(ReplayResult.datum(r.value()));
        }
        return out;
    }

    <T extends SpecificRecord> List<T> read(String topic, Class<T> type) {
        TestOutputTopic<String, T> out = driver.createOutputTopic(
                topic, new StringDeserializer(), serdes.value(type).deserializer());
        return out.readValuesToList();
    }

    List<WindowMetrics> metrics() {
        return read(Topics.METRICS_1S.name(), WindowMetrics.class);
    }

    List<RunSummary> summaries() {
        return read(Topics.RUN_SUMMARY.name(), RunSummary.class);
    }

    List<RunLatency> latencies() {
        return read(Topics.LATENCY.name(), RunLatency.class);
    }

    List<SteadyStateVerdict> verdicts() {
        return read(Topics.STEADY_STATE.name(), SteadyStateVerdict.class);
    }

    List<WriteAmplification> wa() {
        return read(Topics.WAF.name(), WriteAmplification.class);
    }

    static boolean sameBytes(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        driver.close();
    }

    /**
     * The run-state store as the topology builds it, but in memory and without changelog: for processor-level
     * tests and benchmarks that drive RunEventProcessor through a MockProcessorContext. Kafka Streams encodes it
     * at commits through {@code flushCache()}; such a test calls that itself where a commit would be.
     */
    public static EncodeOnCommitStore<?> inMemoryRunStateStore() {
        return EncodeOnCommitStore.inMemory(Names.RUN_STATE_STORE, RunAnalysis::encode)
                .withLoggingDisabled()
                .build();
    }
}
