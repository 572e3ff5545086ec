package dev.ssdpulse.producer.integrity;

import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.util.HashMap;
import java.util.Map;

/**
 * The run's log reduced to what each 4 KiB unit must hold: per unit, the last acknowledged write (the one submitted
 * last) and its times, any write in flight at the same time (it may legitimately have landed last), and per
 * durability model the submit time of the last write the model requires. Built in the log's order, which differs
 * from time order across workers: every rule below gives the same state in any order.
 *
 * <p><b>Memory</b>, per unit of the written range: 16 bytes (a state word: the sequence in 40 bits and flags; the
 * submit and completion times in 32-bit ticks), plus 4 bytes per model with required writes (FLUSHED when the run
 * completed a FLUSH, FUA when it wrote FUA), in pages allocated where the run wrote; a bit per write of the run
 * (which sequences were logged); and a small map for units with concurrent writes. A 100 GiB written span is
 * 26.2 M units: 420 MB, 524 MB with FLUSHes, 629 MB with FLUSHes and FUA writes.
 *
 * <p><b>Time resolution.</b> Times are kept in ticks of {@link #tickNs} (1 us, coarser only for runs longer than
 * 2^32 us = 71 min, so that a tick fits 32 bits): a submit time rounded down, a completion up. Two writes less
 * than a tick apart therefore count as concurrent, never as ordered: the rounding can hide a loss in that window,
 * never invent one.
 *
 * <p><b>Concurrent writes</b> to one unit (both in flight at once) may land in either order; the unit is intact
 * with either. A write w is superseded, and no longer a legitimate content, once a write to the unit was submitted
 * after w completed: the candidates are the writes whose completion is at or after the latest submit time.
 */
final class WriteLog implements RunLog.Visitor {
    static final long SEQ_MASK = (1L << 40) - 1;
    /** Largest sequence a unit's state word can hold (2^40 - 2: over a trillion writes). */
    static final long MAX_SEQUENCE = SEQ_MASK - 1;

    static final long F_EXTRAS = 1L << 40;
    static final long F_TRIMMED = 1L << 41;
    static final long F_EXPECTED_FUA = 1L << 42;
    static final long F_EXPECTED_FLUSHED = 1L << 43;
    static final int CLASS_SHIFT = 44;
    static final long CLASS_MASK = 7L << CLASS_SHIFT;
    static final int KIND_SHIFT = 47;
    static final long KIND_MASK = 7L << KIND_SHIFT;
    static final long F_OLD_GENERATION = 1L << 50;
    static final long V_ACKNOWLEDGED = 1L << 51;
    static final long V_FLUSHED = 1L << 52;
    static final long V_FUA = 1L << 53;
    static final long P_FLUSHED = 1L << 54;
    static final long P_FUA = 1L << 55;

    /** What a non-intact unit holds ({@link #KIND_SHIFT}). */
    static final int KIND_ZEROS = 1;

    static final int KIND_UNSTAMPED = 2;
    static final int KIND_OTHER_RUN = 3;
    static final int KIND_MISPLACED = 4;
    static final int KIND_CORRUPT = 5;

    final long baseUnit;
    final long units;
    final long tickNs;
    final long lastFlushSubmitNs;
    final PagedLongs state;
    final PagedLongs times;
    /** Submit tick + 1 of the latest write the model requires; null when the model requires none in this run. */
    final PagedInts flushedFloor;

    final PagedInts fuaFloor;
    final PagedBits logged;
    /** unit -> {sequence, times, ...} of writes concurrent with the unit's expected one. */
    final Map<Long, long[]> extras = new HashMap<>();

    WriteLog(LogScan scan) {
        this.baseUnit = scan.minUnit;
        this.units = scan.endUnit - scan.minUnit;
        // 2^32 - 2 ticks cover the run: 1 us unless the run is longer than ~71 minutes
        this.tickNs = Math.max(1000L, Math.floorDiv(scan.lastCompletionNs, 0xFFFF_FFFEL) + 1);
        this.lastFlushSubmitNs = scan.lastFlushSubmitNs;
        this.state = new PagedLongs(units);
        this.times = new PagedLongs(units);
        this.flushedFloor = scan.lastFlushSubmitNs >= 0 ? new PagedInts(units) : null;
        this.fuaFloor = scan.fuaWrites > 0 ? new PagedInts(units) : null;
        this.logged = new PagedBits(scan.maxSequence + 1);
    }

    long submitTick(long ns) {
        return Math.max(0, ns) / tickNs;
    }

    long completeTick(long ns) {
        return Math.max(0, ns + tickNs - 1) / tickNs;
    }

    static long pack(long submitTick, long completeTick) {
        return (completeTick << 32) | submitTick;
    }

    static long submitOf(long t) {
        return t & 0xFFFF_FFFFL;
    }

    static long completeOf(long t) {
        return t >>> 32;
    }

    static long sequenceOf(long state) {
        return (state & SEQ_MASK) - 1;
    }

    static boolean expected(long state) {
        return (state & SEQ_MASK) != 0;
    }

    @Override
    public void write(
            int worker,
            int phaseIndex,
            long sequence,
            long offsetBytes,
            int sizeBytes,
            long submitNs,
            long completeNs,
            int flags,
            int status) {
        if (status != 0 || sequence == IoFlags.NO_SEQUENCE) {
            return;
        }
        logged.set(sequence);
        long sTick = submitTick(submitNs);
        long cTick = completeTick(completeNs);
        boolean fua = IoFlags.isFua(flags);
        boolean flushed = lastFlushSubmitNs >= 0 && completeNs < lastFlushSubmitNs;
        long first = (offsetBytes >>> UnitStamp.UNIT_SHIFT) - baseUnit;
        long end = first + (sizeBytes >>> UnitStamp.UNIT_SHIFT);
        int floor = (int) (sTick + 1);
        for (long u = first; u < end; u++) {
            place(u, sequence, sTick, cTick, fua, flushed);
            if (flushed && Integer.compareUnsigned(floor, flushedFloor.get(u)) > 0) {
                flushedFloor.set(u, floor);
            }
            if (fua && Integer.compareUnsigned(floor, fuaFloor.get(u)) > 0) {
                fuaFloor.set(u, floor);
            }
        }
    }

    private void place(long u, long sequence, long sTick, long cTick, boolean fua, boolean flushed) {
        long st = state.get(u);
        long newState = (sequence + 1) | (fua ? F_EXPECTED_FUA : 0) | (flushed ? F_EXPECTED_FLUSHED : 0);
        if (st == 0) {
            state.set(u, newState);
            times.set(u, pack(sTick, cTick));
            return;
        }
        long t = times.get(u);
        long latestSubmit = submitOf(t);
        boolean trimmed = (st & F_TRIMMED) != 0;
        // the latest write: the one submitted last, of two submitted in the same tick the later sequence (so that
        // the state is the same in any log order)
        if (sTick > latestSubmit || (sTick == latestSubmit && !trimmed && sequence > sequenceOf(st))) {
            // the new latest write; the old candidates stay only if still in flight when it was submitted
            long[] carried = trimmed ? null : carried(u, st, t, sTick);
            if (carried != null) {
                extras.put(u, carried);
                newState |= F_EXTRAS;
            } else {
                extras.remove(u);
            }
            state.set(u, newState);
            times.set(u, pack(sTick, cTick));
        } else if (!trimmed && cTick >= latestSubmit) {
            // in flight when the latest was submitted: it may have landed last
            long[] more = extras.get(u);
            long[] grown = more == null ? new long[2] : java.util.Arrays.copyOf(more, more.length + 2);
            grown[grown.length - 2] = sequence;
            grown[grown.length - 1] = pack(sTick, cTick);
            extras.put(u, grown);
            state.set(u, st | F_EXTRAS);
        }
        // else: completed before the latest was submitted, superseded
    }

    /** The unit's current candidates still in flight at {@code sTick}, or null. */
    private long[] carried(long u, long st, long t, long sTick) {
        long[] kept = null;
        int n = 0;
        if (completeOf(t) >= sTick) {
            kept = new long[2];
            kept[0] = sequenceOf(st);
            kept[1] = t;
            n = 2;
        }
        long[] more = (st & F_EXTRAS) != 0 ? extras.get(u) : null;
        if (more != null) {
            for (int i = 0; i < more.length; i += 2) {
                if (completeOf(more[i + 1]) >= sTick) {
                    kept = kept == null ? new long[2] : java.util.Arrays.copyOf(kept, n + 2);
                    kept[n] = more[i];
                    kept[n + 1] = more[i + 1];
                    n += 2;
                }
            }
        }
        return kept;
    }

    @Override
    public void flush(int worker, int phaseIndex, long submitNs, long completeNs, int status) {}

    /**
     * A TRIM submitted after a unit's latest write leaves it undefined: the unit is not checked (and what it was
     * required to hold is void), unless a later write follows. A write submitted before the TRIM but logged after
     * it is placed as if the TRIM had not been there: concurrent TRIMs and writes to a unit are not resolved.
     */
    @Override
    public void trim(
            int worker, int phaseIndex, long offsetBytes, long sizeBytes, long submitNs, long completeNs, int status) {
        if (status != 0 || units == 0) {
            return;
        }
        long sTick = submitTick(submitNs);
        long first = Math.max(0, (offsetBytes >>> UnitStamp.UNIT_SHIFT) - baseUnit);
        long end = Math.min(units, ((offsetBytes + sizeBytes) >>> UnitStamp.UNIT_SHIFT) - baseUnit);
        for (long u = first; u < end; u++) {
            long st = state.get(u);
            if (st == 0 || ((st & F_TRIMMED) == 0 && sTick > submitOf(times.get(u)))) {
                state.set(u, F_TRIMMED);
                times.set(u, pack(sTick, 0));
                extras.remove(u);
                if (flushedFloor != null) {
                    flushedFloor.set(u, 0);
                }
                if (fuaFloor != null) {
                    fuaFloor.set(u, 0);
                }
            }
        }
    }

    @Override
    public void other(int worker, int phaseIndex, long completeNs) {}

    /** Whether {@code sequence} is a write the log acknowledged. */
    boolean isLogged(long sequence) {
        return logged.get(sequence);
    }

    /** Times of {@code sequence} when it is one of the unit's concurrent candidates, else -1. */
    long extraTimes(long u, long sequence) {
        long[] more = extras.get(u);
        if (more == null) {
            return -1;
        }
        for (int i = 0; i < more.length; i += 2) {
            if (more[i] == sequence) {
                return more[i + 1];
            }
        }
        return -1;
    }

    long stateBytes() {
        return state.allocatedBytes()
                + times.allocatedBytes()
                + (flushedFloor == null ? 0 : flushedFloor.allocatedBytes())
                + (fuaFloor == null ? 0 : fuaFloor.allocatedBytes())
                + logged.allocatedBytes();
    }
}
