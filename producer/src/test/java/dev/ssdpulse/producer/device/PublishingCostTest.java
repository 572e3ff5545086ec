package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadAvro;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.RoundRobinPartitioner;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Item 3 of issue 16: publishing never steals the I/O path. The device runner drives the queued null engine (no
 * storage: the runner, the sink and the publisher are all there is to measure, the harshest case) into a real
 * {@link RunPublisher} whose Kafka producer is a {@link MockProducer} serialising every record with the real Avro
 * serializer (registry in memory). Measured: CPU per I/O in the process with and without publishing (with
 * {@code --overflow block}, so every I/O is published and paid for), and the IOPS of a run whose broker stalls
 * ({@code send} blocks, as KafkaProducer's does when its buffer is full) under {@code --overflow drop}.
 *
 * <p>Excluded from the cost: lz4 compression and the network, which the real client does on its own I/O thread.
 * Durations: {@code -Dssdpulse.publishCost.seconds} (default 2) per measurement.
 */
class PublishingCostTest {
    private static final long TARGET = 1L << 30;
    private static final long SECONDS = Long.getLong("ssdpulse.publishCost.seconds", 2);

    /** A producer that serialises like the real one and, once stalled, blocks in send until released. */
    static final class StallableProducer extends MockProducer<String, SpecificRecord> {
        volatile CountDownLatch stall;
        final AtomicInteger sends = new AtomicInteger();

        StallableProducer() {
            super(true, new RoundRobinPartitioner(), new StringSerializer(), serializer());
        }

        private static SpecificAvroSerializer<SpecificRecord> serializer() {
            SpecificAvroSerializer<SpecificRecord> s = new SpecificAvroSerializer<>(
                    new InMemorySchemaRegistryClient(), Map.of("auto.register.schemas", true), false);
            return s;
        }

        @Override
        public synchronized Future<RecordMetadata> send(
                ProducerRecord<String, SpecificRecord> record, Callback callback) {
            CountDownLatch s = stall;
            if (s != null) {
                try {
                    s.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            sends.incrementAndGet();
            Future<RecordMetadata> f = super.send(record, callback);
            clear(); // keep no history: a long measurement must not grow the heap
            return f;
        }
    }

    private static WorkloadSpec randomReads(int queueDepth, long seconds) {
        return new WorkloadSpec(
                "publish-cost",
                "4 KiB random read",
                1,
                OptionalLong.of(TARGET),
                List.of(PhaseSpec.builder("test", PhaseKind.TEST)
                        .accessSpec(AccessSpec.of(4096, 100, 100, 100))
                        .queueDepth(queueDepth)
                        .workers(1)
                        .durationNs(seconds * 1_000_000_000L)
                        .build()));
    }

    private static RunStarted runStarted(WorkloadSpec spec) {
        HostFacts facts = new HostFactsCollector().collect(Path.of("."), true, "null-queued");
        return RunStarted.newBuilder()
                .setRunId("publish-cost-" + System.nanoTime())
                .setRunName("publish cost")
                .setProducerKind(ProducerKind.DEVICE)
                .setDevice(facts.toDeviceDescription(Path.of("null"), false, TARGET))
                .setHost(facts.toHostDescription())
                .setWorkload(WorkloadAvro.toDescription(spec, TARGET))
                .setSeed(1)
                .setWallClockStartEpochNs(System.currentTimeMillis() * 1_000_000L)
                .setToolVersion("test")
                .setSmartIntervalNs(10_000_000_000L)
                .build();
    }

    private record Measured(long ios, double iops, double cpuNsPerIo) {}

    private static Measured measure(IoCompletionSink sink, WorkloadSpec spec) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        NullIoEngine engine = NullIoEngine.queued(512, 32);
        engine.open(null, TARGET, true, false);
        long cpu0 = os.getProcessCpuTime();
        DeviceRunResult r = new DeviceRunner(engine, DeviceRunOptions.forTarget(TARGET, false, false))
                .run(spec, sink, DeviceRunListener.NONE);
        long cpuNs = os.getProcessCpuTime() - cpu0;
        PhaseOutcome p = r.phases().get(0);
        return new Measured(p.ios(), p.iops(), cpuNs / (double) Math.max(1, p.ios()));
    }

    private static PublisherConfig config(OverflowPolicy policy) {
        return new PublisherConfig(
                Map.of(),
                PublisherConfig.DEFAULT_MAX_BATCH_IOS,
                64,
                policy,
                Duration.ofSeconds(2),
                Duration.ofMillis(500));
    }

    @Test
    void recordingAndPublishingCostPerIoIsMeasuredAndAStalledBrokerCostsNoIopsWithDrop() throws Exception {
        WorkloadSpec spec = randomReads(32, SECONDS);
        AtomicLong counted = new AtomicLong();
        measure((w, p, op, o, s, t, l, q, st) -> counted.incrementAndGet(), randomReads(32, 1)); // JIT warm-up
        Measured bare = measure((w, p, op, o, s, t, l, q, st) -> counted.incrementAndGet(), spec);

        StallableProducer healthyProducer = new StallableProducer();
        Measured healthy;
        PublishReport healthyReport;
        // BLOCK for the cost: nothing may be dropped, or dropped batches would not be serialised and the cost would
        // read low (the null engine outruns the sender thread; a device does not)
        try (RunPublisher publisher =
                new RunPublisher(healthyProducer, config(OverflowPolicy.BLOCK), runStarted(spec), 1)) {
            healthy = measure(publisher, spec);
            healthyReport = publisher.finish(RunStatus.COMPLETED, null, 0, 60_000);
        }

        StallableProducer stalledProducer = new StallableProducer();
        Measured stalled;
        PublishReport stalledReport;
        try (RunPublisher publisher =
                new RunPublisher(stalledProducer, config(OverflowPolicy.DROP_AND_COUNT), runStarted(spec), 1)) {
            stalledProducer.stall = new CountDownLatch(1); // the broker stops answering after RunStarted
            stalled = measure(publisher, spec);
            stalledProducer.stall.countDown(); // it comes back: RunFinished and what was queued get through
            stalledReport = publisher.finish(RunStatus.COMPLETED, null, 0, 60_000);
        }
        double publishNsPerIo = healthy.cpuNsPerIo() - bare.cpuNsPerIo();
        System.out.printf(
                "publishing cost (null-queued engine, QD32, %d s each): bare %.0f IOPS %.1f ns CPU/IO;"
                        + " publishing %.0f IOPS %.1f ns CPU/IO (+%.1f ns/IO for recording + batching + Avro"
                        + " serialisation); stalled broker with drop %.0f IOPS %.1f ns CPU/IO, %d of %d I/Os not"
                        + " published%n",
                SECONDS,
                bare.iops(),
                bare.cpuNsPerIo(),
                healthy.iops(),
                healthy.cpuNsPerIo(),
                publishNsPerIo,
                stalled.iops(),
                stalled.cpuNsPerIo(),
                stalledReport.ioNotPublished(),
                stalledReport.ioCompleted());

        assertThat(healthyReport.complete()).as(healthyReport.toString()).isTrue();
        assertThat(healthyReport.ioCompleted()).isEqualTo(healthy.ios());
        // A stalled broker costs the I/O path nothing: the run is at least as fast as with a healthy broker (it
        // serialises nothing while dropping), within the noise of a shared machine.
        assertThat(stalled.iops()).isGreaterThan(0.7 * healthy.iops());
        // Every I/O is accounted for: published or counted as not published, none silently lost.
        assertThat(stalledReport.ioCompleted()).isEqualTo(stalled.ios());
        assertThat(stalledReport.ioNotPublished())
                .as("the full hand-off queue dropped batches")
                .isPositive();
        assertThat(stalledReport.ioPublished() + stalledReport.ioNotPublished()).isEqualTo(stalledReport.ioCompleted());
        // Far below a device I/O's cost (microseconds): recording and publishing are not what limits a run.
        assertThat(publishNsPerIo).isLessThan(2_000);
    }
}
