package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.publish.HoldableProducer;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.topics.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A device run with the device command's default policy, {@link OverflowPolicy#DROP_AND_COUNT}, whose broker stops
 * answering: the null engine's I/O path runs to the end of its byte budget, and every I/O the publisher could not
 * hand to Kafka is counted, in heartbeats, in RunFinished and in the report. Deterministic: the sender is held in
 * send once it has taken the first batch, so exactly three batches (the held one and a full queue of two) get
 * through and the rest are dropped.
 */
class DeviceRunDropAndCountTest {
    private static final long TARGET_BYTES = 64L << 20;
    private static final int BATCH_IOS = 16;
    private static final int QUEUE_CAPACITY = 2;
    private static final long RUN_IOS = 1024; // 4 MiB of 4 KiB reads

    @Test
    void aStalledBrokerCostsTheRunNothingAndEveryDroppedIoIsCounted() {
        WorkloadSpec spec = new WorkloadSpec(
                "drop",
                "4 KiB random read",
                1,
                OptionalLong.of(TARGET_BYTES),
                List.of(PhaseSpec.builder("read", PhaseKind.TEST)
                        .accessSpec(AccessSpec.of(4096, 100, 100, 100))
                        .queueDepth(1)
                        .workers(1)
                        .totalBytes(Amount.ofBytes(RUN_IOS * 4096))
                        .build()));
        HostFacts facts = new HostFactsCollector().collect(Path.of("."), true, "null");
        RunStarted started = RunStarted.newBuilder()
                .setRunId("drop-and-count")
                .setRunName("drop and count")
                .setProducerKind(ProducerKind.DEVICE)
                .setDevice(facts.toDeviceDescription(Path.of("null"), false, TARGET_BYTES))
                .setHost(facts.toHostDescription())
                .setWorkload(WorkloadAvro.toDescription(spec, TARGET_BYTES))
                .setSeed(1)
                .setWallClockStartEpochNs(1_700_000_000_000_000_000L)
                .setToolVersion("test")
                .build();
        PublisherConfig config = new PublisherConfig(
                Map.of(),
                BATCH_IOS,
                QUEUE_CAPACITY,
                OverflowPolicy.DROP_AND_COUNT,
                Duration.ofMillis(20),
                Duration.ofHours(1));
        HoldableProducer producer = new HoldableProducer(true);
        NullIoEngine engine = new NullIoEngine();
        engine.open(null, TARGET_BYTES, true, true);

        DeviceRunResult result;
        PublishReport report;
        try (RunPublisher publisher = new RunPublisher(producer, config, started, 1)) {
            producer.holdIoBatches();
            AtomicLong delivered = new AtomicLong();
            result = new DeviceRunner(engine, DeviceRunOptions.forTarget(TARGET_BYTES, false, false))
                    .run(
                            spec,
                            (w, p, op, off, size, t, lat, qd, st) -> {
                                publisher.onIoCompleted(w, p, op, off, size, t, lat, qd, st);
                                if (delivered.incrementAndGet() == BATCH_IOS) {
                                    // the first batch is complete: let the sender take it and stall on it
                                    await().atMost(Duration.ofSeconds(30)).until(producer::holding);
                                }
                            },
                            DeviceRunListener.NONE);
            long accepted = (1 + QUEUE_CAPACITY) * BATCH_IOS;
            assertThat(publisher.report().ioNotPublished())
                    .as("dropped while the run went on")
                    .isEqualTo(RUN_IOS - accepted);

            producer.release();
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(producer.events(Topics.IO.name(), RunHeartbeat.class))
                            .anySatisfy(h -> {
                                assertThat(h.getIoCompleted()).isEqualTo(RUN_IOS);
                                assertThat(h.getIoNotPublished()).isEqualTo(RUN_IOS - accepted);
                            }));
            report = publisher.finish(RunStatus.COMPLETED, null, result.elapsedNs(), 30_000);
        }

        assertThat(result.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        assertThat(result.totalIos())
                .as("the I/O path was never stalled by the broker")
                .isEqualTo(RUN_IOS);
        long published = (1 + QUEUE_CAPACITY) * BATCH_IOS;
        assertThat(producer.events(Topics.IO.name(), IoBatch.class))
                .extracting(IoBatch::getIoCount)
                .containsExactly(BATCH_IOS, BATCH_IOS, BATCH_IOS);
        List<RunFinished> finished = producer.events(Topics.IO.name(), RunFinished.class);
        assertThat(finished).hasSize(1);
        assertThat(finished.get(0).getIoCount()).isEqualTo(RUN_IOS);
        assertThat(finished.get(0).getIoNotPublished()).isEqualTo(RUN_IOS - published);
        assertThat(report.ioCompleted()).isEqualTo(RUN_IOS);
        assertThat(report.ioPublished()).isEqualTo(published);
        assertThat(report.ioNotPublished()).isEqualTo(RUN_IOS - published);
        assertThat(report.ioPublished() + report.ioNotPublished())
                .as("none silently lost")
                .isEqualTo(report.ioCompleted());
        assertThat(report.complete())
                .as("a run with drops is reported incomplete")
                .isFalse();
    }
}
