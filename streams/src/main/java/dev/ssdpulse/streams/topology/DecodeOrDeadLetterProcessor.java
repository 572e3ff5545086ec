package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import dev.ssdpulse.schemas.topics.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * First step after a bytes source: decodes the Avro value (Confluent wire format). A record that cannot be
 * decoded (wrong magic byte, unknown schema id, undecodable payload, anything the deserializer throws) goes,
 * bytes unchanged, to the dead-letter sink with the reason and its origin in {@link DeadLetterHeaders}, is
 * counted in a store (key = source topic) and processing continues. So does a record that decodes but holds
 * values the accumulators would throw on ({@link InputRecordCheck}): left in the stream it would fail the task
 * on every retry. Decoding here rather than in a
 * DeserializationExceptionHandler keeps the dead letter inside the task's transaction under exactly-once.
 * A key filter (replay of one run) drops other runs before any decoding; so does the deleted-runs store when
 * connected.
 *
 * <p>A schema registry that cannot be asked (unreachable, 5xx, 401, 429) says nothing about the record: it is
 * retried a few times, then processing fails with a StreamsException instead of dead-lettering a record that
 * may be valid. Under exactly-once nothing of the failed transaction is committed, so a restart resumes from
 * the record. Only a registry's "not found" (unknown schema id) makes a record poison.
 */
public final class DecodeOrDeadLetterProcessor<V extends SpecificRecord>
        implements Processor<String, byte[], String, Object> {
    static final int REGISTRY_ATTEMPTS = 3;
    private static final long REGISTRY_BACKOFF_MS = 1000;
    private final Deserializer<V> deserializer;
    private final String decodedChild;
    private final String deadLetterChild;
    private final String countStoreName;
    private final String rejectedBy;
    private final Predicate<String> keyFilter;
    private ProcessorContext<String, Object> context;
    private KeyValueStore<String, Long> counts;
    /** Runs deleted by the user, when this decoder was given the store (io and smart in the live app). */
    private KeyValueStore<String, Long> deletedRuns;

    public DecodeOrDeadLetterProcessor(
            Deserializer<V> deserializer,
            String decodedChild,
            String deadLetterChild,
            String countStoreName,
            String rejectedBy,
            Predicate<String> keyFilter) {
        this.deserializer = deserializer;
        this.decodedChild = decodedChild;
        this.deadLetterChild = deadLetterChild;
        this.countStoreName = countStoreName;
        this.rejectedBy = rejectedBy;
        this.keyFilter = keyFilter;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.counts = context.getStateStore(countStoreName);
        try {
            this.deletedRuns = context.getStateStore(Names.DELETED_RUNS_STORE);
        } catch (StreamsException e) {
            // not connected: a replay, or a decoder of another topic, honours no deletion
            this.deletedRuns = null;
        }
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (!keyFilter.test(record.key())) {
            return;
        }
        String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("unknown");
        if (deletedRuns != null && record.key() != null && deletedRuns.get(record.key()) != null) {
            return;
        }
        if (record.value() == null) {
            // a tombstone (compacted topics: a deleted run's RunStarted, a removed marker) goes on as a null value
            context.forward(new Record<String, Object>(record.key(), null, record.timestamp()), decodedChild);
            return;
        }
        V decoded = null;
        for (int attempt = 1; decoded == null; attempt++) {
            try {
                decoded = deserializer.deserialize(topic, record.value());
            } catch (RuntimeException e) {
                if (!registryUnavailable(e)) {
                    deadLetter(record, topic, e.getClass().getName() + ": " + e.getMessage());
                    return;
                }
                if (attempt == REGISTRY_ATTEMPTS) {
                    throw new RegistryUnavailableException(
                            "schema registry unavailable while decoding a record of "
                                    + topic
                                    + " (" + REGISTRY_ATTEMPTS + " attempts): " + e.getMessage()
                                    + "; not dead-lettered, "
                                    + "the record may be valid",
                            e);
                }
                pause(REGISTRY_BACKOFF_MS * attempt);
            }
        }
        String problem = InputRecordCheck.problem(decoded);
        if (problem != null) {
            deadLetter(record, topic, "invalid record: " + problem);
            return;
        }
        context.forward(new Record<String, Object>(record.key(), decoded, record.timestamp()), decodedChild);
    }

    private void deadLetter(Record<String, byte[]> record, String topic, String reason) {
        RecordHeaders headers = new RecordHeaders(record.headers().toArray());
        headers.add(DeadLetterHeaders.REASON, utf8(reason));
        headers.add(DeadLetterHeaders.SOURCE_TOPIC, utf8(topic));
        context.recordMetadata().ifPresent(m -> {
            headers.add(DeadLetterHeaders.SOURCE_PARTITION, utf8(Integer.toString(m.partition())));
            headers.add(DeadLetterHeaders.SOURCE_OFFSET, utf8(Long.toString(m.offset())));
        });
        headers.add(DeadLetterHeaders.REJECTED_BY, utf8(rejectedBy));
        context.forward(
                new Record<String, Object>(record.key(), record.value(), record.timestamp(), headers), deadLetterChild);
        Long n = counts.get(topic);
        counts.put(topic, n == null ? 1L : n + 1);
    }

    /**
     * True when the failure is the registry's, not the record's: no answer, 5xx, or an answer that refuses us
     * (401, 403, 408, 429). "Not found" and an unparsable schema are the record's.
     */
    static boolean registryUnavailable(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof SchemaRegistryException r) {
                int s = r.httpStatus();
                return s == SchemaRegistryException.NO_HTTP_STATUS
                        || s >= 500
                        || s == 401
                        || s == 403
                        || s == 408
                        || s == 429;
            }
        }
        return false;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamsException("interrupted while waiting for the schema registry", e);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
