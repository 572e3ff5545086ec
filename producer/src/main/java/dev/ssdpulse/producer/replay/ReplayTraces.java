package dev.ssdpulse.producer.replay;

import dev.ssdpulse.producer.trace.Trace;
import dev.ssdpulse.producer.trace.TraceStats;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ReplaySpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WorkloadValidator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The traces of a workload's REPLAY phases, each scanned once ({@link Trace#scan}) before the run: whether they
 * write, whether they fit the target, and the generators that stream them. Every driver (device engine,
 * simulator) replays through here, so a trace runs the same on each.
 */
public final class ReplayTraces {
    /** A workload without REPLAY phases. */
    public static final ReplayTraces NONE = new ReplayTraces(Map.of());

    private final Map<ReplaySpec, Trace> traces;

    private ReplayTraces(Map<ReplaySpec, Trace> traces) {
        this.traces = traces;
    }

    /**
     * Scans the trace of every REPLAY phase (each distinct trace once).
     *
     * @throws dev.ssdpulse.producer.trace.TraceFormatException at a line of a trace that is not of its format
     * @throws java.io.UncheckedIOException when a trace cannot be read
     */
    public static ReplayTraces scan(WorkloadSpec spec) {
        Map<ReplaySpec, Trace> traces = new LinkedHashMap<>();
        Map<String, Trace> byName = new LinkedHashMap<>();
        for (ScheduledPhase sp : spec.schedule()) {
            PhaseSpec p = sp.phase();
            if (p.kind() != PhaseKind.REPLAY
                    || p.replay().isEmpty()
                    || traces.containsKey(p.replay().get())) {
                continue;
            }
            ReplaySpec r = p.replay().get();
            Trace t = byName.computeIfAbsent(
                    r.trace().name() + "\u0000" + r.format(), k -> Trace.scan(r.trace(), r.format()));
            traces.put(r, t);
        }
        return traces.isEmpty() ? NONE : new ReplayTraces(traces);
    }

    /** Whether a trace writes or trims (a replay of reads only opens the target read-only). */
    public boolean writesData() {
        return traces.values().stream().anyMatch(t -> t.stats().writesData());
    }

    /** The scanned trace of a REPLAY phase. */
    public Trace trace(PhaseSpec phase) {
        Trace t = phase.replay().map(traces::get).orElse(null);
        if (t == null) {
            throw new IllegalArgumentException("phase '" + phase.name() + "' is not a REPLAY phase of this workload");
        }
        return t;
    }

    /** The largest read or write of a REPLAY phase's trace (buffers are sized to it). */
    public int maxTransferBytes(PhaseSpec phase) {
        return (int) Math.max(512, trace(phase).stats().maxTransferBytes());
    }

    /**
     * Checks every REPLAY phase against the target before any I/O: its span lies inside the target, its trace fits
     * the span ({@link ReplaySpec.Remap}), its I/Os fit a request, and (when {@code alignmentBytes} > 1) every
     * offset and size is a multiple of the target's alignment (O_DIRECT).
     *
     * @throws IllegalArgumentException naming the phase, the trace and the sizes
     */
    public void checkTarget(WorkloadSpec spec, long targetSizeBytes, int alignmentBytes, String targetName) {
        for (ScheduledPhase sp : spec.schedule()) {
            if (sp.phase().kind() == PhaseKind.REPLAY) {
                placement(sp, targetSizeBytes);
                checkAlignment(sp, alignmentBytes, targetName);
            }
        }
    }

    private Placement placement(ScheduledPhase sp, long targetSizeBytes) {
        PhaseSpec p = sp.phase();
        Trace t = trace(p);
        TraceStats s = t.stats();
        String what = "phase '" + sp.name() + "': trace " + t.name();
        long largest = Math.max(s.maxTransferBytes(), s.maxTrimBytes());
        if (largest > WorkloadValidator.MAX_TRANSFER_BYTES) {
            throw new IllegalArgumentException(what + " has an I/O of " + largest + " B; the largest request is 1 GiB ("
                    + WorkloadValidator.MAX_TRANSFER_BYTES + " B)");
        }
        long spanStart = p.span().offsetBytes(targetSizeBytes);
        long spanSize = p.span().sizeBytes(targetSizeBytes);
        if (spanStart < 0 || spanSize <= 0 || spanStart + spanSize > targetSizeBytes) {
            throw new IllegalArgumentException("phase '" + sp.name() + "': span [" + spanStart + ", "
                    + (spanStart + spanSize) + ") is not inside a target of " + Units.describeBytes(targetSizeBytes));
        }
        return Placement.of(s, p.replay().get().remap(), spanStart, spanSize, what);
    }

    private void checkAlignment(ScheduledPhase sp, int alignmentBytes, String targetName) {
        if (alignmentBytes <= 1) {
            return;
        }
        Trace t = trace(sp.phase());
        if (t.stats().alignmentBytes() % alignmentBytes == 0) {
            return;
        }
        long line = t.stats().firstLineNotAligned(alignmentBytes <= 512 ? 512 : 4096);
        throw new IllegalArgumentException("phase '" + sp.name() + "': trace " + t.name() + " has I/Os aligned to "
                + t.stats().alignmentBytes() + " B" + (line > 0 ? " (the first at line " + line + ")" : "") + "; "
                + targetName + " needs offsets and sizes in multiples of " + alignmentBytes + " B (O_DIRECT)");
    }

    /**
     * The generator of a REPLAY phase on a target of {@code targetSizeBytes}; the caller closes it (it also closes
     * itself at the trace's end).
     */
    public ReplayGenerator generator(ScheduledPhase sp, long targetSizeBytes) {
        PhaseSpec p = sp.phase();
        return new ReplayGenerator(trace(p), p.replay().get(), placement(sp, targetSizeBytes), sp.index());
    }
}
