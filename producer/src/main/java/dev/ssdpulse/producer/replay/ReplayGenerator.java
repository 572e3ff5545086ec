package dev.ssdpulse.producer.replay;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.trace.Trace;
import dev.ssdpulse.producer.trace.TraceReader;
import dev.ssdpulse.producer.trace.TraceRecord;
import dev.ssdpulse.producer.workload.ReplaySpec;
import dev.ssdpulse.schemas.iobatch.IoOpCode;

/**
 * The request stream of a REPLAY phase: the trace's I/Os in file order, streamed from the file (one line in
 * memory), each placed in the span ({@link Placement}) and, with recorded timing, due at its recorded time
 * relative to the trace's first I/O divided by the time scale. Due times never go backwards: an I/O recorded
 * before the one above it in the file (blkparse merges CPUs) is due with it, since the replay keeps file order.
 * The driver reports each issue's lag ({@link #issued}); {@link #result} sums them up. The trace is closed once
 * read to its end, or by {@link #close}.
 */
public final class ReplayGenerator implements RequestGenerator, AutoCloseable {
    /**
     * An I/O issued more than this after its due time is late. Well above the wake-up error of a parked thread
     * (tens of microseconds on Linux) and the simulator's exact clock, well below the seconds a load time is
     * counted in.
     */
    public static final long LATE_THRESHOLD_NS = 1_000_000L;

    private final Trace trace;
    private final ReplaySpec spec;
    private final Placement placement;
    private final int phaseIndex;
    private final TraceRecord record = new TraceRecord();
    private final IssueLag lag = new IssueLag(LATE_THRESHOLD_NS);
    private final boolean recorded;
    private final long firstTimeNs;
    private TraceReader reader;
    private long lastDueNs;
    private long drawn;
    private long issued;

    ReplayGenerator(Trace trace, ReplaySpec spec, Placement placement, int phaseIndex) {
        this.trace = trace;
        this.spec = spec;
        this.placement = placement;
        this.phaseIndex = phaseIndex;
        this.recorded = spec.timing() == ReplaySpec.Timing.RECORDED;
        this.firstTimeNs = trace.stats().firstTimeNs();
        this.reader = trace.open();
    }

    @Override
    public boolean next(IoRequest request) {
        if (reader == null) {
            return false;
        }
        if (!reader.next(record)) {
            close();
            return false;
        }
        drawn++;
        long due = IoRequest.UNSCHEDULED;
        if (recorded) {
            long sinceFirst = Math.max(0, record.timeNs - firstTimeNs);
            long scaled = spec.timeScale() == 1.0 ? sinceFirst : (long) (sinceFirst / spec.timeScale());
            due = Math.max(lastDueNs, scaled);
            lastDueNs = due;
        }
        if (record.op == IoOpCode.FLUSH) {
            request.setDue(IoOpCode.FLUSH, 0, 0, due);
        } else {
            request.setDue(record.op, placement.map(record.offsetBytes, record.sizeBytes), (int) record.sizeBytes, due);
        }
        return true;
    }

    @Override
    public synchronized void issued(long lagNs) {
        issued++;
        lag.record(lagNs);
    }

    /** I/Os drawn from the trace so far. */
    public long drawn() {
        return drawn;
    }

    /** The phase's replay result; call after the phase's I/Os were all issued. */
    public synchronized ReplayResult result() {
        return new ReplayResult(
                phaseIndex,
                trace.name(),
                recorded,
                recorded ? spec.timeScale() : 1.0,
                trace.stats().ioCount(),
                recorded ? issued : drawn,
                recorded ? lag.lateCount() : 0,
                LATE_THRESHOLD_NS,
                recorded ? lag.percentileNs(50) : 0,
                recorded ? lag.percentileNs(99) : 0,
                recorded ? lag.maxNs() : 0);
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
