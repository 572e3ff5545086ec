package dev.ssdpulse.streams.topology;

import dev.ssdpulse.streams.app.FioCriterion;
import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.steadystate.TrackedVariable;
import java.util.ArrayList;
import java.util.List;

/**
 * The steady-state detectors of one (run, TEST phase, op): slot 0 is SNIA PTS on IOPS, slot 1 + i the i-th
 * fio criterion. Remembers what was last emitted per slot so that only changes of verdict are emitted.
 */
final class SteadyStateSlots {
    /** A verdict worth emitting, with its slot. */
    record Emitted(int slot, SteadyStateResult result) {
    }

    private final SniaSteadyStateDetector snia;
    private final List<FioSteadyStateDetector> fio = new ArrayList<>();
    private final Boolean[] lastReached;
    private final boolean[] lastFinal;

    SteadyStateSlots(long startNs, long windowSizeNs, long sniaRoundNs, List<FioCriterion> criteria) {
        snia = new SniaSteadyStateDetector(startNs, sniaRoundNs, TrackedVariable.IOPS,
                SniaSteadyStateDetector.DEFAULT_WINDOW_ROUNDS, SniaSteadyStateDetector.DEFAULT_RANGE_LIMIT_PERCENT,
                SniaSteadyStateDetector.DEFAULT_EXCURSION_LIMIT_PERCENT, SniaSteadyStateDetector.DEFAULT_MAX_ROUNDS);
        for (FioCriterion c : criteria) {
            fio.add(c.newDetector(startNs, windowSizeNs));
        }
        lastReached = new Boolean[1 + fio.size()];
        lastFinal = new boolean[1 + fio.size()];
    }

    int slotCount() {
        return lastReached.length;
    }

    /** Marks what was emitted before a restart (from the verdict store). */
    void restoreEmitted(int slot, boolean reached, boolean finalVerdict) {
        lastReached[slot] = reached;
        lastFinal[slot] = finalVerdict;
    }

    List<Emitted> acceptWindow(long windowStartNs, long windowSizeNs, long ioCount, long bytes) {
        List<Emitted> out = new ArrayList<>(0);
        changes(0, snia.acceptWindow(windowStartNs, windowSizeNs, ioCount, bytes), out);
        for (int i = 0; i < fio.size(); i++) {
            changes(1 + i, fio.get(i).acceptWindow(windowStartNs, windowSizeNs, ioCount, bytes), out);
        }
        return out;
    }

    List<Emitted> finish(long endNs) {
        List<Emitted> out = new ArrayList<>(0);
        snia.finish(endNs).ifPresent(r -> changes(0, List.of(r), out));
        for (int i = 0; i < fio.size(); i++) {
            int slot = 1 + i;
            fio.get(i).finish(endNs).ifPresent(r -> changes(slot, List.of(r), out));
        }
        return out;
    }

    private void changes(int slot, List<SteadyStateResult> results, List<Emitted> out) {
        for (SteadyStateResult r : results) {
            boolean changed = lastReached[slot] == null || lastReached[slot] != r.reached()
                    || (r.finalVerdict() && !lastFinal[slot]);
            if (changed) {
                lastReached[slot] = r.reached();
                lastFinal[slot] = r.finalVerdict();
                out.add(new Emitted(slot, r));
            }
        }
    }
}
