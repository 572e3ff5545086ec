package dev.ssdpulse.streams.bench;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.topology.AnalyticsSerdes;
import dev.ssdpulse.streams.topology.EncodeOnCommitStore;
import dev.ssdpulse.streams.topology.Names;
import dev.ssdpulse.streams.topology.RunEventProcessor;
import dev.ssdpulse.streams.topology.TopologyHarness;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * CPU cost of the run processor alone per I/O (Avro decode of the batch record included, in-memory stores, no
 * Kafka): the upper bound of one stream thread. Usage: ProcessorCostCheck IOS BATCH [COMMIT_EVERY_RECORDS]: the
 * run state is encoded (as Kafka Streams does at a commit) every COMMIT_EVERY_RECORDS records (default 100, about
 * what a 100-ms exactly-once commit interval sees at 0.5 M I/O/s; 1 = the old encode-per-batch cost).
 */
public final class ProcessorCostCheck {
    public static void main(String[] args) throws Exception {
        int ios = Integer.parseInt(args[0]);
        int batchSize = Integer.parseInt(args[1]);
        int commitEveryRecords = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        AnalyticsConfig config =
                AnalyticsConfig.defaults("unused:9092", "http://unused", Files.createTempDirectory("cost"));
        AnalyticsSerdes serdes = new AnalyticsSerdes(new InMemorySchemaRegistryClient());
        var serializer = serdes.value(IoStreamRecord.class).serializer();
        Deserializer<IoStreamRecord> deserializer =
                serdes.value(IoStreamRecord.class).deserializer();
        List<byte[]> records = new ArrayList<>();
        IoBatchBuilder builder = new IoBatchBuilder("r", 0, batchSize);
        SplittableRandom random = new SplittableRandom(1);
        long t = 0;
        for (int i = 0; i < ios; i++) {
            t += 10_000;
            long latency = 20_000 + random.nextInt(200_000);
            IoBatch full =
                    builder.add(0, (byte) (random.nextInt(10) < 7 ? 0 : 1), 0, 4096, t - latency, latency, 32, 0);
            if (full != null) {
                records.add(serializer.serialize(Topics.IO.name(), new IoStreamRecord(full)));
            }
        }
        for (int round = 0; round < 4; round++) {
            MockProcessorContext<String, SpecificRecord> context = context(config);
            RunEventProcessor processor = new RunEventProcessor(config.analysisSettings(), config.heartbeatTimeout());
            processor.init(context);
            String runId = "r" + round;
            processor.process(
                    new Record<>(runId, new IoStreamRecord(new PhaseChanged(runId, 0, "t", PhaseKind.TEST, 0L)), 0));
            EncodeOnCommitStore<?> runState = context.getStateStore(Names.RUN_STATE_STORE);
            var threadMx = ManagementFactory.getThreadMXBean();
            long cpu0 = threadMx.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            int sinceCommit = 0;
            for (byte[] r : records) {
                processor.process(new Record<>(runId, deserializer.deserialize(Topics.IO.name(), r), 0));
                if (++sinceCommit == commitEveryRecords) {
                    runState.flushCache();
                    sinceCommit = 0;
                }
            }
            long el = System.nanoTime() - s;
            long cpuNs = threadMx.getCurrentThreadCpuTime() - cpu0;
            System.out.printf(
                    Locale.ROOT,
                    "round %d: %.1f ns/IO (CPU %.1f ns/IO), %.1f us/record, %.2f M I/O/s, " + "%d outputs%n",
                    round,
                    el / (double) ios,
                    cpuNs / (double) ios,
                    el / 1e3 / records.size(),
                    ios / (el / 1e9) / 1e6,
                    context.forwarded().size());
        }
    }

    private static MockProcessorContext<String, SpecificRecord> context(AnalyticsConfig config) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "cost");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        MockProcessorContext<String, SpecificRecord> context = new MockProcessorContext<>(props);
        context.setCurrentSystemTimeMs(0);
        EncodeOnCommitStore<?> runState = TopologyHarness.inMemoryRunStateStore();
        runState.init(context.getStateStoreContext(), runState);
        context.addStateStore(runState);
        add(context, Names.RUN_ACTIVITY_STORE, Serdes.Long());
        add(context, Names.RUN_STATUS_STORE, Serdes.String());
        add(context, Names.RUN_SUMMARY_STORE, fresh(RunSummary.class));
        add(context, Names.WINDOW_SERIES_STORE, fresh(WindowMetrics.class));
        add(context, Names.LATENCY_SCATTER_STORE, fresh(LatencyScatter.class));
        add(context, Names.STEADY_STATE_STORE, fresh(SteadyStateVerdict.class));
        add(context, Names.WAF_SERIES_STORE, fresh(WriteAmplification.class));
        return context;
    }

    private static <T extends SpecificRecord> Serde<T> fresh(Class<T> type) {
        return new AnalyticsSerdes(new InMemorySchemaRegistryClient()).value(type);
    }

    private static <V> void add(MockProcessorContext<String, SpecificRecord> context, String name, Serde<V> values) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(
                        Stores.inMemoryKeyValueStore(name), Serdes.String(), values)
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
    }
}
