package dev.ssdpulse.producer.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.schemas.topics.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link RunPublisher} against Kafka's {@link org.apache.kafka.clients.producer.MockProducer} (through
 * {@link HoldableProducer}): what is sent where, keyed how and in which order, what each overflow policy does
 * when Kafka stalls, how failed sends and dropped I/Os are reported (PublishReport, heartbeats, RunFinished),
 * and what finish and close do. The overflow cases are made deterministic by holding the sender thread in
 * {@code send}, never by timing.
 */
class RunPublisherTest {
    private static final String RUN_ID = "publisher-test";
    private static final long TARGET_BYTES = 1L << 30;
    /** Longer than any test: no heartbeat or linger flush happens unless a test asks for one. */
    private static final Duration NEVER = Duration.ofHours(1);

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static RunStarted runStarted() {
        WorkloadSpec spec = new WorkloadSpec(
                "publisher-test",
                "4 KiB random read",
                1,
                OptionalLong.of(TARGET_BYTES),
                List.of(PhaseSpec.builder("test", PhaseKind.TEST)
                        .accessSpec(AccessSpec.of(4096, 100, 100, 100))
                        .queueDepth(1)
                        .workers(1)
                        .durationNs(1_000_000_000L)
                        .build()));
        HostFacts facts = new HostFactsCollector().collect(Path.of("."), true, "null");
        return RunStarted.newBuilder()
                .setRunId(RUN_ID)
                .setRunName("publisher test")
                .setProducerKind(ProducerKind.DEVICE)
                .setDevice(facts.toDeviceDescription(Path.of("null"), false, TARGET_BYTES))
                .setHost(facts.toHostDescription())
                .setWorkload(WorkloadAvro.toDescription(spec, TARGET_BYTES))
                .setSeed(1)
                .setWallClockStartEpochNs(1_700_000_000_000_000_000L)
                .setToolVersion("test")
                .build();
    }

    private static PublisherConfig config(
            OverflowPolicy policy, int maxBatchIos, int queueCapacity, Duration heartbeatInterval) {
        return new PublisherConfig(Map.of(), maxBatchIos, queueCapacity, policy, heartbeatInterval, NEVER);
    }

    /** I/O number {@code n} of {@code worker}: a 4 KiB read at offset n * 4 KiB, submitted at n us, 10 us latency. */
    private static void io(RunPublisher publisher, int worker, int phase, int n) {
        publisher.onIoCompleted(worker, phase, IoOpCode.READ, n * 4096L, 4096, n * 1_000L, 10_000L, 1, 0);
    }

    private static PhaseChanged phase(int index) {
        return new PhaseChanged(
                RUN_ID, index, "phase-" + index, dev.ssdpulse.schemas.avro.PhaseKind.TEST, index * 1_000_000L);
    }

    private static SmartSample smart() {
        return SmartSample.newBuilder()
                .setRunId(RUN_ID)
                .setTimeNs(5_000L)
                .setSource(SmartSource.NONE)
                .build();
    }

    private static RunFinished runFinished(HoldableProducer producer) {
        List<RunFinished> finished = producer.events(Topics.IO.name(), RunFinished.class);
        assertThat(finished).hasSize(1);
        return finished.get(0);
    }

    @Test
    void publishesEveryEventKindToItsTopicKeyedByRunIdInOrder() {
        HoldableProducer producer = new HoldableProducer(true);
        RunPublisher publisher =
                new RunPublisher(producer, config(OverflowPolicy.BLOCK, 2, 16, NEVER), runStarted(), 2);
        publisher.phaseChanged(phase(0));
        for (int n = 0; n < 5; n++) {
            io(publisher, 0, 0, n);
        }
        io(publisher, 1, 0, 100);
        publisher.publishSmart(smart());
        publisher.phaseChanged(phase(1));
        publisher.onIoCompleted(0, 1, IoOpCode.WRITE, 0L, 8192, 2_000_000L, 20_000L, 1, 0);
        publisher.onIoCompleted(0, 1, IoOpCode.TRIM, 0L, 1 << 20, 2_100_000L, 30_000L, 1, 0);
        PublishReport report = publisher.finish(RunStatus.COMPLETED, null, 3_000_000L, 10_000);

        List<ProducerRecord<String, SpecificRecord>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::key).containsOnly(RUN_ID);
        assertThat(sent.get(0).topic()).as("RunStarted first, synchronously").isEqualTo(Topics.RUNS.name());
        assertThat(sent.get(0).value()).isInstanceOf(RunStarted.class);
        assertThat(producer.events(Topics.RUNS.name())).hasSize(1);
        assertThat(producer.events(Topics.SMART.name())).containsExactly(smart());

        List<Object> io = producer.events(Topics.IO.name());
        // full batches of 2 as they fill, then each worker's partial batch before the phase change that ends them
        assertThat(io)
                .extracting(e -> e.getClass().getSimpleName())
                .containsExactly(
                        "RunHeartbeat",
                        "PhaseChanged",
                        "IoBatch",
                        "IoBatch",
                        "IoBatch",
                        "IoBatch",
                        "PhaseChanged",
                        "IoBatch",
                        "RunFinished");
        List<IoBatch> batches = producer.events(Topics.IO.name(), IoBatch.class);
        assertThat(batches).extracting(IoBatch::getWorker).containsExactly(0, 0, 0, 1, 0);
        assertThat(batches).extracting(IoBatch::getIoCount).containsExactly(2, 2, 1, 1, 2);
        assertThat(batches).extracting(IoBatch::getBatchSequence).containsExactly(0L, 1L, 2L, 0L, 3L);
        assertThat(batches).extracting(IoBatch::getFirstIoSequence).containsExactly(0L, 2L, 4L, 0L, 5L);
        assertThat(batches).extracting(IoBatch::getPhaseIndex).containsExactly(0, 0, 0, 0, 1);
        assertThat(batches.get(0).getOffsetBytes()).containsExactly(0L, 4096L);
        assertThat(producer.events(Topics.IO.name(), PhaseChanged.class)).containsExactly(phase(0), phase(1));

        RunHeartbeat first =
                producer.events(Topics.IO.name(), RunHeartbeat.class).get(0);
        assertThat(first.getRunId()).isEqualTo(RUN_ID);
        assertThat(first.getIoCompleted()).isZero();

        RunFinished finished = runFinished(producer);
        assertThat(finished.getStatus()).isEqualTo(RunStatus.COMPLETED);
        assertThat(finished.getTimeNs()).isEqualTo(3_000_000L);
        assertThat(finished.getIoCount()).isEqualTo(8);
        assertThat(finished.getIoCountPerWorker()).containsExactly(7L, 1L);
        assertThat(finished.getBatchCountPerWorker()).containsExactly(4L, 1L);
        assertThat(finished.getBytesRead()).isEqualTo(6 * 4096L);
        assertThat(finished.getBytesWritten()).isEqualTo(8192L);
        assertThat(finished.getBytesTrimmed()).isEqualTo(1L << 20);
        assertThat(finished.getIoNotPublished()).isZero();

        assertThat(report).isEqualTo(new PublishReport(8, 8, 0, sent.size(), 0, 0, null));
        assertThat(report.complete()).isTrue();
        assertThat(publisher.lagIos()).isZero();
    }

    @Test
    void dropAndCountNeverStallsTheIoPathAndCountsWhatItDropsInHeartbeatsRunFinishedAndTheReport() {
        HoldableProducer producer = new HoldableProducer(true);
        // one I/O per batch, one queued record: the sender holds batch 0 in send, batch 1 fills the queue
        RunPublisher publisher = new RunPublisher(
                producer, config(OverflowPolicy.DROP_AND_COUNT, 1, 1, Duration.ofMillis(20)), runStarted(), 1);
        producer.holdIoBatches();
        io(publisher, 0, 0, 0);
        await().atMost(WAIT).until(producer::holding);
        io(publisher, 0, 0, 1);
        // both return at once although Kafka does not answer: dropped and counted
        io(publisher, 0, 0, 2);
        io(publisher, 0, 0, 3);
        publisher.publishSmart(smart());

        PublishReport during = publisher.report();
        assertThat(during.ioCompleted()).isEqualTo(4);
        assertThat(during.ioNotPublished()).isEqualTo(2);
        assertThat(during.recordsFailed())
                .as("the dropped SMART sample carries no I/O")
                .isEqualTo(1);
        assertThat(during.queuedRecords()).isEqualTo(1);
        assertThat(publisher.lagIos()).as("batch 0 in flight, batch 1 queued").isEqualTo(2);

        producer.release();
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(producer.events(Topics.IO.name(), RunHeartbeat.class))
                        .as("a heartbeat after the stall reports the drop")
                        .anySatisfy(h -> {
                            assertThat(h.getIoCompleted()).isEqualTo(4);
                            assertThat(h.getIoPublished()).isEqualTo(2);
                            assertThat(h.getIoNotPublished()).isEqualTo(2);
                        }));
        PublishReport report = publisher.finish(RunStatus.COMPLETED, null, 4_000_000L, 10_000);

        assertThat(producer.events(Topics.IO.name(), IoBatch.class))
                .extracting(IoBatch::getFirstIoSequence)
                .as("what was published, in order; the dropped I/Os leave a gap the consumer can see")
                .containsExactly(0L, 1L);
        assertThat(producer.events(Topics.SMART.name())).isEmpty();
        RunFinished finished = runFinished(producer);
        assertThat(finished.getIoCount()).isEqualTo(4);
        assertThat(finished.getIoNotPublished()).isEqualTo(2);
        assertThat(report.ioCompleted()).isEqualTo(4);
        assertThat(report.ioPublished()).isEqualTo(2);
        assertThat(report.ioNotPublished()).isEqualTo(2);
        assertThat(report.recordsFailed()).isEqualTo(1);
        assertThat(report.failure()).as("a drop is not a Kafka error").isNull();
        assertThat(report.complete()).isFalse();
    }

    @Test
    void blockStallsTheIoPathUntilKafkaTakesTheBatchAndLosesNothing() throws Exception {
        HoldableProducer producer = new HoldableProducer(true);
        RunPublisher publisher = new RunPublisher(producer, config(OverflowPolicy.BLOCK, 1, 1, NEVER), runStarted(), 1);
        producer.holdIoBatches();
        io(publisher, 0, 0, 0);
        await().atMost(WAIT).until(producer::holding);
        io(publisher, 0, 0, 1);
        Thread worker = new Thread(() -> io(publisher, 0, 0, 2), "blocked-worker");
        worker.start();
        await().atMost(WAIT).until(() -> worker.getState() == Thread.State.WAITING);
        assertThat(publisher.report().ioNotPublished()).isZero();

        producer.release();
        worker.join(WAIT.toMillis());
        assertThat(worker.isAlive())
                .as("the worker's I/O was queued once Kafka took a batch")
                .isFalse();
        PublishReport report = publisher.finish(RunStatus.COMPLETED, null, 3_000_000L, 10_000);

        assertThat(producer.events(Topics.IO.name(), IoBatch.class))
                .extracting(IoBatch::getFirstIoSequence)
                .containsExactly(0L, 1L, 2L);
        assertThat(runFinished(producer).getIoNotPublished()).isZero();
        assertThat(report.ioPublished()).isEqualTo(3);
        assertThat(report.complete()).isTrue();
    }

    /**
     * Builds a publisher on a producer that completes nothing by itself: RunStarted and the first heartbeat are
     * acknowledged here.
     */
    private static RunPublisher startManually(HoldableProducer producer, PublisherConfig config) {
        CompletableFuture<RunPublisher> started =
                CompletableFuture.supplyAsync(() -> new RunPublisher(producer, config, runStarted(), 1));
        for (int record = 1; record <= 2; record++) {
            int sent = record;
            await().atMost(WAIT).until(() -> producer.history().size() == sent);
            assertThat(producer.completeNext()).isTrue();
        }
        return started.join();
    }

    @Test
    void aSendKafkaRejectsIsCountedAsNotPublishedAndItsErrorReported() {
        HoldableProducer producer = new HoldableProducer(false);
        RunPublisher publisher = startManually(producer, config(OverflowPolicy.DROP_AND_COUNT, 2, 16, NEVER));
        for (int n = 0; n < 4; n++) {
            io(publisher, 0, 0, n);
        }
        await().atMost(WAIT).until(() -> producer.history().size() == 4);
        assertThat(producer.errorNext(new IllegalStateException("broker says no")))
                .isTrue();
        assertThat(producer.completeNext()).isTrue();
        assertThat(publisher.report().ioNotPublished()).isEqualTo(2);

        PublishReport report = publisher.finish(RunStatus.COMPLETED, null, 4_000_000L, 10_000);

        assertThat(runFinished(producer).getIoNotPublished())
                .as("RunFinished carries the rejected I/Os")
                .isEqualTo(2);
        assertThat(report.ioCompleted()).isEqualTo(4);
        assertThat(report.ioPublished()).isEqualTo(2);
        assertThat(report.ioNotPublished()).isEqualTo(2);
        assertThat(report.recordsFailed()).isEqualTo(1);
        assertThat(report.failure()).contains("broker says no");
        assertThat(report.complete()).isFalse();
    }

    @Test
    void aRunStartKafkaRejectsFailsTheConstructorBeforeAnyIo() {
        HoldableProducer producer = new HoldableProducer(false);
        CompletableFuture<RunPublisher> started = CompletableFuture.supplyAsync(
                () -> new RunPublisher(producer, config(OverflowPolicy.DROP_AND_COUNT, 2, 16, NEVER), runStarted(), 1));
        await().atMost(WAIT).until(() -> producer.history().size() == 1);
        assertThat(producer.errorNext(new IllegalStateException("no such topic")))
                .isTrue();

        assertThatThrownBy(started::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOf(PublishException.class)
                .hasMessageContaining("could not publish the start of run " + RUN_ID)
                .hasMessageContaining("no such topic");
        assertThat(producer.history())
                .as("nothing after the refused RunStarted")
                .hasSize(1);
    }

    @Test
    void aSlowRunsPartialBatchIsPublishedAfterTheLinger() {
        HoldableProducer producer = new HoldableProducer(true);
        // a zero linger: the second clock check (every 16th I/O) flushes whatever the builder holds
        RunPublisher publisher = new RunPublisher(
                producer,
                new PublisherConfig(Map.of(), 512, 16, OverflowPolicy.BLOCK, NEVER, Duration.ZERO),
                runStarted(),
                1);
        for (int n = 0; n < 32; n++) {
            io(publisher, 0, 0, n);
        }
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(producer.events(Topics.IO.name(), IoBatch.class))
                        .extracting(IoBatch::getIoCount)
                        .containsExactly(32));
        publisher.finish(RunStatus.COMPLETED, null, 32_000L, 10_000);
    }

    /**
     * The run is complete up to the lowest time the phase's workers report, announced when it passes a whole second,
     * in a heartbeat sent after every batch those reports cover: a consumer that has read the heartbeat has every I/O
     * completing before its time.
     */
    @Test
    void aHeartbeatSaysHowFarEveryWorkerIsCompleteAfterTheBatchesItCovers() {
        HoldableProducer producer = new HoldableProducer(true);
        RunPublisher publisher = new RunPublisher(
                producer,
                new PublisherConfig(Map.of(), 512, 64, OverflowPolicy.BLOCK, NEVER, Duration.ofMillis(5)),
                runStarted(),
                3);
        publisher.phaseChanged(phase(0), 2); // two of the run's three workers take part
        for (int n = 0; n < 10; n++) {
            io(publisher, 0, 0, n);
            io(publisher, 1, 0, n);
        }
        // worker 0 is complete up to 50 us, worker 1 up to 30 us: the run up to 30 us; worker 2 is not in the phase
        publisher.completedThrough(0, 2_500_000_000L);
        publisher.completedThrough(1, 1_500_000_000L);
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(completeUpTo(producer)).contains(1_500_000_000L));
        List<Object> io = producer.events(Topics.IO.name());
        int beat = io.size() - 1;
        for (int i = 0; i < io.size(); i++) {
            if (io.get(i) instanceof RunHeartbeat h
                    && Long.valueOf(1_500_000_000L).equals(h.getCompleteUpToNs())) {
                beat = i;
                break;
            }
        }
        long iosBefore = io.subList(0, beat).stream()
                .filter(e -> e instanceof IoBatch)
                .mapToLong(e -> ((IoBatch) e).getIoCount())
                .sum();
        assertThat(iosBefore)
                .as("every I/O both workers reported went before the heartbeat")
                .isEqualTo(20);

        // within the same second nothing more is announced; the next second is
        publisher.completedThrough(1, 1_900_000_000L);
        publisher.completedThrough(1, 3_200_000_000L);
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(completeUpTo(producer)).contains(2_500_000_000L));
        assertThat(completeUpTo(producer)).doesNotContain(1_900_000_000L);
        publisher.finish(RunStatus.COMPLETED, null, 100_000L, 10_000);
        assertThat(producer.events(Topics.IO.name())
                        .get(producer.events(Topics.IO.name()).size() - 1))
                .as("nothing after RunFinished")
                .isInstanceOf(RunFinished.class);
    }

    private static List<Long> completeUpTo(HoldableProducer producer) {
        return producer.events(Topics.IO.name(), RunHeartbeat.class).stream()
                .map(RunHeartbeat::getCompleteUpToNs)
                .filter(t -> t != null)
                .toList();
    }

    @Test
    void everyHeartbeatOfAGroupMemberNamesItsGroupMemberHostAndStart() {
        HoldableProducer producer = new HoldableProducer(true);
        RunStarted started = RunStarted.newBuilder(runStarted())
                .setGroup("lab")
                .setMember("host-a nvme0n1")
                .build();
        RunPublisher publisher =
                new RunPublisher(producer, config(OverflowPolicy.BLOCK, 512, 16, Duration.ofMillis(5)), started, 1);
        await().atMost(WAIT)
                .until(() ->
                        producer.events(Topics.IO.name(), RunHeartbeat.class).size() >= 2);
        publisher.finish(RunStatus.COMPLETED, null, 0L, 10_000);
        assertThat(producer.events(Topics.IO.name()).get(0))
                .as("the first event of the run")
                .isInstanceOf(RunHeartbeat.class);
        assertThat(producer.events(Topics.IO.name(), RunHeartbeat.class)).allSatisfy(h -> {
            assertThat(h.getMembership().getGroup()).isEqualTo("lab");
            assertThat(h.getMembership().getMember()).isEqualTo("host-a nvme0n1");
            assertThat(h.getMembership().getHost()).isEqualTo(started.getHost().getHostname());
            assertThat(h.getMembership().getRunStart().toEpochMilli()).isEqualTo(1_700_000_000_000L);
        });
    }

    @Test
    void closeBeforeFinishPublishesAnAbortedRunWithItsPendingIosAndLeavesTheProducerToItsOwner() {
        HoldableProducer producer = new HoldableProducer(true);
        RunPublisher publisher =
                new RunPublisher(producer, config(OverflowPolicy.BLOCK, 512, 16, NEVER), runStarted(), 1);
        io(publisher, 0, 0, 0);
        io(publisher, 0, 0, 1);
        publisher.close();

        assertThat(producer.events(Topics.IO.name(), IoBatch.class))
                .extracting(IoBatch::getIoCount)
                .containsExactly(2);
        RunFinished finished = runFinished(producer);
        assertThat(finished.getStatus()).isEqualTo(RunStatus.ABORTED);
        assertThat(finished.getReason()).isEqualTo("publisher closed before the run finished");
        assertThat(finished.getIoCount()).isEqualTo(2);
        assertThat(finished.getTimeNs())
                .as("the run ends at its last I/O's completion")
                .isEqualTo(11_000L);
        assertThat(producer.flushed()).isTrue();
        assertThat(producer.closed()).isFalse();
    }

    @Test
    void finishIsOnceAndCloseAfterItPublishesNothingMore() {
        HoldableProducer producer = new HoldableProducer(true);
        RunPublisher publisher =
                new RunPublisher(producer, config(OverflowPolicy.BLOCK, 512, 16, NEVER), runStarted(), 1);
        publisher.finish(RunStatus.COMPLETED, null, 0L, 10_000);
        int sent = producer.history().size();

        assertThatThrownBy(() -> publisher.finish(RunStatus.COMPLETED, null, 0L, 10_000))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already finished");
        publisher.close();
        assertThat(producer.history()).hasSize(sent);
        assertThat(producer.closed()).isFalse();
    }
}
