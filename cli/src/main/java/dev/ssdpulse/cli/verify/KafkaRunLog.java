package dev.ssdpulse.cli.verify;

import dev.ssdpulse.producer.integrity.RunLog;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * A run's log as the verification reads it: the run's events in the I/O topic, streamed again for each pass (a long
 * run's log does not fit memory). The first pass also notes how the run ended (its RunFinished, or its last
 * heartbeat) and batches missing from the log.
 */
final class KafkaRunLog implements RunLog {
    private final Map<String, Object> clientProperties;
    private final SchemaRegistryClient registry;
    private final String runId;
    private final Duration timeout;
    private final LongConsumer progress;
    private boolean scanned;
    private RunFinished finished;
    private Instant lastHeartbeat;
    private long missingBatches;
    private long events;

    /** @param progress told the I/Os read so far, about every million */
    KafkaRunLog(
            Map<String, Object> clientProperties,
            SchemaRegistryClient registry,
            String runId,
            Duration timeout,
            LongConsumer progress) {
        this.clientProperties = clientProperties;
        this.registry = registry;
        this.runId = runId;
        this.timeout = timeout;
        this.progress = progress;
    }

    @Override
    public void stream(Visitor visitor) throws IOException {
        boolean first = !scanned;
        events = 0;
        Map<Integer, Long> nextBatch = new HashMap<>();
        IoBatchReader io = new IoBatchReader();
        long[] ios = {0, 1L << 20};
        try {
            RunRecords.forEach(clientProperties, registry, Topics.IO, runId, timeout, (IoStreamRecord record) -> {
                events++;
                Object event = record.getEvent();
                if (event instanceof IoBatch batch) {
                    if (first) {
                        long expected = nextBatch.getOrDefault(batch.getWorker(), 0L);
                        if (batch.getBatchSequence() > expected) {
                            missingBatches += batch.getBatchSequence() - expected;
                        }
                        nextBatch.put(batch.getWorker(), Math.max(expected, batch.getBatchSequence() + 1));
                    }
                    visit(io.reset(batch), visitor);
                    ios[0] += batch.getIoCount();
                    if (ios[0] >= ios[1]) {
                        progress.accept(ios[0]);
                        ios[1] += 1L << 20;
                    }
                } else if (first && event instanceof RunFinished f) {
                    finished = f;
                } else if (first && event instanceof RunHeartbeat h) {
                    if (lastHeartbeat == null || h.getWallClockEpochMs().isAfter(lastHeartbeat)) {
                        lastHeartbeat = h.getWallClockEpochMs();
                    }
                }
                return true;
            });
        } catch (IllegalStateException e) {
            throw new IOException(
                    "reading the log of run " + runId + " from " + Topics.IO.name() + ": " + e.getMessage(), e);
        }
        scanned = true;
    }

    private static void visit(IoBatchReader io, Visitor visitor) {
        int worker = io.batch().getWorker();
        int phase = io.batch().getPhaseIndex();
        while (io.next()) {
            switch (io.op()) {
                case WRITE ->
                    visitor.write(
                            worker,
                            phase,
                            io.writeSequence(),
                            io.offsetBytes(),
                            io.sizeBytes(),
                            io.submitTimeNs(),
                            io.completionTimeNs(),
                            io.ioFlags(),
                            io.status());
                case FLUSH -> visitor.flush(worker, phase, io.submitTimeNs(), io.completionTimeNs(), io.status());
                case TRIM ->
                    visitor.trim(
                            worker,
                            phase,
                            io.offsetBytes(),
                            io.sizeBytes(),
                            io.submitTimeNs(),
                            io.completionTimeNs(),
                            io.status());
                default -> visitor.other(worker, phase, io.completionTimeNs());
            }
        }
    }

    /** Events of the run read in the last pass; 0 when the topic holds none. */
    long events() {
        return events;
    }

    /** The run's RunFinished, null when the log has none (after the first pass). */
    RunFinished finished() {
        return finished;
    }

    /** Wall-clock time of the run's last heartbeat, null without one (after the first pass). */
    Instant lastHeartbeat() {
        return lastHeartbeat;
    }

    /** I/O batches missing from the log: sequence gaps per worker (after the first pass). */
    long missingBatches() {
        return missingBatches;
    }
}
