package dev.ssdpulse.streams.app;

import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.topology.OutputTopics;
import dev.ssdpulse.streams.topology.TopologyMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Recomputes stored runs from the retained raw topics into fresh state: a run-once application
 * ({@code <applicationId>-replay-<uuid>} or {@code -reanalysis-}) with its own state directory, only the runs'
 * records (filtered by key before decoding), outputs to topics prefixed {@code ssdpulse.replay.<uuid>.}. Many
 * runs spread over the config's stream threads by partition (runs are keyed by run id).
 *
 * <p><b>When it is done.</b> At start it records the end offsets of the input partitions that hold the runs
 * (committed data only). The replay is complete when the application has committed its consumed offsets up to
 * those ends on every such partition (or only transaction markers remain before them): under exactly_once_v2
 * the outputs of everything consumed are committed in the same transactions, so reading the output topics to
 * their end then yields every output, with no waiting for quiet time. Afterwards the output topics are deleted.
 */
public final class RunReplay {
    private static final Duration POLL = Duration.ofMillis(200);
    private static final List<String> INPUT_TOPICS = List.of(Topics.IO.name(), Topics.SMART.name(), Topics.RUNS.name());

    private final AnalyticsConfig config;
    private final TopologyMode.Kind kind;

    /** @param kind REPLAY, or REANALYSIS for a replay whose outputs become a result set */
    public RunReplay(AnalyticsConfig config, TopologyMode.Kind kind) {
        if (kind == TopologyMode.Kind.LIVE) {
            throw new IllegalArgumentException("a replay is run-once, not live");
        }
        this.config = config;
        this.kind = kind;
    }

    /** Replays the runs; returns each run's outputs (a run whose records hold no RunFinished has no summary). */
    public Map<String, ReplayResult> run(Set<String> runIds, Duration timeout)
            throws TimeoutException, InterruptedException {
        if (runIds.isEmpty()) {
            throw new IllegalArgumentException("no run to replay");
        }
        Set<String> wanted = Set.copyOf(runIds);
        String replayId = UUID.randomUUID().toString();
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("ssdpulse-replay-");
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a state directory for the replay", e);
        }
        AnalyticsConfig replayConfig = config.withApplicationId(config.applicationId() + kind.idSuffix() + replayId)
                .withStateDir(stateDir);
        TopologyMode mode = TopologyMode.runOnce(kind, "ssdpulse.replay." + replayId + ".", wanted);
        OutputTopics outputs = mode.outputs();
        long deadlineNs = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(AnalyticsApp.adminProps(config));
                KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(
                        RunRecords.consumerProperties(AnalyticsApp.adminProps(config)),
                        new StringDeserializer(),
                        new ByteArrayDeserializer())) {
            createOutputs(admin, outputs);
            Map<TopicPartition, Long> inputEnds = inputEnds(reader, wanted, timeout);
            try (AnalyticsApp app = new AnalyticsApp(replayConfig, mode)) {
                app.start();
                awaitConsumed(admin, reader, replayConfig.applicationId(), inputEnds, deadlineNs, timeout);
            }
            return readOutputs(reader, outputs, wanted, replayConfig.applicationId(), timeout);
        } finally {
            deleteRecursively(stateDir);
            deleteTopics(outputs.all());
        }
    }

    private void createOutputs(Admin admin, OutputTopics outputs) throws InterruptedException {
        int partitions = Math.max(1, Math.min(Topics.DEFAULT_PARTITIONS, config.threads()));
        List<NewTopic> topics = new ArrayList<>();
        for (String t : outputs.all()) {
            topics.add(new NewTopic(t, partitions, (short) 1));
        }
        try {
            admin.createTopics(topics).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot create the replay's output topics: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** End offsets (committed data) of the input partitions that hold the runs: the runs' keys' partitions. */
    private static Map<TopicPartition, Long> inputEnds(
            KafkaConsumer<String, byte[]> reader, Set<String> runIds, Duration timeout) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (String topic : INPUT_TOPICS) {
            List<PartitionInfo> info = reader.partitionsFor(topic, timeout);
            if (info == null || info.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist on this cluster");
            }
            for (String runId : runIds) {
                partitions.add(new TopicPartition(
                        topic, Utils.toPositive(Utils.murmur2(runId.getBytes(StandardCharsets.UTF_8))) % info.size()));
            }
        }
        Map<TopicPartition, Long> ends = new HashMap<>(reader.endOffsets(partitions, timeout));
        ends.values().removeIf(end -> end == 0);
        return ends;
    }

    /** Waits until the replay application's committed offsets reach the recorded ends. */
    private static void awaitConsumed(
            Admin admin,
            KafkaConsumer<String, byte[]> reader,
            String applicationId,
            Map<TopicPartition, Long> ends,
            long deadlineNs,
            Duration timeout)
            throws TimeoutException, InterruptedException {
        Map<TopicPartition, Long> remaining = new HashMap<>(ends);
        while (!remaining.isEmpty()) {
            Map<TopicPartition, OffsetAndMetadata> committed;
            try {
                committed = admin.listConsumerGroupOffsets(applicationId)
                        .partitionsToOffsetAndMetadata()
                        .get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException(
                        "cannot read the replay's progress: " + e.getCause().getMessage(), e.getCause());
            }
            remaining.entrySet().removeIf(e -> {
                OffsetAndMetadata c = committed.get(e.getKey());
                return c != null
                        && (c.offset() >= e.getValue()
                                || onlyMarkersBetween(reader, e.getKey(), c.offset(), e.getValue()));
            });
            if (remaining.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadlineNs) {
                throw new TimeoutException("replay did not consume "
                        + new TreeSet<>(remaining.keySet().stream()
                                .map(TopicPartition::toString)
                                .toList()) + " within " + timeout);
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /**
     * Whether no committed record lies in [from, to): the application commits the offset after the last record
     * it processed, while the end offset also counts the transaction markers after it.
     */
    private static boolean onlyMarkersBetween(
            KafkaConsumer<String, byte[]> reader, TopicPartition partition, long from, long to) {
        reader.assign(List.of(partition));
        reader.seek(partition, from);
        while (reader.position(partition) < to) {
            for (ConsumerRecord<String, byte[]> r : reader.poll(POLL)) {
                if (r.offset() < to) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Every output of the runs, read to the output topics' end offsets, by catalogue topic name. */
    private static Map<String, ReplayResult> readOutputs(
            KafkaConsumer<String, byte[]> reader,
            OutputTopics outputs,
            Set<String> runIds,
            String applicationId,
            Duration timeout) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : outputs.all()) {
            for (PartitionInfo p : reader.partitionsFor(topic, timeout)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
        }
        reader.assign(partitions);
        reader.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = reader.endOffsets(partitions, timeout);
        Map<String, Map<String, List<byte[]>>> datums = new LinkedHashMap<>();
        for (String runId : runIds) {
            datums.put(runId, new LinkedHashMap<>());
        }
        String deadLetter = Topics.DEAD_LETTER.name();
        while (partitions.stream().anyMatch(tp -> reader.position(tp) < ends.get(tp))) {
            for (ConsumerRecord<String, byte[]> r : reader.poll(POLL)) {
                String topic = outputs.catalogueName(r.topic());
                if (r.value() == null || deadLetter.equals(topic) || !runIds.contains(r.key())) {
                    continue;
                }
                datums.get(r.key())
                        .computeIfAbsent(topic, k -> new ArrayList<>())
                        .add(ReplayResult.datum(r.value()));
            }
        }
        Map<String, ReplayResult> out = new LinkedHashMap<>();
        for (String runId : runIds) {
            List<byte[]> summaries = datums.get(runId).getOrDefault(Topics.RUN_SUMMARY.name(), List.of());
            out.put(
                    runId,
                    new ReplayResult(
                            applicationId,
                            datums.get(runId),
                            summaries.isEmpty() ? null : summaries.get(summaries.size() - 1)));
        }
        return out;
    }

    /** Removes a finished replay's output topics (its stores have no changelog topics). */
    private void deleteTopics(List<String> outputTopics) {
        try (Admin admin = Admin.create(AnalyticsApp.adminProps(config))) {
            admin.deleteTopics(outputTopics).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // leftover replay topics are harmless (small, derived); the results were already read back
        }
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }
}
