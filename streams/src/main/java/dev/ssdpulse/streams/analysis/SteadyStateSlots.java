package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.steadystate.TrackedVariable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The steady-state detectors of one (TEST phase, direction): slot 0 is SNIA PTS on IOPS (absent for the
 * all-directions judgement, which is fio's alone), slot 1 + i the i-th fio criterion. Remembers what was last
 * emitted per slot so that only changes of verdict are emitted.
 */
final class SteadyStateSlots {
    /** A verdict worth emitting, with its slot. */
    record Emitted(int slot, SteadyStateResult result) {}

    /** Null for the all-directions slots. */
    private final SniaSteadyStateDetector snia;

    private final List<FioSteadyStateDetector> fio;
    private final Boolean[] lastReached;
    private final boolean[] lastFinal;
    private final Boolean[] lastSteadyNow;

    private SteadyStateSlots(SniaSteadyStateDetector snia, List<FioSteadyStateDetector> fio) {
        this.snia = snia;
        this.fio = fio;
        lastReached = new Boolean[1 + fio.size()];
        lastFinal = new boolean[1 + fio.size()];
        lastSteadyNow = new Boolean[1 + fio.size()];
    }

    static SteadyStateSlots create(
            boolean withSnia, long startNs, long windowSizeNs, long sniaRoundNs, List<FioCriterion> criteria) {
        SniaSteadyStateDetector snia = withSnia
                ? new SniaSteadyStateDetector(
                        startNs,
                        sniaRoundNs,
                        TrackedVariable.IOPS,
                        SniaSteadyStateDetector.DEFAULT_WINDOW_ROUNDS,
                        SniaSteadyStateDetector.DEFAULT_RANGE_LIMIT_PERCENT,
                        SniaSteadyStateDetector.DEFAULT_EXCURSION_LIMIT_PERCENT,
                        SniaSteadyStateDetector.DEFAULT_MAX_ROUNDS)
                : null;
        List<FioSteadyStateDetector> fio = new ArrayList<>(criteria.size());
        for (FioCriterion c : criteria) {
            fio.add(c.newDetector(startNs, windowSizeNs));
        }
        return new SteadyStateSlots(snia, fio);
    }

    List<Emitted> acceptWindow(long windowStartNs, long windowSizeNs, long ioCount, long bytes) {
        List<Emitted> out = new ArrayList<>(0);
        if (snia != null) {
            changes(0, snia.acceptWindow(windowStartNs, windowSizeNs, ioCount, bytes), out);
        }
        for (int i = 0; i < fio.size(); i++) {
            changes(1 + i, fio.get(i).acceptWindow(windowStartNs, windowSizeNs, ioCount, bytes), out);
        }
        return out;
    }

    List<Emitted> finish(long endNs) {
        List<Emitted> out = new ArrayList<>(0);
        if (snia != null) {
            snia.finish(endNs).ifPresent(r -> changes(0, List.of(r), out));
        }
        for (int i = 0; i < fio.size(); i++) {
            int slot = 1 + i;
            fio.get(i).finish(endNs).ifPresent(r -> changes(slot, List.of(r), out));
        }
        return out;
    }

    private void changes(int slot, List<SteadyStateResult> results, List<Emitted> out) {
        for (SteadyStateResult r : results) {
            boolean changed = lastReached[slot] == null
                    || lastReached[slot] != r.reached()
                    || (r.finalVerdict() && !lastFinal[slot])
                    || !Objects.equals(lastSteadyNow[slot], r.steadyNow());
            if (changed) {
                lastReached[slot] = r.reached();
                lastFinal[slot] = r.finalVerdict();
                lastSteadyNow[slot] = r.steadyNow();
                out.add(new Emitted(slot, r));
            }
        }
    }

    void encodeInto(BinaryWriter out) {
        out.writeBoolean(snia != null);
        if (snia != null) {
            out.writeBlock(snia.encodeState());
        }
        out.writeUnsignedVarLong(fio.size());
        for (FioSteadyStateDetector d : fio) {
            out.writeBlock(d.encodeState());
        }
        for (int slot = 0; slot < lastReached.length; slot++) {
            out.writeByte(lastReached[slot] == null ? 2 : lastReached[slot] ? 1 : 0)
                    .writeBoolean(lastFinal[slot])
                    .writeByte(lastSteadyNow[slot] == null ? 2 : lastSteadyNow[slot] ? 1 : 0);
        }
    }

    static SteadyStateSlots decodeFrom(BinaryReader in) {
        SniaSteadyStateDetector snia = in.readBoolean("snia present")
                ? SniaSteadyStateDetector.decodeState(in.readBlock("snia detector"))
                : null;
        int n = in.readCount("fio detector count", 1 << 10);
        List<FioSteadyStateDetector> fio = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            fio.add(FioSteadyStateDetector.decodeState(in.readBlock("fio detector")));
        }
        SteadyStateSlots slots = new SteadyStateSlots(snia, fio);
        for (int slot = 0; slot < slots.lastReached.length; slot++) {
            int reached = in.readByte("last reached");
            slots.lastReached[slot] = reached == 2 ? null : reached == 1;
            slots.lastFinal[slot] = in.readBoolean("last final");
            int steadyNow = in.readByte("last steady now");
            slots.lastSteadyNow[slot] = steadyNow == 2 ? null : steadyNow == 1;
        }
        return slots;
    }
}
