package dev.ssdpulse.streams.bench;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.topology.AnalyticsSerdes;
import dev.ssdpulse.streams.topology.AnalyticsTopology;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * Cost of the topology alone (no broker): TopologyTestDriver with persistent cached stores, pre-encoded
 * 512-I/O batch records of one run; prints ns per I/O and per batch, and the size and encode time of the
 * per-run state written after every batch. Usage: TopologyCostCheck IOS BATCH.
 */
public final class TopologyCostCheck {
    public static void main(String[] args) throws Exception {
        int ios = Integer.parseInt(args[0]);
        int batchSize = Integer.parseInt(args[1]);
        AnalyticsConfig config =
                AnalyticsConfig.defaults("unused:9092", "http://unused", Files.createTempDirectory("cost"));
        AnalyticsSerdes serdes = new AnalyticsSerdes(new InMemorySchemaRegistryClient());
        var serializer = serdes.value(IoStreamRecord.class).serializer();
        String runId = "cost-run";
        List<byte[]> records = new ArrayList<>();
        records.add(serializer.serialize(
                Topics.IO.name(), new IoStreamRecord(new PhaseChanged(runId, 0, "t", PhaseKind.TEST, 0L))));
        IoBatchBuilder builder = new IoBatchBuilder(runId, 0, batchSize);
        SplittableRandom random = new SplittableRandom(1);
        long t = 0;
        RunWindowAggregator probe = new RunWindowAggregator(
                config.analysisSettings().windowSizeNs(),
                config.analysisSettings().graceNs(),
                LatencyBins.iometer(),
                w -> {});
        long encodeNs = 0;
        long encodeBytes = 0;
        int encodes = 0;
        for (int i = 0; i < ios; i++) {
            t += 10_000;
            long latency = 20_000 + random.nextInt(200_000);
            int op = random.nextInt(10) < 7 ? 0 : 1;
            probe.add(op, 0, t, 4096, latency, 0);
            IoBatch full = builder.add(0, (byte) op, 0, 4096, t - latency, latency, 32, 0);
            if (full != null) {
                records.add(serializer.serialize(Topics.IO.name(), new IoStreamRecord(full)));
                long s = System.nanoTime();
                byte[] state = probe.encodeState();
                encodeNs += System.nanoTime() - s;
                encodeBytes += state.length;
                encodes++;
            }
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(
                AnalyticsTopology.build(
                        config.applicationId(), config.analysisSettings(), config.heartbeatTimeout(), serdes),
                AnalyticsApp.streamsProperties(config))) {
            TestInputTopic<String, byte[]> in =
                    driver.createInputTopic(Topics.IO.name(), new StringSerializer(), new ByteArraySerializer());
            for (int round = 0; round < 3; round++) {
                long s = System.nanoTime();
                for (byte[] r : records) {
                    in.pipeInput(runId + round, r);
                }
                long el = System.nanoTime() - s;
                System.out.printf(
                        Locale.ROOT,
                        "round %d: %d I/Os in %d records: %.1f ns/IO, %.1f us/record, %.2f M I/O/s%n",
                        round,
                        ios,
                        records.size(),
                        el / (double) ios,
                        el / 1e3 / records.size(),
                        ios / (el / 1e9) / 1e6);
            }
        }
        System.out.printf(
                Locale.ROOT,
                "RunWindowAggregator.encodeState per batch: %.1f us, %.0f bytes on average%n",
                encodeNs / 1e3 / encodes,
                encodeBytes / (double) encodes);
    }
}
