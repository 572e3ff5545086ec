package dev.ssdpulse.schemas.iobatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerde;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.generic.PrimitivesArrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IoBatchRoundTripTest {
    private static final String TOPIC = "ssdpulse.io.v1";

    /** One I/O as the producer reports it. */
    record Io(
            int phase,
            IoOp op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {}

    /** I/Os in completion order: submit times jump back and forth (negative deltas), extreme values included. */
    static List<Io> ios(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Io> ios = new ArrayList<>();
        long submit = 5_000_000_000_000L;
        for (int i = 0; i < count; i++) {
            // Every third I/O was submitted before its predecessor: a negative delta.
            submit += i % 3 == 2 ? -random.nextLong(1, 200_000) : random.nextLong(0, 400_000);
            long offset = i == 1 ? Long.MAX_VALUE - 4095 : random.nextLong(0, 1L << 41) & ~4095L;
            long latency = i == 2 ? 3_600_000_000_000L : random.nextLong(0, 20_000_000);
            ios.add(new Io(
                    3,
                    IoOp.values()[random.nextInt(4)],
                    offset,
                    i == 3 ? Integer.MAX_VALUE : 4096 << random.nextInt(6),
                    submit,
                    latency,
                    1 + random.nextInt(256),
                    i % 97 == 5 ? 5 : 0));
        }
        return ios;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 512})
    void buildSerializeDeserializeReadGivesBackEveryField(int batchSize) {
        List<Io> ios = ios(batchSize, batchSize);
        IoBatchBuilder builder = new IoBatchBuilder("run-x", 2, batchSize, 10, 1000);
        IoBatch batch = null;
        for (int i = 0; i < ios.size(); i++) {
            Io io = ios.get(i);
            IoBatch cut = builder.add(
                    io.phase(),
                    (byte) io.op().ordinal(),
                    io.offsetBytes(),
                    io.sizeBytes(),
                    io.submitTimeNs(),
                    io.latencyNs(),
                    io.queueDepth(),
                    io.status());
            if (i < ios.size() - 1) {
                assertThat(cut).isNull();
            } else {
                batch = cut;
            }
        }
        assertThat(batch).isNotNull();
        assertThat(batch.getOffsetBytes()).isInstanceOf(PrimitivesArrays.LongArray.class);
        assertThat(batch.getStatus()).isInstanceOf(PrimitivesArrays.IntArray.class);
        if (batchSize > 1) {
            assertThat(batch.getSubmitTimeDeltaNs())
                    .anySatisfy(d -> assertThat(d).isNegative());
        }

        try (SpecificAvroSerde<IoStreamRecord> serde =
                new SpecificAvroSerde<>(IoStreamRecord.class, new InMemorySchemaRegistryClient(), Map.of(), false)) {
            byte[] bytes = serde.serializer().serialize(TOPIC, new IoStreamRecord(batch));
            IoBatch back =
                    (IoBatch) serde.deserializer().deserialize(TOPIC, bytes).getEvent();
            assertThat(back).isEqualTo(batch);
            assertThat(back.getRunId()).isEqualTo("run-x");
            assertThat(back.getWorker()).isEqualTo(2);
            assertThat(back.getBatchSequence()).isEqualTo(10);
            assertThat(back.getFirstIoSequence()).isEqualTo(1000);
            assertThat(back.getPhaseIndex()).isEqualTo(3);
            assertThat(back.getIoCount()).isEqualTo(batchSize);
            for (IoBatch view : List.of(batch, back)) {
                IoBatchReader reader = new IoBatchReader().reset(view);
                for (int i = 0; i < ios.size(); i++) {
                    assertThat(reader.next()).isTrue();
                    Io io = ios.get(i);
                    assertThat(reader.index()).isEqualTo(i);
                    assertThat(reader.ioSequence()).isEqualTo(1000L + i);
                    assertThat(reader.op()).isEqualTo(io.op());
                    assertThat(reader.opOrdinal()).isEqualTo(io.op().ordinal());
                    assertThat(reader.offsetBytes()).isEqualTo(io.offsetBytes());
                    assertThat(reader.sizeBytes()).isEqualTo(io.sizeBytes());
                    assertThat(reader.submitTimeNs()).isEqualTo(io.submitTimeNs());
                    assertThat(reader.latencyNs()).isEqualTo(io.latencyNs());
                    assertThat(reader.completionTimeNs()).isEqualTo(io.submitTimeNs() + io.latencyNs());
                    assertThat(reader.queueDepth()).isEqualTo(io.queueDepth());
                    assertThat(reader.status()).isEqualTo(io.status());
                }
                assertThat(reader.next()).isFalse();
                assertThat(reader.next()).isFalse();
            }
        }
    }

    @Test
    void theStampAndFlagColumnsAreNullUnlessAnIoOfTheBatchCarriesOne() {
        IoBatchBuilder builder = new IoBatchBuilder("run", 0, 2);
        builder.add(0, IoOpCode.WRITE, 0, 4096, 1, 1, 1, 0);
        IoBatch plain = builder.add(0, IoOpCode.READ, 0, 4096, 2, 1, 1, 0);
        assertThat(plain.getWriteSequence()).isNull();
        assertThat(plain.getIoFlags()).isNull();
        builder.add(0, IoOpCode.WRITE, 0, 4096, 3, 1, 1, 0, 5L, IoFlags.NONE);
        IoBatch stampedOnly = builder.add(0, IoOpCode.FLUSH, 0, 0, 4, 1, 1, 0);
        assertThat(stampedOnly.getWriteSequence()).containsExactly(5L, IoFlags.NO_SEQUENCE);
        assertThat(stampedOnly.getIoFlags()).isNull();
    }

    @Test
    void cutsOnPhaseChangeAndCountsSequences() {
        IoBatchBuilder builder = new IoBatchBuilder("run-y", 0, 3);
        List<IoBatch> batches = new ArrayList<>();
        int[] phases = {0, 0, 1, 1, 1, 1, 2};
        for (int i = 0; i < phases.length; i++) {
            IoBatch cut = builder.add(phases[i], IoOp.WRITE, i * 4096L, 4096, 100L * i, 50, 1, 0);
            if (cut != null) {
                batches.add(cut);
            }
        }
        assertThat(builder.pendingCount()).isEqualTo(1);
        assertThat(builder.nextIoSequence()).isEqualTo(7);
        batches.add(builder.flush());
        assertThat(builder.flush()).isNull();
        assertThat(batches).extracting(IoBatch::getPhaseIndex).containsExactly(0, 1, 1, 2);
        assertThat(batches).extracting(IoBatch::getIoCount).containsExactly(2, 3, 1, 1);
        assertThat(batches).extracting(IoBatch::getBatchSequence).containsExactly(0L, 1L, 2L, 3L);
        assertThat(batches).extracting(IoBatch::getFirstIoSequence).containsExactly(0L, 2L, 5L, 6L);
        assertThat(batches).extracting(IoBatch::getBaseSubmitTimeNs).containsExactly(0L, 200L, 500L, 600L);
        assertThat(batches.get(1).getSubmitTimeDeltaNs()).containsExactly(0L, 100L, 100L);
        assertThat(builder.nextBatchSequence()).isEqualTo(4);
    }

    @Test
    void readsBoxedListsToo() {
        IoBatch batch = new IoBatch(
                "run-z",
                1,
                0L,
                0L,
                0,
                2,
                1_000L,
                List.of(IoOp.READ, IoOp.TRIM),
                List.of(0L, 8192L),
                List.of(4096, 1 << 20),
                List.of(0L, -300L),
                List.of(900L, 10L),
                List.of(2, 1),
                List.of(0, 0),
                null,
                null);
        IoBatchReader reader = new IoBatchReader().reset(batch);
        assertThat(reader.next()).isTrue();
        assertThat(reader.completionTimeNs()).isEqualTo(1_900L);
        assertThat(reader.next()).isTrue();
        assertThat(reader.op()).isEqualTo(IoOp.TRIM);
        assertThat(reader.submitTimeNs()).isEqualTo(700L);
        assertThat(reader.completionTimeNs()).isEqualTo(710L);
        assertThat(reader.sizeBytes()).isEqualTo(1 << 20);
        assertThat(reader.next()).isFalse();
    }

    @Test
    void rejectsInconsistentBatchesAndBadInput() {
        IoBatch batch = new IoBatch(
                "run-z",
                1,
                4L,
                0L,
                0,
                2,
                0L,
                List.of(IoOp.READ, IoOp.READ),
                List.of(0L, 1L),
                List.of(1, 1),
                List.of(0L, 0L),
                List.of(1L),
                List.of(1, 1),
                List.of(0, 0),
                null,
                null);
        assertThatThrownBy(() -> new IoBatchReader().reset(batch))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latencyNs has 1 elements, ioCount is 2")
                .hasMessageContaining("run-z")
                .hasMessageContaining("batch 4");
        IoBatchBuilder builder = new IoBatchBuilder("r", 0);
        assertThatThrownBy(() -> builder.add(0, (byte) 7, 0, 1, 0, 1, 1, 0)).hasMessageContaining("opCode");
        assertThatThrownBy(() -> builder.add(0, IoOp.READ, 0, 1, 0, -1, 1, 0)).hasMessageContaining("latencyNs");
        assertThatThrownBy(() -> new IoBatchBuilder("r", 0, 0)).hasMessageContaining("maxBatchSize");
    }
}
