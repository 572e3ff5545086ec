package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.util.List;
import org.apache.avro.generic.PrimitivesArrays;

/**
 * Checks a decoded input record for values the accumulators refuse by throwing (a negative latency or size,
 * columns shorter than ioCount, times that overflow a long) or that leave a run without its start time: such a record
 * is well-formed Avro, so the deserializer accepts it, but processing it would fail the stream task again and again.
 * Checked before the record reaches a stateful processor, it goes to the dead-letter topic instead.
 */
public final class InputRecordCheck {
    /**
     * Largest |time| and latency accepted, ~73 years in ns: far beyond any run, and far enough from
     * Long.MAX_VALUE that window arithmetic (index + 1) * size cannot overflow.
     */
    public static final long MAX_ABS_TIME_NS = Long.MAX_VALUE / 4;

    private InputRecordCheck() {}

    /** Why the record cannot be processed, or null when it can. */
    public static String problem(Object decoded) {
        if (decoded instanceof IoStreamRecord r && r.getEvent() instanceof IoBatch batch) {
            return batchProblem(batch);
        }
        if (decoded instanceof RunStarted started && RunStartTime.of(started) == null) {
            return "RunStarted run " + started.getRunId() + " has no start time: wallClockStart is null (and so is "
                    + "the retired wallClockStartEpochNs, which only runs recorded before wallClockStart carry)";
        }
        return null;
    }

    static String batchProblem(IoBatch batch) {
        try {
            new IoBatchReader().reset(batch);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        String where = "IoBatch run " + batch.getRunId() + " worker " + batch.getWorker() + " batch "
                + batch.getBatchSequence();
        if (outOfRange(batch.getBaseSubmitTimeNs())) {
            return where + ": baseSubmitTimeNs " + batch.getBaseSubmitTimeNs() + " is out of range";
        }
        List<Long> deltas = batch.getSubmitTimeDeltaNs();
        List<Long> latencies = batch.getLatencyNs();
        List<Integer> sizes = batch.getSizeBytes();
        long submitNs = batch.getBaseSubmitTimeNs();
        for (int i = 0, n = batch.getIoCount(); i < n; i++) {
            long delta = longAt(deltas, i);
            long latencyNs = longAt(latencies, i);
            int sizeBytes = intAt(sizes, i);
            if (sizeBytes < 0) {
                return where + ": I/O #" + i + " has a negative sizeBytes (" + sizeBytes + ")";
            }
            if (latencyNs < 0 || latencyNs > MAX_ABS_TIME_NS) {
                return where + ": I/O #" + i + " has latencyNs " + latencyNs + " outside 0.." + MAX_ABS_TIME_NS;
            }
            if (outOfRange(delta)) {
                return where + ": I/O #" + i + " has submitTimeDeltaNs " + delta + " out of range";
            }
            // both terms are within +-MAX_ABS_TIME_NS, so these sums cannot overflow before the check
            submitNs += delta;
            if (outOfRange(submitNs) || outOfRange(submitNs + latencyNs)) {
                return where + ": I/O #" + i + " has a submit or completion time out of range (submit " + submitNs
                        + " ns, latency " + latencyNs + " ns)";
            }
        }
        return null;
    }

    /** Math.abs would let Long.MIN_VALUE through. */
    private static boolean outOfRange(long v) {
        return v > MAX_ABS_TIME_NS || v < -MAX_ABS_TIME_NS;
    }

    private static long longAt(List<Long> values, int i) {
        return values instanceof PrimitivesArrays.LongArray p ? p.getLong(i) : values.get(i);
    }

    private static int intAt(List<Integer> values, int i) {
        return values instanceof PrimitivesArrays.IntArray p ? p.getInt(i) : values.get(i);
    }
}
