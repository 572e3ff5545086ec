package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.WaBounds;
import dev.ssdpulse.streams.waf.WaSum;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Write amplification per phase: NAND / host over the SMART intervals whose end lies in
 * (phase start, next phase's start]: a sample's counters hold what was written up to its time, so an interval
 * ending exactly at a phase change belongs to the phase before. One that straddles a change counts for the phase it
 * ends in, so a phase's figure is off by at most one sampling interval at each end (samples come about once a second;
 * phases last minutes to hours). Each phase's bounds come from its counters' steps ({@link WaSum}: one step per
 * unbroken chain of samples in the phase). A pure function of the interval series and the phase start times,
 * hence the same whatever order SMART samples and phase changes arrived in.
 */
public final class PhaseWriteAmplification {
    private PhaseWriteAmplification() {}

    /**
     * @param phaseStartNs phase index -> start time (ns since run start)
     * @param series       WA intervals in time order
     * @return phase index -> WA and bounds, for phases with at least one interval; the WA is null where the host
     *         wrote nothing in them
     */
    public static Map<Integer, PhaseWa> byPhase(Map<Integer, Long> phaseStartNs, List<WriteAmplification> series) {
        Map<Integer, PhaseWa> out = new TreeMap<>();
        running(phaseStartNs, series).forEach((phase, points) -> {
            SoFar last = points.get(points.size() - 1);
            out.put(phase, new PhaseWa(last.wa(), last.bounds()));
        });
        return out;
    }

    /**
     * A phase's WA after one of its intervals: NAND / host over its intervals up to this one's end, and the range
     * its counters' steps allow.
     */
    public record SoFar(long toTimeNs, Double wa, WaBounds bounds) {
        /** A point whose counters are exact (no bounds to draw). */
        public SoFar(long toTimeNs, Double wa) {
            this(toTimeNs, wa, WaBounds.NONE);
        }
    }

    /**
     * Each phase's WA as it builds up, interval by interval: the figure a phase ends with ({@link #byPhase}) and
     * how it got there (a fresh drive's WA near 1 until its free blocks run out, then climbing).
     *
     * @return phase index -> the phase's WA after each of its intervals, in time order; null where the host had
     *         written nothing in the phase yet
     */
    public static Map<Integer, List<SoFar>> running(Map<Integer, Long> phaseStartNs, List<WriteAmplification> series) {
        List<Map.Entry<Integer, Long>> phases = new ArrayList<>(phaseStartNs.entrySet());
        phases.sort(Map.Entry.comparingByValue());
        Map<Integer, WaSum> sums = new TreeMap<>();
        Map<Integer, List<SoFar>> out = new TreeMap<>();
        for (WriteAmplification interval : series) {
            int phase = phaseAt(phases, interval.getToTimeNs());
            if (phase == Integer.MIN_VALUE) {
                continue;
            }
            WaSum sum = sums.computeIfAbsent(phase, p -> new WaSum());
            sum.add(
                    interval.getFromTimeNs(),
                    interval.getToTimeNs(),
                    interval.getUnit(),
                    interval.getHostBytesWrittenDelta(),
                    interval.getHostResolution(),
                    interval.getNandBytesWrittenDelta(),
                    interval.getNandResolution());
            PhaseWa soFar = sum.result();
            out.computeIfAbsent(phase, p -> new ArrayList<>())
                    .add(new SoFar(interval.getToTimeNs(), soFar.wa(), soFar.bounds()));
        }
        return out;
    }

    /** The phase whose span (start, next start] holds timeNs, or MIN_VALUE at or before the first start. */
    private static int phaseAt(List<Map.Entry<Integer, Long>> phasesByStart, long timeNs) {
        int found = Integer.MIN_VALUE;
        for (Map.Entry<Integer, Long> p : phasesByStart) {
            if (p.getValue() >= timeNs) {
                break;
            }
            found = p.getKey();
        }
        return found;
    }
}
