package dev.ssdpulse.schemas.iobatch;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerde;
import java.util.List;
import java.util.Map;

/**
 * Micro benchmark (not a test) of the I/O hot path: build 512-I/O batches, serialize them as
 * {@link IoStreamRecord} in the Confluent wire format, deserialize, and read every I/O back as primitives.
 * Single thread. Run with
 * {@code java -cp <test classpath> dev.ssdpulse.schemas.iobatch.IoBatchSerdeBenchmark [seconds per phase]}.
 */
public final class IoBatchSerdeBenchmark {
    private static final String TOPIC = "ssdpulse.io.v1";
    private static final int BATCH = 512;

    private IoBatchSerdeBenchmark() {}

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3.0;
        List<IoBatchRoundTripTest.Io> ios = IoBatchRoundTripTest.ios(BATCH, 42);
        IoBatchBuilder builder = new IoBatchBuilder("bench-run", 0, BATCH);
        IoBatch batch = null;
        for (IoBatchRoundTripTest.Io io : ios) {
            batch = builder.add(
                    io.phase(),
                    (byte) io.op().ordinal(),
                    io.offsetBytes(),
                    io.sizeBytes(),
                    io.submitTimeNs(),
                    io.latencyNs(),
                    io.queueDepth(),
                    io.status());
        }
        IoStreamRecord record = new IoStreamRecord(batch);
        try (SpecificAvroSerde<IoStreamRecord> serde =
                new SpecificAvroSerde<>(IoStreamRecord.class, new InMemorySchemaRegistryClient(), Map.of(), false)) {
            byte[] bytes = serde.serializer().serialize(TOPIC, record);
            System.out.printf(
                    "record: %d I/Os, %d bytes (%.1f bytes/I/O)%n", BATCH, bytes.length, bytes.length / (double) BATCH);
            for (int round = 0; round < 2; round++) {
                String label = round == 0 ? "warm-up " : "measured";
                report(label + " build      ", seconds, () -> build(ios));
                report(label + " serialize  ", seconds, () -> serde.serializer().serialize(TOPIC, record).length);
                report(
                        label + " deserialize",
                        seconds,
                        () -> ((IoBatch) serde.deserializer()
                                        .deserialize(TOPIC, bytes)
                                        .getEvent())
                                .getIoCount());
                IoBatchReader reader = new IoBatchReader();
                report(label + " deser+read ", seconds, () -> {
                    reader.reset((IoBatch)
                            serde.deserializer().deserialize(TOPIC, bytes).getEvent());
                    long sum = 0;
                    while (reader.next()) {
                        sum += reader.latencyNs() + reader.completionTimeNs() + reader.sizeBytes();
                    }
                    return sum;
                });
                report(
                        label + " ser+deser  ",
                        seconds,
                        () -> serde.deserializer()
                                .deserialize(TOPIC, serde.serializer().serialize(TOPIC, record))
                                .hashCode());
            }
        }
    }

    private static long build(List<IoBatchRoundTripTest.Io> ios) {
        IoBatchBuilder builder = new IoBatchBuilder("bench-run", 0, BATCH);
        IoBatch cut = null;
        for (int i = 0; i < ios.size(); i++) {
            IoBatchRoundTripTest.Io io = ios.get(i);
            cut = builder.add(
                    3,
                    (byte) (i & 3),
                    io.offsetBytes(),
                    io.sizeBytes(),
                    io.submitTimeNs(),
                    io.latencyNs(),
                    io.queueDepth(),
                    io.status());
        }
        return cut.getIoCount();
    }

    private interface Op {
        long run();
    }

    private static void report(String label, double seconds, Op op) {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long batches = 0;
        long sink = 0;
        long start = System.nanoTime();
        long now;
        do {
            for (int i = 0; i < 64; i++) {
                sink += op.run();
            }
            batches += 64;
            now = System.nanoTime();
        } while (now < deadline);
        double elapsedS = (now - start) / 1e9;
        System.out.printf(
                "%s: %8.0f batches/s = %6.2f M I/Os/s   (sink %d)%n",
                label, batches / elapsedS, batches * BATCH / elapsedS / 1e6, sink & 1);
    }
}
