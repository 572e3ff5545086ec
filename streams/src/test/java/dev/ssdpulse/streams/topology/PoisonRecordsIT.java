package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.topics.DeadLetterHeaders;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.http.HttpApiConfig;
import dev.ssdpulse.streams.http.HttpApiServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Poison records on the three input topics (corrupt Avro, wrong magic byte, unknown schema id, too short,
 * well-formed but invalid I/O batches) interleaved with a good run in its own partition: each poison record
 * lands on the dead-letter topic unchanged with its reason, the counts served over HTTP (/api/dead-letters and
 * /metrics) equal what the application dead-lettered, the application keeps running, and the poisoned run's
 * summary is exactly that of the same run published clean under another id.
 */
@ExtendWith(KafkaTestEnvironment.class)
class PoisonRecordsIT {
    private static final long S = 1_000_000_000L;
    private static final String POISON_HEADER = "it.poison";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    private record Poison(String tag, String topic, String key, byte[] value, String reasonFragment) {}

    @Test
    void poisonGoesToTheDeadLetterTopicIsCountedAndTheInterleavedRunKeepsItsExactSummary(TestStack stack)
            throws Exception {
        String appId = "it-poison-" + UUID.randomUUID();
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                .withApplicationId(appId);
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String nonce = UUID.randomUUID().toString();
        String cleanId = "it-clean-" + nonce;
        String poisonedId = "it-poisoned-" + nonce;
        SyntheticRun clean = SyntheticRun.random(cleanId, 7, 0, 8, 400);
        SyntheticRun poisoned = SyntheticRun.random(poisonedId, 7, 0, 8, 400);

        List<Poison> poison;
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                SpecificAvroSerializer<SpecificRecord> serializer =
                        new SpecificAvroSerializer<>(registry, Map.of(), false);
                KafkaProducer<String, byte[]> producer = new KafkaProducer<>(
                        Map.of("bootstrap.servers", stack.bootstrapServers()),
                        new StringSerializer(),
                        new ByteArraySerializer())) {
            publish(producer, serializer, clean, List.of());
            poison = poisonRecords(serializer, poisonedId, nonce);
            publish(producer, serializer, poisoned, poison);
            producer.flush();
        }

        HttpClient http = HttpClient.newHttpClient();
        try (AnalyticsApp app = new AnalyticsApp(config)) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            try (HttpApiServer server = HttpApiServer.start(app, HttpApiConfig.localhost(0))) {
                RunSummary cleanSummary = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> finished(app, cleanId), Optional::isPresent)
                        .get();
                RunSummary poisonedSummary = await().atMost(Duration.ofSeconds(90))
                        .ignoreException(InvalidStateStoreException.class)
                        .until(() -> finished(app, poisonedId), Optional::isPresent)
                        .get();
                assertThat(poisonedSummary.getStatus()).isEqualTo(RunStatus.COMPLETED);
                assertThat(poisonedSummary.getIoCount()).isEqualTo(poisoned.ios.size());
                assertThat(poisonedSummary.getIoCountExpected()).isEqualTo(poisoned.ios.size());
                // the run id is repeated inside (WA, verdicts): compare every field with the ids swapped
                assertThat(poisonedSummary.toString().replace(poisonedId, cleanId))
                        .as("summary of the poisoned run = summary of the clean run")
                        .isEqualTo(cleanSummary.toString());

                Map<String, ConsumerRecord<String, byte[]>> byTag = new HashMap<>();
                Map<String, Long> dlqCounts = new TreeMap<>();
                AtomicReference<Map<String, Long>> lastHttpCounts = new AtomicReference<>(Map.of());
                try (KafkaConsumer<String, byte[]> dlq = deadLetterConsumer(stack)) {
                    // the consumer stays on this thread (KafkaConsumer is single-threaded)
                    try {
                        await().atMost(Duration.ofSeconds(90))
                                .pollInSameThread()
                                .pollInterval(Duration.ofMillis(1))
                                .until(() -> {
                                    for (ConsumerRecord<String, byte[]> r : dlq.poll(Duration.ofMillis(200))) {
                                        if (!appId.equals(header(r, DeadLetterHeaders.REJECTED_BY))) {
                                            continue;
                                        }
                                        dlqCounts.merge(header(r, DeadLetterHeaders.SOURCE_TOPIC), 1L, Long::sum);
                                        String tag = header(r, POISON_HEADER);
                                        if (tag != null && tag.startsWith(nonce)) {
                                            assertThat(byTag.put(tag, r))
                                                    .as("dead-lettered once: " + tag)
                                                    .isNull();
                                        }
                                    }
                                    lastHttpCounts.set(deadLetterCounts(http, server));
                                    return byTag.size() == poison.size()
                                            && lastHttpCounts.get().equals(dlqCounts);
                                });
                    } catch (ConditionTimeoutException e) {
                        throw new AssertionError(
                                "dead letters " + byTag.keySet() + ", dlq counts " + dlqCounts + ", http counts "
                                        + lastHttpCounts.get(),
                                e);
                    }
                }
                Map<String, Long> httpCounts = lastHttpCounts.get();
                for (Poison p : poison) {
                    ConsumerRecord<String, byte[]> r = byTag.get(p.tag());
                    assertThat(r.key()).isEqualTo(p.key());
                    assertThat(r.value()).as(p.tag() + ": bytes unchanged").isEqualTo(p.value());
                    assertThat(header(r, DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(p.topic());
                    assertThat(header(r, DeadLetterHeaders.REASON)).as(p.tag()).contains(p.reasonFragment());
                    assertThat(header(r, DeadLetterHeaders.SOURCE_OFFSET)).matches("\\d+");
                }
                for (String topic : List.of(Topics.IO.name(), Topics.RUNS.name(), Topics.SMART.name())) {
                    long mine =
                            poison.stream().filter(p -> p.topic().equals(topic)).count();
                    assertThat(httpCounts.getOrDefault(topic, 0L)).as(topic).isGreaterThanOrEqualTo(mine);
                }
                // /metrics shows the API's counts. The application reads the shared topics from their start, so
                // other tests' poison may still be arriving: both are read again until no dead letter came between.
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Map<String, Long> now = deadLetterCounts(http, server);
                    String metrics = http.send(
                                    HttpRequest.newBuilder(server.url().resolve("/metrics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body();
                    now.forEach((topic, n) -> assertThat(metrics)
                            .contains("ssdpulse_dead_letter_records{source=\"" + topic + "\"} " + (double) n));
                });
                assertThat(app.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);
            }
        }
    }

    /**
     * One of each kind of poison, each tagged by a header (the dead letter keeps the original headers). The
     * I/O ones share the poisoned run's key, so they sit in its partition between its batches.
     */
    private static List<Poison> poisonRecords(
            SpecificAvroSerializer<SpecificRecord> serializer, String runId, String nonce) {
        byte[] goodBatch = serializer.serialize(Topics.IO.name(), new IoStreamRecord(batch(runId, 7, false, false)));
        int ioSchemaId = ByteBuffer.wrap(goodBatch, 1, 4).getInt();
        byte[] goodSmart = serializer.serialize(
                Topics.SMART.name(),
                SmartSample.newBuilder()
                        .setRunId(runId)
                        .setTimeNs(S)
                        .setSource(SmartSource.SIMULATOR)
                        .setHostBytesWritten(1L)
                        .setNandBytesWritten(3L)
                        .build());
        int smartSchemaId = ByteBuffer.wrap(goodSmart, 1, 4).getInt();
        byte[] goodRun = serializer.serialize(Topics.RUNS.name(), TestRuns.runStarted("poison-" + runId));
        byte[] allOnes = new byte[16];
        Arrays.fill(allOnes, (byte) 0xff);
        List<Poison> out = new ArrayList<>();
        String io = Topics.IO.name();
        out.add(new Poison(nonce + "-io-corrupt", io, runId, wire(ioSchemaId, allOnes), "Avro decode failure"));
        out.add(new Poison(
                nonce + "-io-truncated",
                io,
                runId,
                Arrays.copyOf(goodBatch, goodBatch.length / 2),
                "Avro decode failure"));
        out.add(new Poison(nonce + "-io-magic", io, runId, withMagic(goodBatch, (byte) 1), "Unknown magic byte 0x01"));
        out.add(new Poison(
                nonce + "-io-unknown-id",
                io,
                runId,
                wire(2_000_000_011, Arrays.copyOfRange(goodBatch, 5, goodBatch.length)),
                "Unknown schema id 2000000011"));
        out.add(new Poison(
                nonce + "-io-short", io, runId, new byte[] {0, 0}, "fewer than the 5-byte Confluent header"));
        out.add(new Poison(
                nonce + "-io-text", io, runId, "not avro".getBytes(StandardCharsets.UTF_8), "Unknown magic byte 0x6e"));
        out.add(new Poison(
                nonce + "-io-negative-latency",
                io,
                runId,
                serializer.serialize(io, new IoStreamRecord(batch(runId, 8, true, false))),
                "invalid record: "));
        out.add(new Poison(
                nonce + "-io-short-column",
                io,
                runId,
                serializer.serialize(io, new IoStreamRecord(batch(runId, 9, false, true))),
                "invalid record: "));
        String runs = Topics.RUNS.name();
        out.add(new Poison(
                nonce + "-runs-magic",
                runs,
                "poison-" + runId,
                withMagic(goodSmart, (byte) 0x7f),
                "Unknown magic byte 0x7f"));
        out.add(new Poison(
                nonce + "-runs-truncated",
                runs,
                "poison-" + runId,
                Arrays.copyOf(goodRun, goodRun.length - 10),
                "Avro decode failure"));
        out.add(new Poison(
                nonce + "-runs-unknown-id",
                runs,
                "poison-" + runId,
                wire(2_000_000_012, allOnes),
                "Unknown schema id 2000000012"));
        String smart = Topics.SMART.name();
        out.add(new Poison(
                nonce + "-smart-truncated",
                smart,
                runId,
                Arrays.copyOf(goodSmart, goodSmart.length - 3),
                "Avro decode failure"));
        out.add(new Poison(
                nonce + "-smart-unknown-id",
                smart,
                runId,
                wire(2_000_000_013, allOnes),
                "Unknown schema id 2000000013"));
        out.add(new Poison(
                nonce + "-smart-corrupt", smart, runId, wire(smartSchemaId, allOnes), "Avro decode failure"));
        return out;
    }

    /** A 3-I/O batch of a worker the run does not otherwise use, optionally invalid. */
    private static IoBatch batch(String runId, int worker, boolean negativeLatency, boolean shortColumn) {
        IoBatchBuilder builder = new IoBatchBuilder(runId, worker, 8);
        for (int i = 0; i < 3; i++) {
            builder.add(1, (byte) 0, 0L, 4096, S + i * 1000L, 50_000L, 1, 0);
        }
        IoBatch b = builder.flush();
        if (negativeLatency) {
            b.setLatencyNs(new ArrayList<>(List.of(50_000L, -1L, 50_000L)));
        }
        if (shortColumn) {
            b.setSizeBytes(new ArrayList<>(List.of(4096)));
        }
        return b;
    }

    private static byte[] wire(int schemaId, byte[] body) {
        return ByteBuffer.allocate(5 + body.length)
                .put((byte) 0)
                .putInt(schemaId)
                .put(body)
                .array();
    }

    private static byte[] withMagic(byte[] wire, byte magic) {
        byte[] copy = wire.clone();
        copy[0] = magic;
        return copy;
    }

    /**
     * RunStarted, then the run's records with one SMART sample per run second; the poison records are spread
     * over the run (I/O poison between batches, SMART poison between samples).
     */
    private static void publish(
            KafkaProducer<String, byte[]> producer,
            SpecificAvroSerializer<SpecificRecord> ser,
            SyntheticRun run,
            List<Poison> poison)
            throws Exception {
        producer.send(new ProducerRecord<>(
                        Topics.RUNS.name(),
                        run.runId,
                        ser.serialize(Topics.RUNS.name(), TestRuns.runStarted(run.runId))))
                .get();
        List<IoStreamRecord> records = run.records(128);
        int every = Math.max(1, records.size() / (poison.size() + 1));
        int nextPoison = 0;
        long nextSmartNs = 0;
        for (int i = 0; i < records.size(); i++) {
            if (nextPoison < poison.size() && i > 0 && i % every == 0) {
                send(producer, poison.get(nextPoison++));
            }
            IoStreamRecord r = records.get(i);
            if (r.getEvent() instanceof IoBatch b && b.getBaseSubmitTimeNs() >= nextSmartNs) {
                long host = nextSmartNs / 1000;
                producer.send(new ProducerRecord<>(
                        Topics.SMART.name(),
                        run.runId,
                        ser.serialize(
                                Topics.SMART.name(),
                                SmartSample.newBuilder()
                                        .setRunId(run.runId)
                                        .setTimeNs(nextSmartNs)
                                        .setSource(SmartSource.SIMULATOR)
                                        .setHostBytesWritten(host)
                                        .setNandBytesWritten(host * 3)
                                        .build())));
                nextSmartNs += S;
            }
            producer.send(new ProducerRecord<>(Topics.IO.name(), run.runId, ser.serialize(Topics.IO.name(), r)));
        }
        while (nextPoison < poison.size()) {
            send(producer, poison.get(nextPoison++));
        }
        producer.flush();
    }

    private static void send(KafkaProducer<String, byte[]> producer, Poison p) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(POISON_HEADER, p.tag().getBytes(StandardCharsets.UTF_8));
        producer.send(new ProducerRecord<>(p.topic(), null, p.key(), p.value(), headers));
    }

    private static Optional<RunSummary> finished(AnalyticsApp app, String runId) {
        return app.views().summary(runId).filter(s -> s.getStatus() != RunStatus.INCOMPLETE);
    }

    private static KafkaConsumer<String, byte[]> deadLetterConsumer(TestStack stack) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        props.put("group.id", "it-dlq-reader-" + UUID.randomUUID());
        props.put("auto.offset.reset", "earliest");
        props.put("isolation.level", "read_committed");
        KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(Topics.DEAD_LETTER.name()));
        return consumer;
    }

    private static Map<String, Long> deadLetterCounts(HttpClient http, HttpApiServer server) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(server.url().resolve("/api/dead-letters"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Long> out = new TreeMap<>();
        if (r.statusCode() != 200) {
            return out; // 503 while the views are restoring
        }
        JsonNode counts = JSON.readTree(r.body()).get("countsBySourceTopic");
        counts.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
        return out;
    }

    private static String header(ConsumerRecord<?, ?> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
