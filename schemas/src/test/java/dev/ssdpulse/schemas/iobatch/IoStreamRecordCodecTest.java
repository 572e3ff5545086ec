package dev.ssdpulse.schemas.iobatch;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.serde.GeneratedSpecificData;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IoStreamRecordCodecTest {
    private final SpecificData data = new GeneratedSpecificData(IoStreamRecord.class);

    private static List<IoStreamRecord> samples() {
        IoBatchBuilder builder = new IoBatchBuilder("run", 0, 600);
        IoBatch big = null;
        List<IoBatchRoundTripTest.Io> ios = IoBatchRoundTripTest.ios(600, 3);
        for (IoBatchRoundTripTest.Io io : ios) {
            big = builder.add(1, io.op(), io.offsetBytes(), io.sizeBytes(), io.submitTimeNs(), io.latencyNs(),
                    io.queueDepth(), io.status());
        }
        IoBatch boxed = new IoBatch("run-b", 1, 0L, 0L, 0, 1, 5L, List.of(IoOp.FLUSH), List.of(-1L), List.of(0),
                List.of(0L), List.of(Long.MAX_VALUE), List.of(Integer.MIN_VALUE), List.of(Integer.MAX_VALUE));
        IoBatch empty = new IoBatch("", 0, 0L, 0L, 0, 0, 0L, List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
        return List.of(new IoStreamRecord(big), new IoStreamRecord(SampleRecords.ioBatch()), new IoStreamRecord(boxed),
                new IoStreamRecord(empty), new IoStreamRecord(SampleRecords.phaseChanged()),
                new IoStreamRecord(SampleRecords.heartbeat()), new IoStreamRecord(SampleRecords.runFinished()));
    }

    private static byte[] write(org.apache.avro.io.DatumWriter<IoStreamRecord> writer, IoStreamRecord record)
            throws IOException {
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
            IoStreamRecord fast = IoStreamRecordCodec.reader(data).read(null,
                    DecoderFactory.get().binaryDecoder(actual, null));
            assertThat(fast).isEqualTo(record);
            assertThat(avroReader.read(null, DecoderFactory.get().binaryDecoder(actual, null))).isEqualTo(record);
        }
    }

    @Test
    void readsBatchColumnsIntoPrimitiveArrays() throws IOException {
        byte[] bytes = write(IoStreamRecordCodec.writer(data), new IoStreamRecord(SampleRecords.ioBatch()));
        IoBatch batch = (IoBatch) IoStreamRecordCodec.reader(data).read(null,
                DecoderFactory.get().binaryDecoder(bytes, null)).getEvent();
        assertThat(batch.getLatencyNs()).isInstanceOf(org.apache.avro.generic.PrimitivesArrays.LongArray.class);
        assertThat(batch.getQueueDepth()).isInstanceOf(org.apache.avro.generic.PrimitivesArrays.IntArray.class);
    }

    @Test
    void acceptsOnlyTheCompiledSchema() {
        assertThat(IoStreamRecordCodec.canRead(IoStreamRecord.SCHEMA$)).isTrue();
        assertThat(IoStreamRecordCodec.canRead(new Schema.Parser().parse(IoStreamRecord.SCHEMA$.toString()))).isTrue();
        assertThat(IoStreamRecordCodec.canRead(IoBatch.SCHEMA$)).isFalse();
    }
}
