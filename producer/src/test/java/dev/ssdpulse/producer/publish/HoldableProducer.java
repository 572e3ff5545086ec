package dev.ssdpulse.producer.publish;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A {@link MockProducer} with the real serializers (a record Avro cannot serialise fails in {@code send}, as with
 * Kafka) whose {@code send} of I/O batches can be held, as KafkaProducer's blocks when the broker stops answering
 * and its buffer is full. Only I/O batches are held, so a heartbeat the sender thread happens to send at the
 * same moment never takes the place of the batch a test waits to see stuck.
 */
public final class HoldableProducer extends MockProducer<String, SpecificRecord> {
    private volatile CountDownLatch release;
    private volatile boolean holding;

    public HoldableProducer(boolean autoComplete) {
        super(
                autoComplete,
                null,
                new StringSerializer(),
                new SpecificAvroSerializer<>(
                        new InMemorySchemaRegistryClient(), Map.of("auto.register.schemas", true), false));
    }

    /** From now on, a send of an I/O batch blocks until {@link #release()}. */
    public void holdIoBatches() {
        release = new CountDownLatch(1);
    }

    /** Lets every held and later send through. */
    public void release() {
        CountDownLatch r = release;
        release = null;
        if (r != null) {
            r.countDown();
        }
    }

    /** A send of an I/O batch is blocked in {@link #send} right now. */
    public boolean holding() {
        return holding;
    }

    // Not synchronized, unlike MockProducer's: a held send must not lock history() and the other accessors.
    @Override
    public Future<RecordMetadata> send(ProducerRecord<String, SpecificRecord> record, Callback callback) {
        CountDownLatch r = release;
        if (r != null && record.value() instanceof IoStreamRecord io && io.getEvent() instanceof IoBatch) {
            holding = true;
            try {
                r.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                holding = false;
            }
        }
        return super.send(record, callback);
    }

    /** The events of the records sent so far to {@code topic}, in order (IoStreamRecords unwrapped). */
    public List<Object> events(String topic) {
        return history().stream()
                .filter(r -> r.topic().equals(topic))
                .map(r -> r.value() instanceof IoStreamRecord io ? io.getEvent() : r.value())
                .collect(Collectors.toList());
    }

    /** The events of type {@code type} sent so far to {@code topic}, in order. */
    public <T> List<T> events(String topic, Class<T> type) {
        return events(topic).stream().filter(type::isInstance).map(type::cast).collect(Collectors.toList());
    }
}
