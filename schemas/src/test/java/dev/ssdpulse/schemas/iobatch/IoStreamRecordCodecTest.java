package dev.ssdpulse.schemas.iobatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.serde.GeneratedSpecificData;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.PrimitivesArrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

class IoStreamRecordCodecTest {
    private final SpecificData data = new GeneratedSpecificData(IoStreamRecord.class);

    private static List<IoStreamRecord> samples() {
        IoBatchBuilder builder = new IoBatchBuilder("run", 0, 600);
        IoBatch big = null;
        List<IoBatchRoundTripTest.Io> ios = IoBatchRoundTripTest.ios(600, 3);
        for (IoBatchRoundTripTest.Io io : ios) {
            big = builder.add(
                    1,
                    io.op(),
                    io.offsetBytes(),
                    io.sizeBytes(),
                    io.submitTimeNs(),
                    io.latencyNs(),
                    io.queueDepth(),
                    io.status());
        }
        IoBatch boxed = new IoBatch(
                "run-b",
                1,
                0L,
                0L,
                0,
                1,
                5L,
                List.of(IoOp.FLUSH),
                List.of(-1L),
                List.of(0),
                List.of(0L),
                List.of(Long.MAX_VALUE),
                List.of(Integer.MIN_VALUE),
                List.of(Integer.MAX_VALUE),
                List.of(Long.MIN_VALUE),
                List.of(IoFlags.FUA));
        IoBatch empty = new IoBatch(
                "", 0, 0L, 0L, 0, 0, 0L, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                null, null);
        // a stamped run: the optional columns appear with the first stamped or flagged I/O of the batch
        IoBatchBuilder stampedBuilder = new IoBatchBuilder("run-s", 0, 5);
        stampedBuilder.add(0, IoOpCode.READ, 0, 4096, 10, 5, 1, 0);
        stampedBuilder.add(0, IoOpCode.WRITE, 8192, 16384, 20, 5, 2, 0, 7L, IoFlags.NONE);
        stampedBuilder.add(0, IoOpCode.WRITE, 4096, 4096, 30, 5, 2, 0, 8L, IoFlags.FUA);
        stampedBuilder.add(0, IoOpCode.FLUSH, 0, 0, 40, 5, 1, 0);
        IoBatch stamped = stampedBuilder.add(0, IoOpCode.WRITE, 0, 4096, 50, 5, 1, 0, 9L, IoFlags.NONE);
        return List.of(
                new IoStreamRecord(stamped),
                new IoStreamRecord(big),
                new IoStreamRecord(SampleRecords.ioBatch()),
                new IoStreamRecord(boxed),
                new IoStreamRecord(empty),
                new IoStreamRecord(SampleRecords.phaseChanged()),
                new IoStreamRecord(SampleRecords.heartbeat()),
                new IoStreamRecord(SampleRecords.runFinished()));
    }

    private static byte[] write(DatumWriter<IoStreamRecord> writer, IoStreamRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    @Test
    void writesExactlyTheBytesOfAvrosOwnWriterAndReadsThemBack() throws IOException {
        SpecificDatumWriter<IoStreamRecord> avroWriter = new SpecificDatumWriter<>(IoStreamRecord.SCHEMA$, data);
        SpecificDatumReader<IoStreamRecord> avroReader =
                new SpecificDatumReader<>(IoStreamRecord.SCHEMA$, IoStreamRecord.SCHEMA$, data);
        for (IoStreamRecord record : samples()) {
            byte[] expected = write(avroWriter, record);
            byte[] actual = write(IoStreamRecordCodec.writer(data), record);
            assertThat(actual).isEqualTo(expected);
            IoStreamRecord fast = IoStreamRecordCodec.reader(data)
                    .read(null, DecoderFactory.get().binaryDecoder(actual, null));
            assertThat(fast).isEqualTo(record);
            assertThat(avroReader.read(null, DecoderFactory.get().binaryDecoder(actual, null)))
                    .isEqualTo(record);
        }
    }

    @Test
    void readsBatchColumnsIntoPrimitiveArrays() throws IOException {
        byte[] bytes = write(IoStreamRecordCodec.writer(data), new IoStreamRecord(SampleRecords.ioBatch()));
        IoBatch batch = (IoBatch) IoStreamRecordCodec.reader(data)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, null))
                .getEvent();
        assertThat(batch.getLatencyNs()).isInstanceOf(PrimitivesArrays.LongArray.class);
        assertThat(batch.getQueueDepth()).isInstanceOf(PrimitivesArrays.IntArray.class);
    }

    @Test
    void readsStraightFromBytesWhatAvroReads() throws IOException {
        SpecificDatumWriter<IoStreamRecord> avroWriter = new SpecificDatumWriter<>(IoStreamRecord.SCHEMA$, data);
        for (IoStreamRecord record : samples()) {
            byte[] bytes = write(avroWriter, record);
            // inside a larger buffer, as in a Confluent wire-format payload (5-byte header) with trailing bytes
            byte[] framed = new byte[bytes.length + 8];
            System.arraycopy(bytes, 0, framed, 5, bytes.length);
            framed[framed.length - 1] = (byte) 0xff;
            assertThat(IoStreamRecordCodec.reader(data).read(framed, 5, bytes.length))
                    .isEqualTo(record);
        }
    }

    @Test
    void readsArrayBlocksWithNegativeCountsAsAvroAllows() throws IOException {
        // Avro writers may emit several blocks per array, and a negative count followed by the block's byte size;
        // a buffered encoder with a small block size does both
        IoStreamRecord record = samples().get(0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = new EncoderFactory().configureBlockSize(64).blockingBinaryEncoder(out, null);
        new SpecificDatumWriter<IoStreamRecord>(IoStreamRecord.SCHEMA$, data).write(record, encoder);
        encoder.flush();
        byte[] bytes = out.toByteArray();
        assertThat(bytes)
                .as("blocked encoding differs from the plain one")
                .isNotEqualTo(write(IoStreamRecordCodec.writer(data), record));
        assertThat(IoStreamRecordCodec.reader(data).read(bytes, 0, bytes.length))
                .isEqualTo(record);
    }

    @Test
    void aTruncatedRecordIsAnEofErrorNotGarbage() throws IOException {
        byte[] bytes = write(IoStreamRecordCodec.writer(data), new IoStreamRecord(SampleRecords.ioBatch()));
        for (int length = 0; length < bytes.length; length++) {
            int cut = length;
            assertThatThrownBy(() -> IoStreamRecordCodec.reader(data).read(bytes, 0, cut))
                    .as("cut at %d of %d bytes", cut, bytes.length)
                    .isInstanceOfAny(EOFException.class, AvroRuntimeException.class);
        }
        byte[] overlong = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80};
        assertThatThrownBy(() -> IoStreamRecordCodec.reader(data).read(overlong, 0, overlong.length))
                .isInstanceOf(AvroRuntimeException.class)
                .hasMessageContaining("Invalid int encoding");
    }

    @Test
    void acceptsOnlyTheCompiledSchema() {
        assertThat(IoStreamRecordCodec.canRead(IoStreamRecord.SCHEMA$)).isTrue();
        assertThat(IoStreamRecordCodec.canRead(new Schema.Parser().parse(IoStreamRecord.SCHEMA$.toString())))
                .isTrue();
        assertThat(IoStreamRecordCodec.canRead(IoBatch.SCHEMA$)).isFalse();
    }
}
