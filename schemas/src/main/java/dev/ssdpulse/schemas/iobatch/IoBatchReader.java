package dev.ssdpulse.schemas.iobatch;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import java.util.List;
import org.apache.avro.generic.PrimitivesArrays;

/**
 * A reusable cursor over the I/Os of an {@link IoBatch}, as primitives: rebuilds absolute submit times from
 * the deltas and the I/O sequence numbers, and reads the columns without boxing when they are Avro
 * {@link PrimitivesArrays} (falling back to {@code List<Long>} / {@code List<Integer>} otherwise).
 *
 * <pre>{@code
 * IoBatchReader io = new IoBatchReader();
 * io.reset(batch);
 * while (io.next()) { sum += io.latencyNs(); ... }
 * }</pre>
 * Not thread-safe; reuse one per thread.
 */
public final class IoBatchReader {
    private IoBatch batch;
    private int size;
    private int index;
    private List<IoOp> ops;
    private LongColumn offsetBytesColumn;
    private IntColumn sizeBytesColumn;
    private LongColumn submitTimeDeltaNsColumn;
    private LongColumn latencyNsColumn;
    private IntColumn queueDepthColumn;
    private IntColumn statusColumn;
    /** Null when the batch has no such column. */
    private LongColumn writeSequenceColumn;

    private IntColumn ioFlagsColumn;

    private IoOp op;
    private long offsetBytes;
    private int sizeBytes;
    private long submitTimeNs;
    private long latencyNs;
    private int queueDepth;
    private int status;

    /**
     * Positions the cursor before the first I/O of {@code batch}.
     *
     * @throws IllegalArgumentException when ioCount is negative or a column's length differs from ioCount
     */
    public IoBatchReader reset(IoBatch batch) {
        this.batch = batch;
        this.size = batch.getIoCount();
        if (size < 0) {
            throw new IllegalArgumentException(describe(batch) + ": ioCount is negative (" + size + ")");
        }
        this.ops = checked(batch, "ops", batch.getOps());
        this.offsetBytesColumn = new LongColumn(checked(batch, "offsetBytes", batch.getOffsetBytes()));
        this.sizeBytesColumn = new IntColumn(checked(batch, "sizeBytes", batch.getSizeBytes()));
        this.submitTimeDeltaNsColumn =
                new LongColumn(checked(batch, "submitTimeDeltaNs", batch.getSubmitTimeDeltaNs()));
        this.latencyNsColumn = new LongColumn(checked(batch, "latencyNs", batch.getLatencyNs()));
        this.queueDepthColumn = new IntColumn(checked(batch, "queueDepth", batch.getQueueDepth()));
        this.statusColumn = new IntColumn(checked(batch, "status", batch.getStatus()));
        // optional columns: read on demand only ({@link #writeSequence}, {@link #ioFlags}), so the readers that do not
        // need them pay nothing per I/O
        this.writeSequenceColumn = batch.getWriteSequence() == null
                ? null
                : new LongColumn(checked(batch, "writeSequence", batch.getWriteSequence()));
        this.ioFlagsColumn =
                batch.getIoFlags() == null ? null : new IntColumn(checked(batch, "ioFlags", batch.getIoFlags()));
        this.index = -1;
        this.submitTimeNs = batch.getBaseSubmitTimeNs();
        return this;
    }

    /** Advances to the next I/O; false after the last one. */
    public boolean next() {
        if (index + 1 >= size) {
            index = size;
            return false;
        }
        int i = ++index;
        op = ops.get(i);
        offsetBytes = offsetBytesColumn.get(i);
        sizeBytes = sizeBytesColumn.get(i);
        submitTimeNs += submitTimeDeltaNsColumn.get(i);
        latencyNs = latencyNsColumn.get(i);
        queueDepth = queueDepthColumn.get(i);
        status = statusColumn.get(i);
        return true;
    }

    /** The batch being read. */
    public IoBatch batch() {
        return batch;
    }

    /** I/Os in the batch. */
    public int size() {
        return size;
    }

    /** Position of the current I/O in the batch, from 0. */
    public int index() {
        return index;
    }

    /** Per (run, worker) sequence number of the current I/O. */
    public long ioSequence() {
        return batch.getFirstIoSequence() + index;
    }

    public IoOp op() {
        return op;
    }

    /** {@link IoOp} ordinal of the current I/O (READ 0, WRITE 1, TRIM 2, FLUSH 3). */
    public int opOrdinal() {
        return op.ordinal();
    }

    public long offsetBytes() {
        return offsetBytes;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    /** Absolute submit time, ns since run start. */
    public long submitTimeNs() {
        return submitTimeNs;
    }

    public long latencyNs() {
        return latencyNs;
    }

    /** Submit time + latency, ns since run start. */
    public long completionTimeNs() {
        return submitTimeNs + latencyNs;
    }

    public int queueDepth() {
        return queueDepth;
    }

    public int status() {
        return status;
    }

    /** The sequence the current write stamped into its units, {@link IoFlags#NO_SEQUENCE} when it stamped none. */
    public long writeSequence() {
        return writeSequenceColumn == null ? IoFlags.NO_SEQUENCE : writeSequenceColumn.get(index);
    }

    /** {@link IoFlags} bits of the current I/O. */
    public int ioFlags() {
        return ioFlagsColumn == null ? IoFlags.NONE : ioFlagsColumn.get(index);
    }

    /** Whether any I/O of the batch carries a stamp sequence. */
    public boolean hasWriteSequences() {
        return writeSequenceColumn != null;
    }

    private <L extends List<?>> L checked(IoBatch b, String column, L values) {
        if (values == null) {
            throw new IllegalArgumentException(describe(b) + ": column " + column + " is null");
        }
        if (values.size() != size) {
            throw new IllegalArgumentException(
                    describe(b) + ": column " + column + " has " + values.size() + " elements, ioCount is " + size);
        }
        return values;
    }

    private static String describe(IoBatch b) {
        return "IoBatch run " + b.getRunId() + " worker " + b.getWorker() + " batch " + b.getBatchSequence();
    }

    /** A long column read without boxing when it is a {@link PrimitivesArrays.LongArray}. */
    private static final class LongColumn {
        private final PrimitivesArrays.LongArray primitive;
        private final List<Long> boxed;

        LongColumn(List<Long> values) {
            this.primitive = values instanceof PrimitivesArrays.LongArray p ? p : null;
            this.boxed = values;
        }

        long get(int i) {
            return primitive != null ? primitive.getLong(i) : boxed.get(i);
        }
    }

    /** An int column read without boxing when it is a {@link PrimitivesArrays.IntArray}. */
    private static final class IntColumn {
        private final PrimitivesArrays.IntArray primitive;
        private final List<Integer> boxed;

        IntColumn(List<Integer> values) {
            this.primitive = values instanceof PrimitivesArrays.IntArray p ? p : null;
            this.boxed = values;
        }

        int get(int i) {
            return primitive != null ? primitive.getInt(i) : boxed.get(i);
        }
    }
}
