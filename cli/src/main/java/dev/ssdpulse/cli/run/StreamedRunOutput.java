package dev.ssdpulse.cli.run;

import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A run published to Kafka through a {@link RunPublisher}: RunStarted now (so an unreachable broker or
 * registry fails before any I/O), then every event, RunFinished at {@link #finish}. Missing topics are
 * created first.
 */
public final class StreamedRunOutput implements RunOutput, AutoCloseable {
    private final String runId;
    private final HttpSchemaRegistryClient registry;
    private final Producer<String, SpecificRecord> producer;
    private final RunPublisher publisher;
    private final PrintWriter out;

    /**
     * @param clientProperties Kafka client properties with the registry's among them ({@code schema.registry.url},
     *                         its credentials and timeouts), as the command's Kafka options resolve them
     */
    public StreamedRunOutput(
            Map<String, Object> clientProperties,
            RunStarted started,
            int maxWorkers,
            OverflowPolicy overflow,
            int batchIos,
            PrintWriter out) {
        Map<String, Object> props = new HashMap<>(clientProperties);
        TopicSetup.ensure(props, Topics.all());
        this.runId = started.getRunId();
        this.out = out;
        this.registry = HttpSchemaRegistryClient.fromConfig(props);
        this.producer = RunProducers.create(props, registry);
        try {
            this.publisher = new RunPublisher(
                    producer, PublisherConfig.defaults(props, overflow).withMaxBatchIos(batchIos), started, maxWorkers);
        } catch (RuntimeException e) {
            producer.close();
            registry.close();
            throw e;
        }
    }

    @Override
    public String runId() {
        return runId;
    }

    public RunPublisher publisher() {
        return publisher;
    }

    @Override
    public void runTimeOriginMoved(long shiftNs) {
        publisher.runTimeOriginMoved(shiftNs);
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        publisher.onIoCompleted(
                worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {
        publisher.onIoCompleted(
                worker,
                phaseIndex,
                op,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                writeSequence,
                ioFlags);
    }

    @Override
    public void completedThrough(int worker, long runTimeNs) {
        publisher.completedThrough(worker, runTimeNs);
    }

    @Override
    public void phaseStarted(ScheduledPhase phase, long timeNs) {
        publisher.phaseChanged(
                new PhaseChanged(
                        runId,
                        phase.index(),
                        phase.name(),
                        PhaseKind.valueOf(phase.phase().kind().name()),
                        timeNs),
                phase.phase().workers());
    }

    @Override
    public void replayFinished(ReplayResult result) {
        publisher.replayFinished(result);
    }

    @Override
    public void smart(SmartSample sample) {
        publisher.publishSmart(sample);
    }

    @Override
    public void verification(WriteVerification verification) {
        try {
            producer.send(new ProducerRecord<>(Topics.WRITE_VERIFICATION.name(), runId, verification))
                    .get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing the verification", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not publish the verification to " + Topics.WRITE_VERIFICATION.name() + ": " + e, e);
        }
        out.printf("verification recorded in %s%n", Topics.WRITE_VERIFICATION.name());
        out.flush();
    }

    @Override
    public int finish(RunStatus status, String reason, long durationNs) {
        PublishReport report = publisher.finish(status, reason, durationNs, 120_000);
        out.printf(
                "run %s: %s, %,d I/Os, %,d published to %s, %,d not published%s%n",
                runId,
                status,
                report.ioCompleted(),
                report.ioPublished(),
                Topics.IO.name(),
                report.ioNotPublished(),
                report.failure() == null ? "" : "; first error: " + report.failure());
        out.flush();
        if (!report.complete()) {
            return 1;
        }
        return status == RunStatus.COMPLETED ? 0 : status == RunStatus.ABORTED ? 130 : 1;
    }

    @Override
    public void close() {
        producer.close();
        registry.close();
    }
}
