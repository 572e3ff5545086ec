package dev.ssdpulse.schemas.iobatch;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.PrimitivesArrays;

/**
 * Accumulates the completed I/Os of one (run, worker), in completion order, into the columns of
 * {@link IoBatch} records. A batch is cut when the phase changes (batches never straddle a phase) or when it
 * holds {@code maxBatchSize} I/Os; {@link #flush()} cuts the pending one early (end of run, linger timeout).
 *
 * <p>Long and int columns are Avro's {@link PrimitivesArrays} (no boxing); submit times are delta-encoded
 * against the previous I/O ({@code submitTimeDeltaNs}, negative when a later-submitted I/O completed first).
 * {@code batchSequence} and {@code firstIoSequence} count per builder from 0, so a consumer can detect
 * gaps and duplicates. Not thread-safe: one builder per worker thread.
 */
public final class IoBatchBuilder {
    /** Default I/Os per batch: the batch size the design's throughput figures were measured with. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 512;

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
    /** The array branch of the optional columns' unions (["null", array]). */
    private static final Schema WRITE_SEQUENCE_SCHEMA =
            IoBatch.SCHEMA$.getField("writeSequence").schema().getTypes().get(1);

    private static final Schema IO_FLAGS_SCHEMA =
            IoBatch.SCHEMA$.getField("ioFlags").schema().getTypes().get(1);

    private final String runId;
    private final int worker;
    private final int maxBatchSize;
    private long nextBatchSequence;
    private long nextIoSequence;

    private int count;
    private int phaseIndex;
    private long baseSubmitTimeNs;
    private long previousSubmitTimeNs;
    private GenericData.Array<IoOp> ops;
    private PrimitivesArrays.LongArray offsetBytes;
    private PrimitivesArrays.IntArray sizeBytes;
    private PrimitivesArrays.LongArray submitTimeDeltaNs;
    private PrimitivesArrays.LongArray latencyNs;
    private PrimitivesArrays.IntArray queueDepth;
    private PrimitivesArrays.IntArray status;
    /** Null until an I/O of the batch carries a stamp sequence (then the earlier ones get NO_SEQUENCE). */
    private PrimitivesArrays.LongArray writeSequence;
    /** Null until an I/O of the batch has a flag (then the earlier ones get NONE). */
    private PrimitivesArrays.IntArray ioFlags;

    /** A builder cutting batches of {@value #DEFAULT_MAX_BATCH_SIZE} I/Os. */
    public IoBatchBuilder(String runId, int worker) {
        this(runId, worker, DEFAULT_MAX_BATCH_SIZE);
    }

    public IoBatchBuilder(String runId, int worker, int maxBatchSize) {
        this(runId, worker, maxBatchSize, 0L, 0L);
    }

    /**
     * A builder continuing existing counters (e.g. a producer resuming a run).
     *
     * @param firstBatchSequence sequence of the next batch
     * @param firstIoSequence    sequence of the next I/O
     */
    public IoBatchBuilder(String runId, int worker, int maxBatchSize, long firstBatchSequence, long firstIoSequence) {
        this.runId = Objects.requireNonNull(runId, "runId");
        if (worker < 0) {
            throw new IllegalArgumentException("worker must be >= 0, got " + worker);
        }
        if (maxBatchSize < 1) {
            throw new IllegalArgumentException("maxBatchSize must be >= 1, got " + maxBatchSize);
        }
        if (firstBatchSequence < 0 || firstIoSequence < 0) {
            throw new IllegalArgumentException(
                    "sequences must be >= 0, got batch " + firstBatchSequence + ", io " + firstIoSequence);
        }
        this.worker = worker;
        this.maxBatchSize = maxBatchSize;
        this.nextBatchSequence = firstBatchSequence;
        this.nextIoSequence = firstIoSequence;
    }

    /**
     * Adds one completed I/O. Returns the batch this I/O completed - the pending batch of the previous phase
     * when the phase changed, or the full batch this I/O filled - or {@code null}. At most one batch is
     * returned per call.
     *
     * @param opCode ordinal of {@link IoOp} (READ 0, WRITE 1, TRIM 2, FLUSH 3), as the producer's IoOpCode
     */
    public IoBatch add(
            int phaseIndex,
            byte opCode,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        return add(
                phaseIndex,
                opCode,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                IoFlags.NO_SEQUENCE,
                IoFlags.NONE);
    }

    /**
     * As {@link #add(int, byte, long, int, long, long, int, int)} for an I/O that may carry a stamp sequence (a
     * stamped write) or flags ({@link IoFlags}); the batch gets its optional columns only when one of its I/Os
     * does.
     *
     * @param writeSequence the sequence the write stamped into its units, or {@link IoFlags#NO_SEQUENCE}
     * @param ioFlags       {@link IoFlags} bits
     */
    public IoBatch add(
            int phaseIndex,
            byte opCode,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {
        if (opCode < 0 || opCode >= OPS.length) {
            throw new IllegalArgumentException(
                    "opCode must be 0.." + (OPS.length - 1) + " (IoOp ordinal), got " + opCode);
        }
        return add(
                phaseIndex,
                OPS[opCode],
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                writeSequence,
                ioFlags);
    }

    /** As {@link #add(int, byte, long, int, long, long, int, int)} with the op as an enum. */
    public IoBatch add(
            int phaseIndex,
            IoOp op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        return add(
                phaseIndex,
                op,
                offsetBytes,
                sizeBytes,
                submitTimeNs,
                latencyNs,
                queueDepth,
                status,
                IoFlags.NO_SEQUENCE,
                IoFlags.NONE);
    }

    private IoBatch add(
            int phaseIndex,
            IoOp op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status,
            long writeSequence,
            int ioFlags) {
        Objects.requireNonNull(op, "op");
        if (latencyNs < 0) {
            throw new IllegalArgumentException(
                    "latencyNs must be >= 0, got " + latencyNs + " (I/O sequence " + (nextIoSequence + count) + ")");
        }
        IoBatch completed = null;
        if (count > 0 && phaseIndex != this.phaseIndex) {
            completed = cut();
        }
        if (count == 0) {
            start(phaseIndex, submitTimeNs);
        }
        this.ops.add(op);
        this.offsetBytes.add(count, offsetBytes);
        this.sizeBytes.add(count, sizeBytes);
        this.submitTimeDeltaNs.add(count, submitTimeNs - previousSubmitTimeNs);
        this.latencyNs.add(count, latencyNs);
        this.queueDepth.add(count, queueDepth);
        this.status.add(count, status);
        if (writeSequence != IoFlags.NO_SEQUENCE && this.writeSequence == null) {
            this.writeSequence = new PrimitivesArrays.LongArray(maxBatchSize, WRITE_SEQUENCE_SCHEMA);
            for (int i = 0; i < count; i++) {
                this.writeSequence.add(i, IoFlags.NO_SEQUENCE);
            }
        }
        if (this.writeSequence != null) {
            this.writeSequence.add(count, writeSequence);
        }
        if (ioFlags != IoFlags.NONE && this.ioFlags == null) {
            this.ioFlags = new PrimitivesArrays.IntArray(maxBatchSize, IO_FLAGS_SCHEMA);
            for (int i = 0; i < count; i++) {
                this.ioFlags.add(i, IoFlags.NONE);
            }
        }
        if (this.ioFlags != null) {
            this.ioFlags.add(count, ioFlags);
        }
        previousSubmitTimeNs = submitTimeNs;
        count++;
        if (count == maxBatchSize) {
            // completed is null here: a phase change leaves one pending I/O, and maxBatchSize 1 never has any.
            completed = cut();
        }
        return completed;
    }

    /** The pending batch, cut now; {@code null} when no I/O is pending. */
    public IoBatch flush() {
        return count == 0 ? null : cut();
    }

    /** I/Os added since the last cut. */
    public int pendingCount() {
        return count;
    }

    /** Sequence the next batch will carry. */
    public long nextBatchSequence() {
        return nextBatchSequence;
    }

    /** Sequence the next added I/O will get. */
    public long nextIoSequence() {
        return nextIoSequence + count;
    }

    public String runId() {
        return runId;
    }

    private void start(int phase, long submitTimeNs) {
        phaseIndex = phase;
        baseSubmitTimeNs = submitTimeNs;
        previousSubmitTimeNs = submitTimeNs;
        // Fresh arrays per batch: a cut batch is handed over and may be serialized later by another thread.
        int capacity = maxBatchSize;
        ops = new GenericData.Array<>(capacity, OPS_SCHEMA);
        offsetBytes = new PrimitivesArrays.LongArray(capacity, OFFSET_SCHEMA);
        sizeBytes = new PrimitivesArrays.IntArray(capacity, SIZE_SCHEMA);
        submitTimeDeltaNs = new PrimitivesArrays.LongArray(capacity, DELTA_SCHEMA);
        latencyNs = new PrimitivesArrays.LongArray(capacity, LATENCY_SCHEMA);
        queueDepth = new PrimitivesArrays.IntArray(capacity, QUEUE_DEPTH_SCHEMA);
        status = new PrimitivesArrays.IntArray(capacity, STATUS_SCHEMA);
    }

    private IoBatch cut() {
        IoBatch batch = new IoBatch(
                runId,
                worker,
                nextBatchSequence,
                nextIoSequence,
                phaseIndex,
                count,
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
        nextBatchSequence++;
        nextIoSequence += count;
        count = 0;
        ops = null;
        offsetBytes = null;
        sizeBytes = null;
        submitTimeDeltaNs = null;
        latencyNs = null;
        queueDepth = null;
        status = null;
        writeSequence = null;
        ioFlags = null;
        return batch;
    }
}
