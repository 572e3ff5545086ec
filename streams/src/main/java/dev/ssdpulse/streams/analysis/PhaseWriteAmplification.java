package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Write amplification per phase: NAND bytes / host bytes over the SMART intervals whose end lies in
 * (phase start, next phase's start]: a sample's counters hold what was written up to its time, so an interval
 * ending exactly at a phase change belongs to the phase before. One that straddles a change counts for the phase it
 * ends in, so a phase's figure is off by at most one sampling interval at each end (samples come about once a second;
 * phases last minutes to hours). A pure function of the interval series and the phase start times, hence the
 * same whatever order SMART samples and phase changes arrived in.
 */
public final class PhaseWriteAmplification {
    private PhaseWriteAmplification() {}

    /**
     * @param phaseStartNs phase index -> start time (ns since run start)
     * @param series       WA intervals in time order
     * @return phase index -> WA, for phases with at least one interval; the value is null where the host wrote
     *         nothing in them
     */
    public static Map<Integer, Double> byPhase(Map<Integer, Long> phaseStartNs, List<WriteAmplification> series) {
        List<Map.Entry<Integer, Long>> phases = new ArrayList<>(phaseStartNs.entrySet());
        phases.sort(Map.Entry.comparingByValue());
        Map<Integer, long[]> sums = new TreeMap<>();
        for (WriteAmplification interval : series) {
            int phase = phaseAt(phases, interval.getToTimeNs());
            if (phase == Integer.MIN_VALUE) {
                continue;
            }
            long[] s = sums.computeIfAbsent(phase, p -> new long[2]);
            s[0] += interval.getHostBytesWrittenDelta();
            s[1] += interval.getNandBytesWrittenDelta();
        }
        Map<Integer, Double> out = new TreeMap<>();
        sums.forEach((phase, s) -> out.put(phase, s[0] > 0 ? (double) s[1] / s[0] : null));
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
