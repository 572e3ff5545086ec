package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroDeserializer;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A simulated run streamed through the real broker: every simulated I/O is in the io topic exactly once
 * (no gap or repeat in the batch and I/O sequences), in order with its lifecycle events, with RunStarted in
 * the runs topic and SMART samples in the smart topic.
 */
@ExtendWith(KafkaTestEnvironment.class)
class SimulateStreamIT {
    private static TestStack stack;

    @BeforeAll
    static void init(TestStack shared) {
        stack = shared;
    }

    @Test
    void everySimulatedIoIsPublishedExactlyOnceInOrderWithItsLifecycle() throws Exception {
        String runId = "it-sim-" + UUID.randomUUID().toString().substring(0, 8);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute(
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed001-tweakers-continuous",
                "--duration",
                "20s",
                "--set",
                "targetSize=100MB",
                "--run-id",
                runId,
                "--batch-ios",
                "100",
                "--quiet",
                "--bootstrap-servers",
                stack.bootstrapServers(),
                "--schema-registry-url",
                stack.schemaRegistryUrl());
        assertThat(exit).as(err.toString()).isZero();
        Matcher m = Pattern.compile("([\\d,]+) I/Os, ([\\d,]+) published").matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        long simulated = Long.parseLong(m.group(1).replace(",", ""));
        assertThat(Long.parseLong(m.group(2).replace(",", ""))).isEqualTo(simulated);
        assertThat(simulated).isGreaterThan(1000);

        List<SpecificRecord> io = consume(
                Topics.IO.name(), runId, r -> r instanceof IoStreamRecord s && s.getEvent() instanceof RunFinished);
        // the run announces itself on the io topic before anything else (so a producer dying at once still expires)
        assertThat(io.get(0)).isInstanceOf(RunHeartbeat.class);
        assertThat(((RunHeartbeat) io.get(0)).getIoCompleted()).isZero();
        assertThat(io.get(1)).isInstanceOf(PhaseChanged.class);
        assertThat(io.get(io.size() - 1)).isInstanceOf(RunFinished.class);
        RunFinished finished = (RunFinished) io.get(io.size() - 1);
        assertThat(finished.getStatus()).isEqualTo(RunStatus.COMPLETED);
        assertThat(finished.getIoCount()).isEqualTo(simulated);
        assertThat(finished.getIoNotPublished()).isZero();

        Map<Integer, Long> nextBatch = new TreeMap<>();
        Map<Integer, Long> nextIo = new TreeMap<>();
        long ios = 0;
        for (SpecificRecord event : io) {
            if (event instanceof IoBatch batch) {
                int w = batch.getWorker();
                assertThat(batch.getBatchSequence())
                        .as("batch sequence of worker " + w)
                        .isEqualTo(nextBatch.getOrDefault(w, 0L));
                assertThat(batch.getFirstIoSequence())
                        .as("I/O sequence of worker " + w)
                        .isEqualTo(nextIo.getOrDefault(w, 0L));
                nextBatch.put(w, batch.getBatchSequence() + 1);
                nextIo.put(w, batch.getFirstIoSequence() + batch.getIoCount());
                ios += batch.getIoCount();
            }
        }
        assertThat(ios).as("I/O events in the topic").isEqualTo(simulated);
        assertThat(nextIo.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(simulated);

        List<SpecificRecord> runs = consume(Topics.RUNS.name(), runId, r -> true);
        assertThat(runs).hasSize(1);
        assertThat(((RunStarted) runs.get(0)).getWorkload().getName()).isEqualTo("seed001-tweakers-continuous");
        List<SpecificRecord> smart = consume(Topics.SMART.name(), runId, null);
        assertThat(smart).hasSizeGreaterThan(20);
        assertThat(smart)
                .allSatisfy(
                        s -> assertThat(((SmartSample) s).getNandBytesWritten()).isNotNull());
        SmartSample lastSample = (SmartSample) smart.get(smart.size() - 1);
        assertThat(lastSample.getNandBytesWritten()).isGreaterThanOrEqualTo(lastSample.getHostBytesWritten());
    }

    @SuppressWarnings("unchecked")
    private static Class<SpecificRecord> valueType(String topic) {
        return (Class<SpecificRecord>) Topics.require(topic).valueType();
    }

    /**
     * The run's records of a topic, in order, until {@code last} matches one; with {@code last} null, until
     * the topic stays quiet for 3 s after the run's first record.
     */
    private static List<SpecificRecord> consume(String topic, String runId, Predicate<SpecificRecord> last) {
        Map<String, Object> props = Map.of(
                "bootstrap.servers",
                stack.bootstrapServers(),
                "group.id",
                "it-" + UUID.randomUUID(),
                "auto.offset.reset",
                "earliest");
        List<SpecificRecord> out = new ArrayList<>();
        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                var consumer = new KafkaConsumer<>(
                        props, new StringDeserializer(), new SpecificAvroDeserializer<>(valueType(topic), registry))) {
            consumer.subscribe(List.of(topic));
            // "quiet" is a span of real time by definition: the only way to know a topic has no more records
            long[] lastRecordAtNs = {System.nanoTime()};
            // the consumer stays on this thread (KafkaConsumer is single-threaded)
            await("topic " + topic + ": run " + runId + " complete")
                    .atMost(Duration.ofSeconds(60))
                    .pollInSameThread()
                    .pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        var polled = consumer.poll(Duration.ofMillis(200));
                        if (!polled.isEmpty()) {
                            lastRecordAtNs[0] = System.nanoTime();
                        }
                        if (last == null && !out.isEmpty() && System.nanoTime() - lastRecordAtNs[0] > 3_000_000_000L) {
                            return true;
                        }
                        for (var record : polled) {
                            if (!runId.equals(record.key())) {
                                continue;
                            }
                            SpecificRecord value = record.value();
                            SpecificRecord event =
                                    value instanceof IoStreamRecord s ? (SpecificRecord) s.getEvent() : value;
                            out.add(event);
                            if (last != null && last.test(value)) {
                                return true;
                            }
                        }
                        return false;
                    });
            return out;
        }
    }
}
