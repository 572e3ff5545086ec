package dev.ssdpulse.schemas.iobatch;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.PrimitivesArrays;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Hand-written Avro binary codec of {@link IoStreamRecord} for the I/O hot path, byte-for-byte the encoding of
 * the generic Avro writer. IoBatch columns are written from and read into Avro's {@link PrimitivesArrays}
 * without boxing; the rare lifecycle branches (PhaseChanged, RunHeartbeat, RunFinished) go through the
 * ordinary specific reader/writer.
 *
 * <p>Only valid when the writer schema is binary-identical to the compiled one (same Parsing Canonical Form);
 * {@link #canRead(Schema)} decides, and data written with any other schema version goes through Avro's
 * schema resolution instead.
 */
public final class IoStreamRecordCodec {
    private static final long COMPILED_FINGERPRINT = SchemaNormalization.parsingFingerprint64(IoStreamRecord.SCHEMA$);
    private static final IoOp[] OPS = IoOp.values();
    private static final Schema OPS_SCHEMA = IoBatch.SCHEMA$.getField("ops").schema();
    private static final Schema OFFSET_SCHEMA =
            IoBatch.SCHEMA$.getField("offsetBytes").schema();
    private static final Schema SIZE_SCHEMA =
            IoBatch.SCHEMA$.getField("sizeBytes").schema();
    private static final Schema DELTA_SCHEMA =
            IoBatch.SCHEMA$.getField("submitTimeDeltaNs").schema();
    private static final Schema LATENCY_SCHEMA =
            IoBatch.SCHEMA$.getField("latencyNs").schema();
    private static final Schema QUEUE_DEPTH_SCHEMA =
            IoBatch.SCHEMA$.getField("queueDepth").schema();
    private static final Schema STATUS_SCHEMA =
            IoBatch.SCHEMA$.getField("status").schema();
    private static final Schema WRITE_SEQUENCE_SCHEMA =
            IoBatch.SCHEMA$.getField("writeSequence").schema().getTypes().get(1);
    private static final Schema IO_FLAGS_SCHEMA =
            IoBatch.SCHEMA$.getField("ioFlags").schema().getTypes().get(1);

    private IoStreamRecordCodec() {}

    /** True when data written with {@code writerSchema} can be read by this codec. */
    public static boolean canRead(Schema writerSchema) {
        return writerSchema == IoStreamRecord.SCHEMA$
                || SchemaNormalization.parsingFingerprint64(writerSchema) == COMPILED_FINGERPRINT;
    }

    /** A thread-safe writer of the compiled IoStreamRecord schema. */
    public static DatumWriter<IoStreamRecord> writer(SpecificData data) {
        return new Writer(data);
    }

    /** A thread-safe reader of data written with the compiled IoStreamRecord schema. */
    public static Reader reader(SpecificData data) {
        return new Reader(data);
    }

    private static final class Writer implements DatumWriter<IoStreamRecord> {
        private final DatumWriter<PhaseChanged> phaseChanged;
        private final DatumWriter<RunHeartbeat> heartbeat;
        private final DatumWriter<RunFinished> runFinished;

        Writer(SpecificData data) {
            phaseChanged = new SpecificDatumWriter<>(PhaseChanged.SCHEMA$, data);
            heartbeat = new SpecificDatumWriter<>(RunHeartbeat.SCHEMA$, data);
            runFinished = new SpecificDatumWriter<>(RunFinished.SCHEMA$, data);
        }

        @Override
        public void setSchema(Schema schema) {
            if (!canRead(schema)) {
                throw new IllegalArgumentException(
                        "IoStreamRecordCodec writes only the compiled IoStreamRecord schema");
            }
        }

        @Override
        public void write(IoStreamRecord record, Encoder out) throws IOException {
            Object event = record.getEvent();
            if (event instanceof IoBatch batch) {
                out.writeIndex(0);
                writeBatch(batch, out);
            } else if (event instanceof PhaseChanged e) {
                out.writeIndex(1);
                phaseChanged.write(e, out);
            } else if (event instanceof RunHeartbeat e) {
                out.writeIndex(2);
                heartbeat.write(e, out);
            } else if (event instanceof RunFinished e) {
                out.writeIndex(3);
                runFinished.write(e, out);
            } else {
                throw new AvroRuntimeException(
                        "IoStreamRecord.event must be IoBatch, PhaseChanged, RunHeartbeat or " + "RunFinished, got "
                                + (event == null ? "null" : event.getClass().getName()));
            }
        }
    }

    static void writeBatch(IoBatch b, Encoder out) throws IOException {
        int n = b.getIoCount();
        out.writeString(b.getRunId());
        out.writeInt(b.getWorker());
        out.writeLong(b.getBatchSequence());
        out.writeLong(b.getFirstIoSequence());
        out.writeInt(b.getPhaseIndex());
        out.writeInt(n);
        out.writeLong(b.getBaseSubmitTimeNs());
        List<IoOp> ops = b.getOps();
        writeBlockCount(ops.size(), out);
        for (int i = 0, size = ops.size(); i < size; i++) {
            out.writeEnum(ops.get(i).ordinal());
        }
        out.writeArrayEnd();
        writeLongs(b.getOffsetBytes(), out);
        writeInts(b.getSizeBytes(), out);
        writeLongs(b.getSubmitTimeDeltaNs(), out);
        writeLongs(b.getLatencyNs(), out);
        writeInts(b.getQueueDepth(), out);
        writeInts(b.getStatus(), out);
        // the optional columns: union ["null", array], branch 0 for null
        List<Long> writeSequence = b.getWriteSequence();
        if (writeSequence == null) {
            out.writeIndex(0);
        } else {
            out.writeIndex(1);
            writeLongs(writeSequence, out);
        }
        List<Integer> ioFlags = b.getIoFlags();
        if (ioFlags == null) {
            out.writeIndex(0);
        } else {
            out.writeIndex(1);
            writeInts(ioFlags, out);
        }
    }

    private static void writeBlockCount(int count, Encoder out) throws IOException {
        out.writeArrayStart();
        out.setItemCount(count);
    }

    private static void writeLongs(List<Long> values, Encoder out) throws IOException {
        int size = values.size();
        writeBlockCount(size, out);
        if (values instanceof PrimitivesArrays.LongArray primitive) {
            for (int i = 0; i < size; i++) {
                out.writeLong(primitive.getLong(i));
            }
        } else {
            for (int i = 0; i < size; i++) {
                out.writeLong(values.get(i));
            }
        }
        out.writeArrayEnd();
    }

    private static void writeInts(List<Integer> values, Encoder out) throws IOException {
        int size = values.size();
        writeBlockCount(size, out);
        if (values instanceof PrimitivesArrays.IntArray primitive) {
            for (int i = 0; i < size; i++) {
                out.writeInt(primitive.getInt(i));
            }
        } else {
            for (int i = 0; i < size; i++) {
                out.writeInt(values.get(i));
            }
        }
        out.writeArrayEnd();
    }

    /** Reads IoStreamRecord through Avro's {@link Decoder} or, faster, straight from the record's bytes. */
    public static final class Reader implements DatumReader<IoStreamRecord> {
        private final DatumReader<PhaseChanged> phaseChanged;
        private final DatumReader<RunHeartbeat> heartbeat;
        private final DatumReader<RunFinished> runFinished;

        Reader(SpecificData data) {
            phaseChanged = new SpecificDatumReader<>(PhaseChanged.SCHEMA$, PhaseChanged.SCHEMA$, data);
            heartbeat = new SpecificDatumReader<>(RunHeartbeat.SCHEMA$, RunHeartbeat.SCHEMA$, data);
            runFinished = new SpecificDatumReader<>(RunFinished.SCHEMA$, RunFinished.SCHEMA$, data);
        }

        @Override
        public void setSchema(Schema schema) {
            if (!canRead(schema)) {
                throw new IllegalArgumentException("IoStreamRecordCodec reads only the compiled IoStreamRecord schema");
            }
        }

        /**
         * Reads one record from {@code buf[offset, offset + length)}: the batch branch directly from the bytes,
         * the rare lifecycle branches through Avro's decoder.
         */
        public IoStreamRecord read(byte[] buf, int offset, int length) throws IOException {
            BytesSource in = new BytesSource(buf, offset, length);
            int branch = in.readInt();
            Object event;
            if (branch == 0) {
                event = readBatch(in);
            } else {
                BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(buf, in.position(), in.remaining(), null);
                event = switch (branch) {
                    case 1 -> phaseChanged.read(null, decoder);
                    case 2 -> heartbeat.read(null, decoder);
                    case 3 -> runFinished.read(null, decoder);
                    default ->
                        throw new AvroRuntimeException(
                                "IoStreamRecord.event: union branch " + branch + " does not exist (0..3)");
                };
            }
            return new IoStreamRecord(event);
        }

        @Override
        public IoStreamRecord read(IoStreamRecord reuse, Decoder in) throws IOException {
            int branch = in.readIndex();
            Object event = switch (branch) {
                case 0 -> readBatch(in);
                case 1 -> phaseChanged.read(null, in);
                case 2 -> heartbeat.read(null, in);
                case 3 -> runFinished.read(null, in);
                default ->
                    throw new AvroRuntimeException(
                            "IoStreamRecord.event: union branch " + branch + " does not exist (0..3)");
            };
            IoStreamRecord record = reuse != null ? reuse : new IoStreamRecord();
            record.setEvent(event);
            return record;
        }
    }

    static IoBatch readBatch(Decoder in) throws IOException {
        return readBatch(new DecoderSource(in));
    }

    /**
     * The batch branch over either an Avro {@link Decoder} or, on the hot path, the record's bytes directly
     * ({@link BytesSource}: one bounds check per varint instead of Avro's per-value buffer management; the
     * columns were ~30 % of the stream thread's per-I/O cost through BinaryDecoder).
     */
    private static IoBatch readBatch(Source in) throws IOException {
        String runId = in.readString();
        int worker = in.readInt();
        long batchSequence = in.readLong();
        long firstIoSequence = in.readLong();
        int phaseIndex = in.readInt();
        int ioCount = in.readInt();
        long baseSubmitTimeNs = in.readLong();
        // ioCount comes from the wire: bound the initial capacity so a corrupt count cannot exhaust memory.
        int capacity = Math.max(0, Math.min(ioCount, 4096));
        GenericData.Array<IoOp> ops = new GenericData.Array<>(capacity, OPS_SCHEMA);
        for (long block = in.readArrayStart(); block != 0; block = in.arrayNext()) {
            for (long i = 0; i < block; i++) {
                int ordinal = in.readInt();
                if (ordinal < 0 || ordinal >= OPS.length) {
                    throw new AvroRuntimeException(
                            "IoBatch.ops: enum index " + ordinal + " out of range 0.." + (OPS.length - 1));
                }
                ops.add(OPS[ordinal]);
            }
        }
        PrimitivesArrays.LongArray offsetBytes = readLongs(in, capacity, OFFSET_SCHEMA);
        PrimitivesArrays.IntArray sizeBytes = readInts(in, capacity, SIZE_SCHEMA);
        PrimitivesArrays.LongArray submitTimeDeltaNs = readLongs(in, capacity, DELTA_SCHEMA);
        PrimitivesArrays.LongArray latencyNs = readLongs(in, capacity, LATENCY_SCHEMA);
        PrimitivesArrays.IntArray queueDepth = readInts(in, capacity, QUEUE_DEPTH_SCHEMA);
        PrimitivesArrays.IntArray status = readInts(in, capacity, STATUS_SCHEMA);
        PrimitivesArrays.LongArray writeSequence =
                readUnionBranch(in, "writeSequence") ? readLongs(in, capacity, WRITE_SEQUENCE_SCHEMA) : null;
        PrimitivesArrays.IntArray ioFlags =
                readUnionBranch(in, "ioFlags") ? readInts(in, capacity, IO_FLAGS_SCHEMA) : null;
        return new IoBatch(
                runId,
                worker,
                batchSequence,
                firstIoSequence,
                phaseIndex,
                ioCount,
                baseSubmitTimeNs,
                ops,
                offsetBytes,
                sizeBytes,
                submitTimeDeltaNs,
                latencyNs,
                queueDepth,
                status,
                writeSequence,
                ioFlags);
    }

    /** Reads the branch index of a ["null", array] union: false for null, true for the array. */
    private static boolean readUnionBranch(Source in, String field) throws IOException {
        int branch = in.readInt();
        if (branch != 0 && branch != 1) {
            throw new AvroRuntimeException("IoBatch." + field + ": union branch " + branch + " does not exist (0..1)");
        }
        return branch == 1;
    }

    private static PrimitivesArrays.LongArray readLongs(Source in, int capacity, Schema schema) throws IOException {
        PrimitivesArrays.LongArray values = new PrimitivesArrays.LongArray(capacity, schema);
        int size = 0;
        for (long block = in.readArrayStart(); block != 0; block = in.arrayNext()) {
            for (long i = 0; i < block; i++) {
                values.add(size++, in.readLong());
            }
        }
        return values;
    }

    private static PrimitivesArrays.IntArray readInts(Source in, int capacity, Schema schema) throws IOException {
        PrimitivesArrays.IntArray values = new PrimitivesArrays.IntArray(capacity, schema);
        int size = 0;
        for (long block = in.readArrayStart(); block != 0; block = in.arrayNext()) {
            for (long i = 0; i < block; i++) {
                values.add(size++, in.readInt());
            }
        }
        return values;
    }

    /** The few Avro binary primitives an IoBatch needs. */
    private interface Source {
        int readInt() throws IOException;

        long readLong() throws IOException;

        String readString() throws IOException;

        long readArrayStart() throws IOException;

        long arrayNext() throws IOException;
    }

    private record DecoderSource(Decoder in) implements Source {
        @Override
        public int readInt() throws IOException {
            return in.readInt();
        }

        @Override
        public long readLong() throws IOException {
            return in.readLong();
        }

        @Override
        public String readString() throws IOException {
            return in.readString();
        }

        @Override
        public long readArrayStart() throws IOException {
            return in.readArrayStart();
        }

        @Override
        public long arrayNext() throws IOException {
            return in.arrayNext();
        }
    }

    /**
     * Avro binary decoding straight from a byte array, with Avro's own rules: zig-zag varints (an int is at most 5
     * bytes, a long 10), strings as length + UTF-8, array blocks as a count (negative: followed by the block's
     * byte size) until a zero count. Reading past the end throws {@link EOFException}.
     */
    static final class BytesSource implements Source {
        private final byte[] buf;
        private final int end;
        private int pos;

        BytesSource(byte[] buf, int offset, int length) {
            if (offset < 0 || length < 0 || offset > buf.length - length) {
                throw new IndexOutOfBoundsException(
                        "offset " + offset + ", length " + length + " outside " + buf.length + " bytes");
            }
            this.buf = buf;
            this.pos = offset;
            this.end = offset + length;
        }

        int position() {
            return pos;
        }

        int remaining() {
            return end - pos;
        }

        @Override
        public int readInt() throws IOException {
            int raw = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                if (pos >= end) {
                    throw new EOFException("Avro int runs past the end of the record at byte " + pos);
                }
                int b = buf[pos++];
                raw |= (b & 0x7f) << shift;
                if (b >= 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new AvroRuntimeException("Invalid int encoding (more than 5 bytes) before byte " + pos);
        }

        @Override
        public long readLong() throws IOException {
            long raw = 0;
            for (int shift = 0; shift < 70; shift += 7) {
                if (pos >= end) {
                    throw new EOFException("Avro long runs past the end of the record at byte " + pos);
                }
                long b = buf[pos++];
                raw |= (b & 0x7f) << shift;
                if (b >= 0) {
                    return (raw >>> 1) ^ -(raw & 1);
                }
            }
            throw new AvroRuntimeException("Invalid long encoding (more than 10 bytes) before byte " + pos);
        }

        @Override
        public String readString() throws IOException {
            int length = readInt();
            if (length < 0) {
                throw new AvroRuntimeException("Malformed data. Length is negative: " + length);
            }
            if (length > end - pos) {
                throw new EOFException(
                        "Avro string of " + length + " bytes runs past the end of the record at byte " + pos);
            }
            String value = new String(buf, pos, length, StandardCharsets.UTF_8);
            pos += length;
            return value;
        }

        @Override
        public long readArrayStart() throws IOException {
            return blockCount();
        }

        @Override
        public long arrayNext() throws IOException {
            return blockCount();
        }

        private long blockCount() throws IOException {
            long count = readLong();
            if (count < 0) {
                readLong(); // byte size of the block, for skipping; not needed when reading every item
                count = -count;
            }
            return count;
        }
    }
}
