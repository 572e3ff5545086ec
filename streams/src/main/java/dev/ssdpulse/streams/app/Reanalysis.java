package dev.ssdpulse.streams.app;

import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.topology.TopologyMode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Re-analysis of stored runs into a named result set: the runs are recomputed from the raw topics with the
 * given settings ({@link RunReplay}), then each run's outputs are published to
 * ssdpulse.result-sets.v1 in one transaction (ResultSetStarted, windows, verdicts, WA, summaries), which the live
 * application materializes beside the run's own results. The run's own outputs and views are never touched.
 */
public final class Reanalysis {
    private Reanalysis() {}

    /** What one run's re-analysis produced. */
    public record Outcome(String runId, String resultSet, RunSummary summary, Map<String, Integer> recordsByKind) {}

    public static Map<String, Outcome> run(
            AnalyticsConfig config, Set<String> runIds, String resultSet, Duration timeout)
            throws TimeoutException, InterruptedException {
        ResultSetNames.validate(resultSet);
        Map<String, ReplayResult> replays = new RunReplay(config, TopologyMode.Kind.REANALYSIS).run(runIds, timeout);
        Map<String, Outcome> out = new LinkedHashMap<>();
        Map<String, Object> props = new HashMap<>(AnalyticsApp.adminProps(config));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "ssdpulse-result-set-" + UUID.randomUUID());
        try (SchemaRegistryClient registry = HttpSchemaRegistryClient.fromConfig(AnalyticsApp.registryConfigs(config));
                KafkaProducer<String, ResultSetRecord> producer = new KafkaProducer<>(
                        props,
                        new StringSerializer(),
                        new SpecificAvroSerializer<>(registry, AnalyticsApp.registryConfigs(config), false))) {
            producer.initTransactions();
            for (Map.Entry<String, ReplayResult> e : replays.entrySet()) {
                out.put(e.getKey(), publish(producer, config, e.getKey(), resultSet, e.getValue()));
            }
        }
        return out;
    }

    /** The settings a result set records (text, so they read the same in the API and on the dashboard). */
    public static Map<String, String> settings(AnalyticsConfig config) {
        AnalysisSettings a = config.analysisSettings();
        Map<String, String> s = new LinkedHashMap<>();
        s.put("windowNs", Long.toString(a.windowSizeNs()));
        s.put("graceNs", Long.toString(a.graceNs()));
        s.put("sniaRoundNs", Long.toString(a.sniaRoundNs()));
        s.put(
                "fioCriteria",
                String.join(
                        ",",
                        a.fioCriteria().stream().map(FioCriterion::toString).toList()));
        s.put("latencyBinEdgesNs", a.bins().format());
        return s;
    }

    private static Outcome publish(
            KafkaProducer<String, ResultSetRecord> producer,
            AnalyticsConfig config,
            String runId,
            String name,
            ReplayResult result) {
        if (result.summaryDatum() == null) {
            throw new IllegalStateException("re-analysis of run " + runId + " produced no summary");
        }
        List<SpecificRecord> events = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        add(events, counts, "windows", result.datums(Topics.METRICS_1S.name()), WindowMetrics.class);
        add(events, counts, "steadyStateVerdicts", result.datums(Topics.STEADY_STATE.name()), SteadyStateVerdict.class);
        add(events, counts, "writeAmplification", result.datums(Topics.WAF.name()), WriteAmplification.class);
        add(events, counts, "summaries", result.datums(Topics.RUN_SUMMARY.name()), RunSummary.class);
        producer.beginTransaction();
        try {
            ResultSetStarted started = new ResultSetStarted(
                    runId, name, settings(config), Instant.ofEpochMilli(System.currentTimeMillis()));
            producer.send(new ProducerRecord<>(Topics.RESULT_SETS.name(), runId, new ResultSetRecord(name, started)));
            for (SpecificRecord event : events) {
                producer.send(new ProducerRecord<>(Topics.RESULT_SETS.name(), runId, new ResultSetRecord(name, event)));
            }
            producer.commitTransaction();
        } catch (RuntimeException e) {
            producer.abortTransaction();
            throw e;
        }
        return new Outcome(runId, name, decode(result.summaryDatum(), RunSummary.class), counts);
    }

    private static <T extends SpecificRecord> void add(
            List<SpecificRecord> events, Map<String, Integer> counts, String kind, List<byte[]> datums, Class<T> type) {
        for (byte[] d : datums) {
            events.add(decode(d, type));
        }
        counts.put(kind, datums.size());
    }

    static <T extends SpecificRecord> T decode(byte[] datum, Class<T> type) {
        try {
            return new SpecificDatumReader<>(type)
                    .read(null, DecoderFactory.get().binaryDecoder(datum, null));
        } catch (IOException e) {
            throw new IllegalStateException("cannot decode a replayed " + type.getSimpleName(), e);
        }
    }
}
