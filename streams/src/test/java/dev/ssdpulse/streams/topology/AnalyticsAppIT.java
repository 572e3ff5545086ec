package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.ReplayResult;
import dev.ssdpulse.streams.app.RunReplay;
import dev.ssdpulse.streams.http.TestRecords;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real broker and registry: a run published by RunPublisher, processed by AnalyticsApp under
 * exactly_once_v2, read back from the output topics and views; then replayed under a new application id; and
 * the same events fed to the offline analysis. The three give byte-identical summaries, windows, verdicts, WA and
 * latency scatters.
 */
@ExtendWith(KafkaTestEnvironment.class)
class AnalyticsAppIT {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path stateDir;

    @Test
    void liveReplayAndOfflineAnalysisOfOneRunAreByteIdentical(TestStack stack) throws Exception {
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId("it-analytics-" + UUID.randomUUID())
                .withSteadyState(5 * S, AnalysisSettings.DEFAULT_FIO_CRITERIA)
                // routing metadata (queryMetadataForKey) exists only with application.server set
                .withExtraProperties(Map.of("application.server", "localhost:7070"));
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String runId = "it-run-" + UUID.randomUUID();
        SyntheticRun run = SyntheticRun.random(runId, 42, 0, 20, 1000);

        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            OfflineRunAnalysis offline = new OfflineRunAnalysis(runId, config.analysisSettings(), true, true);
            publish(stack, registry, run, offline);
            try (AnalyticsApp app = new AnalyticsApp(config)) {
                app.start();
                app.awaitRunning(Duration.ofSeconds(60));
                RunSummary summary = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> app.views().summary(runId), Optional::isPresent)
                        .get();
                assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
                assertThat(summary.getIoCount()).isEqualTo(run.ios.size());
                assertThat(summary.getIoCountExpected()).isEqualTo(run.ios.size());
                assertThat(summary.getLateIoCount()).isZero();
                assertThat(summary.getDuplicateBatchCount()).isZero();

                List<WindowMetrics> reads = app.views().series(runId, 0, 0, Long.MAX_VALUE);
                long readIos = run.ios.stream().filter(io -> io.op() == 0).count();
                assertThat(reads.stream().mapToLong(WindowMetrics::getIoCount).sum())
                        .isEqualTo(readIos);
                assertThat(app.views().series(runId, 0, 5 * S, 9 * S)).hasSize(5);
                assertThat(app.views().status(runId)).contains("COMPLETED");
                assertThat(await().atMost(Duration.ofSeconds(30))
                                .ignoreException(InvalidStateStoreException.class)
                                .until(
                                        () -> Optional.ofNullable(
                                                app.views().runs().get(runId)),
                                        Optional::isPresent)
                                .get()
                                .getRunName()
                                .toString())
                        .isEqualTo("test run");
                assertThat(app.views().waSeries(runId)).hasSize(20);
                assertThat(app.views().verdicts(runId)).isNotEmpty();
                assertThat(app.views().ownerMetadata(runId).partition()).isBetween(0, Topics.DEFAULT_PARTITIONS - 1);
                assertThat(app.views().ownerMetadata(runId).activeHost().port()).isEqualTo(7070);

                Map<String, List<byte[]>> live = readLive(stack, runId, summary);
                long metricsIos = 0;
                try (var metrics = new SpecificAvroDeserializer<>(WindowMetrics.class, registry)) {
                    for (byte[] v : live.get("metrics-raw")) {
                        metricsIos +=
                                metrics.deserialize(Topics.METRICS_1S.name(), v).getIoCount();
                    }
                }
                assertThat(metricsIos).isEqualTo(run.ios.size());

                ReplayResult replay = new RunReplay(config, TopologyMode.Kind.REPLAY)
                        .run(Set.of(runId), Duration.ofSeconds(120))
                        .get(runId);
                assertThat(replay.summaryDatum()).isEqualTo(last(live.get(Topics.RUN_SUMMARY.name())));
                assertThat(TopologyHarness.sameBytes(
                                replay.datums(Topics.METRICS_1S.name()), live.get(Topics.METRICS_1S.name())))
                        .as("window metrics byte-identical")
                        .isTrue();
                assertThat(TopologyHarness.sameBytes(
                                replay.datums(Topics.STEADY_STATE.name()), live.get(Topics.STEADY_STATE.name())))
                        .as("verdicts byte-identical")
                        .isTrue();
                assertThat(TopologyHarness.sameBytes(replay.datums(Topics.WAF.name()), live.get(Topics.WAF.name())))
                        .as("WA byte-identical")
                        .isTrue();
                assertThat(live.get(Topics.LATENCY_SCATTER.name()))
                        .as("a scatter per window")
                        .hasSize(21);
                assertThat(TopologyHarness.sameBytes(
                                replay.datums(Topics.LATENCY_SCATTER.name()), live.get(Topics.LATENCY_SCATTER.name())))
                        .as("latency scatter byte-identical")
                        .isTrue();
                assertThat(app.views().scatter(runId, 0, Long.MAX_VALUE)).hasSize(21);

                // offline: the same events through the same core, no Kafka
                assertThat(datum(offline.summary()))
                        .as("offline summary byte-identical")
                        .isEqualTo(last(live.get(Topics.RUN_SUMMARY.name())));
                assertThat(TopologyHarness.sameBytes(datums(offline.windows()), live.get(Topics.METRICS_1S.name())))
                        .as("offline windows byte-identical")
                        .isTrue();
                assertThat(TopologyHarness.sameBytes(datums(offline.verdicts()), live.get(Topics.STEADY_STATE.name())))
                        .as("offline verdicts byte-identical")
                        .isTrue();
                assertThat(TopologyHarness.sameBytes(datums(offline.writeAmplification()), live.get(Topics.WAF.name())))
                        .as("offline WA byte-identical")
                        .isTrue();
                assertThat(TopologyHarness.sameBytes(
                                datums(offline.scatters()), live.get(Topics.LATENCY_SCATTER.name())))
                        .as("offline latency scatter byte-identical")
                        .isTrue();

                // every documented field is filled: per-phase WA, fio's all-directions verdicts, per-op verdicts
                RunSummary last = offline.summary();
                assertThat(last.getPhases())
                        .hasSize(2)
                        .allSatisfy(p -> assertThat(p.getWriteAmplification())
                                .isNotNull()
                                .isBetween(2.9, 3.1));
                assertThat(last.getWriteAmplification().getWaCumulative()).isBetween(2.9, 3.1);
                assertThat(last.getSteadyState())
                        .anySatisfy(v -> assertThat(v.getAllOps()).isTrue())
                        .anySatisfy(v -> assertThat(v.getAllOps()).isFalse());
                assertThat(last.getIoNotPublished()).isZero();
            }
        }
    }

    @Test
    void aRunWhoseProducerDiesBeforeItsFirstEventIsMarkedIncomplete(TestStack stack) throws Exception {
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId("it-silent-" + UUID.randomUUID())
                .withHeartbeatTimeout(Duration.ofSeconds(4));
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String runId = "it-silent-run-" + UUID.randomUUID();
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                Producer<String, SpecificRecord> producer = RunProducers.create(props, registry)) {
            // RunStarted, then nothing more from this producer for 10 minutes: as if it died right after starting
            PublisherConfig quiet = new PublisherConfig(
                    props, 512, 1024, OverflowPolicy.BLOCK, Duration.ofMinutes(10), Duration.ofSeconds(1));
            new RunPublisher(producer, quiet, TestRecords.runStarted(runId, "silent", 1L << 30, 0L), 1);
            try (AnalyticsApp app = new AnalyticsApp(config)) {
                app.start();
                app.awaitRunning(Duration.ofSeconds(60));
                RunSummary summary = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> app.views().summary(runId), Optional::isPresent)
                        .get();
                assertThat(summary.getStatus()).isEqualTo(RunStatus.INCOMPLETE);
                assertThat(summary.getIoCount()).isZero();
                assertThat(summary.getReason()).contains("heartbeat");
            }
        }
    }

    private static byte[] datum(SpecificRecord record) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
            encoder.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<byte[]> datums(List<? extends SpecificRecord> records) {
        return records.stream().map(AnalyticsAppIT::datum).toList();
    }

    /** Publishes the run and feeds the same events, in the same order, to the offline analysis. */
    private static void publish(
            TestStack stack, HttpSchemaRegistryClient registry, SyntheticRun run, OfflineRunAnalysis offline) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        Producer<String, SpecificRecord> producer = RunProducers.create(props, registry);
        RunPublisher publisher = new RunPublisher(
                producer, PublisherConfig.defaults(props, OverflowPolicy.BLOCK), TestRuns.runStarted(run.runId), 1);
        int nextPhase = 0;
        long nextSmartNs = 0;
        for (SyntheticRun.Io io : run.ios) {
            while (nextPhase < run.phases.size() && run.phases.get(nextPhase).index() <= io.phase()) {
                SyntheticRun.Phase p = run.phases.get(nextPhase++);
                publisher.phaseChanged(new PhaseChanged(run.runId, p.index(), p.name(), p.kind(), p.startNs()));
                offline.phaseStarted(p.index(), p.name(), p.kind(), p.startNs());
            }
            if (io.completionNs() >= nextSmartNs) {
                long host = nextSmartNs / 1000;
                SmartSample sample = SmartSample.newBuilder()
                        .setRunId(run.runId)
                        .setTimeNs(nextSmartNs)
                        .setSource(SmartSource.SIMULATOR)
                        .setHostBytesWritten(host)
                        .setNandBytesWritten(host * 3)
                        .build();
                publisher.publishSmart(sample);
                offline.smart(sample);
                nextSmartNs += S;
            }
            publisher.onIoCompleted(
                    0, io.phase(), (byte) io.op(), 0L, io.sizeBytes(), io.submitNs(), io.latencyNs(), 1, io.status());
            offline.io(io.op(), io.phase(), io.submitNs(), io.latencyNs(), io.sizeBytes(), io.status());
        }
        PublishReport report = publisher.finish(RunStatus.COMPLETED, null, run.endNs, 60_000);
        offline.finish(RunStatus.COMPLETED, null, run.endNs, report.ioCompleted(), report.ioNotPublished());
        publisher.close();
        producer.close();
        assertThat(report.ioPublished()).isEqualTo(run.ios.size());
    }

    /** The live outputs of one run (datums), read with read_committed until the given summary shows up. */
    private static Map<String, List<byte[]>> readLive(TestStack stack, String runId, RunSummary summary) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        props.put("group.id", "it-reader-" + UUID.randomUUID());
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", "read_committed");
        Map<String, List<byte[]>> out = new HashMap<>();
        List<String> topics = List.of(
                Topics.METRICS_1S.name(),
                Topics.STEADY_STATE.name(),
                Topics.WAF.name(),
                Topics.LATENCY_SCATTER.name(),
                Topics.RUN_SUMMARY.name());
        try (var consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            // "quiet" is a span of real time by definition: the only way to know the outputs have no more records
            long[] quietSinceNs = {System.nanoTime()};
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("the outputs of run " + runId + ", then 2 s of quiet")
                    .atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        var records = consumer.poll(Duration.ofMillis(200));
                        for (ConsumerRecord<String, byte[]> r : records) {
                            if (runId.equals(r.key())) {
                                out.computeIfAbsent(r.topic(), k -> new ArrayList<>())
                                        .add(ReplayResult.datum(r.value()));
                                if (r.topic().equals(Topics.METRICS_1S.name())) {
                                    out.computeIfAbsent("metrics-raw", k -> new ArrayList<>())
                                            .add(r.value());
                                }
                            }
                        }
                        if (!records.isEmpty()) {
                            quietSinceNs[0] = System.nanoTime();
                            return false;
                        }
                        return out.containsKey(Topics.RUN_SUMMARY.name())
                                && System.nanoTime() - quietSinceNs[0] > 2_000_000_000L;
                    });
        }
        assertThat(out).containsKeys(topics.toArray(String[]::new));
        return out;
    }

    private static byte[] last(List<byte[]> list) {
        return list.get(list.size() - 1);
    }
}
