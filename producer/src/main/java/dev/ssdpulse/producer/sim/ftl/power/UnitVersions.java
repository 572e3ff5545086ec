package dev.ssdpulse.producer.sim.ftl.power;

import java.util.Arrays;

/**
 * What each host unit of a simulated drive holds and since when it would survive a power cut: the FTL's record of
 * host data for a power cut ({@link #cut}). Per unit, the latest version the host wrote (its write's stamp sequence,
 * the map checkpoint interval its mapping update falls in, when its data reached flash) and the version the last map
 * checkpoint before it maps (the latest one written in an earlier interval). Units the run never wrote cost nothing
 * (pages of 32 Ki units allocated on first write); a written page costs 40 bytes a unit.
 *
 * <p>Data path: a unit is <em>buffered</em> when the write buffer accepts it (the mapping points at it from then on),
 * <em>programmed</em> when the NAND program of its page completes (the FTL reports each page of a plane in the order
 * the plane's units were buffered), and a FLUSH or FUA write that writes the open pages out early makes them durable
 * at that program's completion. Map checkpoints: the mapping table is persisted at every multiple of
 * {@code mapCheckpointIntervalNs} of drive time and when every FLUSH and FUA write completes (the mapping of the
 * commands before it: a drive that honours FLUSH persists the mapping with the data), and a checkpoint persists a
 * unit's mapping only where its data is on flash by then. A unit's mapping update counts from its command's
 * submission (at most a buffer wait earlier than the unit's own acceptance); commands come in submission order, so
 * the checkpoints after a version are the interval boundaries after its submission and the FLUSHes recorded after
 * it. Two versions are kept per unit: where both roll back, the unit reads as holding nothing (an older version
 * could have survived; the model does not know it).
 */
public final class UnitVersions {
    /** A unit the run never wrote. */
    public static final long NONE = -1;
    /** A unit whose latest operation was a TRIM. */
    public static final long TRIMMED = -2;

    private static final int PAGE_SHIFT = 15;
    private static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    private static final int PAGE_MASK = PAGE_SIZE - 1;
    /** Not yet on flash. */
    private static final long VOLATILE = Long.MAX_VALUE;

    private final long units;
    private final long mapCheckpointIntervalNs;
    // per unit; a sequence is stored + 3 (0: never written, 1: trimmed) so that unallocated pages read as NONE
    private final long[][] latestSequence;
    private final long[][] latestInterval;
    private final long[][] latestDurableNs;
    private final long[][] checkpointedSequence;
    private final long[][] checkpointedDurableNs;
    /** Per plane, the buffered units not yet in a programmed page, oldest first: (unit, stored sequence) pairs. */
    private final long[][] pending;

    private final int[] pendingHead;
    private final int[] pendingSize;
    /** Map checkpoints made by FLUSH and FUA writes so far, and when each was made (its completion). */
    private int flushCheckpoints;

    private long[] flushCheckpointNs = new long[16];

    /**
     * @param units                   host units (4 KiB) of the drive
     * @param mapCheckpointIntervalNs drive time between two map checkpoints (> 0)
     */
    public UnitVersions(long units, int planes, long mapCheckpointIntervalNs) {
        if (mapCheckpointIntervalNs <= 0) {
            throw new IllegalArgumentException("mapCheckpointIntervalNs must be > 0, got " + mapCheckpointIntervalNs);
        }
        this.units = units;
        this.mapCheckpointIntervalNs = mapCheckpointIntervalNs;
        int pages = Math.toIntExact((units + PAGE_SIZE - 1) >>> PAGE_SHIFT);
        this.latestSequence = new long[pages][];
        this.latestInterval = new long[pages][];
        this.latestDurableNs = new long[pages][];
        this.checkpointedSequence = new long[pages][];
        this.checkpointedDurableNs = new long[pages][];
        this.pending = new long[planes][64];
        this.pendingHead = new int[planes];
        this.pendingSize = new int[planes];
    }

    public long units() {
        return units;
    }

    /**
     * The write buffer accepted unit {@code lpn} of the write with stamp {@code sequence}, submitted at
     * {@code submitNs}, for {@code plane}'s open page.
     */
    public void buffered(long lpn, long sequence, long submitNs, int plane) {
        update(lpn, sequence + 3, submitNs, VOLATILE);
        long[] ring = pending[plane];
        if (pendingSize[plane] * 2 == ring.length) {
            long[] grown = new long[ring.length * 2];
            for (int i = 0; i < pendingSize[plane]; i++) {
                int at = (pendingHead[plane] + i) * 2 & ring.length - 1;
                grown[2 * i] = ring[at];
                grown[2 * i + 1] = ring[at + 1];
            }
            pending[plane] = ring = grown;
            pendingHead[plane] = 0;
        }
        int at = (pendingHead[plane] + pendingSize[plane]++) * 2 & ring.length - 1;
        ring[at] = lpn;
        ring[at + 1] = sequence + 3;
    }

    /** A TRIM of unit {@code lpn} submitted at {@code submitNs}: a mapping update without data. */
    public void trimmed(long lpn, long submitNs) {
        update(lpn, 1, submitNs, submitNs);
    }

    /** The program of {@code plane}'s next page, holding its {@code units} oldest pending units, completes then. */
    public void programmed(int plane, int units, long programmedNs) {
        long[] ring = pending[plane];
        int n = Math.min(units, pendingSize[plane]);
        for (int i = 0; i < n; i++) {
            int at = pendingHead[plane] * 2 & ring.length - 1;
            durable(ring[at], ring[at + 1], programmedNs);
            pendingHead[plane] = (pendingHead[plane] + 1) & (ring.length / 2 - 1);
        }
        pendingSize[plane] -= n;
    }

    /**
     * {@code plane}'s open page is written out early (a FLUSH, a FUA write), completing then: its pending units are
     * durable from then on, and stay pending for the program of their page.
     */
    public void padded(int plane, long programmedNs) {
        long[] ring = pending[plane];
        for (int i = 0; i < pendingSize[plane]; i++) {
            int at = (pendingHead[plane] + i) * 2 & ring.length - 1;
            durable(ring[at], ring[at + 1], programmedNs);
        }
    }

    /**
     * A FLUSH or FUA write persists, once it completes at {@code doneNs}, the mapping of every command before it.
     */
    public void checkpointed(long doneNs) {
        if (flushCheckpoints == flushCheckpointNs.length) {
            flushCheckpointNs = Arrays.copyOf(flushCheckpointNs, flushCheckpoints * 2);
        }
        flushCheckpointNs[flushCheckpoints++] = doneNs;
    }

    /**
     * When the last map checkpoint at or before {@code cutNs} was made: an interval boundary or a FLUSH's completion.
     * A checkpoint persists the mapping of a unit only where that unit's data was on flash by then.
     */
    long lastCheckpointNs(long cutNs) {
        long last = Math.floorDiv(cutNs, mapCheckpointIntervalNs) * mapCheckpointIntervalNs;
        for (int i = 0; i < flushCheckpoints; i++) {
            if (flushCheckpointNs[i] <= cutNs) {
                last = Math.max(last, flushCheckpointNs[i]);
            }
        }
        return last;
    }

    /** Whether {@code plane} has buffered units whose page is not programmed yet. */
    public boolean hasPending(int plane) {
        return pendingSize[plane] > 0;
    }

    /**
     * The drive's content after its power is cut at {@code cutNs}: with power-loss protection every buffered unit is
     * programmed and the map checkpointed on the capacitors' energy (each unit holds its latest version); without,
     * the mapping updates since the last checkpoint roll back and a unit whose mapped version was still in the buffer
     * holds nothing.
     */
    public PowerCut cut(long cutNs, boolean powerLossProtection) {
        return new PowerCut(this, cutNs, powerLossProtection);
    }

    /**
     * How many map checkpoints precede a time no earlier than every command recorded so far: the interval boundaries
     * and the FLUSH checkpoints. Two versions separated by none roll back together.
     */
    long interval(long timeNs) {
        return Math.floorDiv(timeNs, mapCheckpointIntervalNs) + flushCheckpoints;
    }

    /** The latest version's sequence: {@link #NONE}, {@link #TRIMMED} or a stamp sequence. */
    public long latestSequence(long lpn) {
        return decoded(get(latestSequence, lpn));
    }

    long latestInterval(long lpn) {
        return get(latestInterval, lpn);
    }

    long latestDurableNs(long lpn) {
        return get(latestDurableNs, lpn);
    }

    long checkpointedSequence(long lpn) {
        return decoded(get(checkpointedSequence, lpn));
    }

    long checkpointedDurableNs(long lpn) {
        return get(checkpointedDurableNs, lpn);
    }

    boolean written(long lpn) {
        return latestSequence[(int) (lpn >>> PAGE_SHIFT)] != null;
    }

    private static long decoded(long stored) {
        return stored == 0 ? NONE : stored == 1 ? TRIMMED : stored - 3;
    }

    private void update(long lpn, long stored, long submitNs, long durableNs) {
        if (lpn < 0 || lpn >= units) {
            throw new IllegalArgumentException("unit " + lpn + " outside the drive's " + units + " units");
        }
        int p = (int) (lpn >>> PAGE_SHIFT);
        int i = (int) (lpn & PAGE_MASK);
        if (latestSequence[p] == null) {
            latestSequence[p] = new long[PAGE_SIZE];
            latestInterval[p] = new long[PAGE_SIZE];
            latestDurableNs[p] = new long[PAGE_SIZE];
            checkpointedSequence[p] = new long[PAGE_SIZE];
            checkpointedDurableNs[p] = new long[PAGE_SIZE];
            Arrays.fill(latestDurableNs[p], VOLATILE);
            Arrays.fill(checkpointedDurableNs[p], VOLATILE);
        }
        long interval = interval(submitNs);
        if (latestSequence[p][i] != 0 && latestInterval[p][i] < interval) {
            // the latest version is older than the checkpoint(s) since: it is what they map
            checkpointedSequence[p][i] = latestSequence[p][i];
            checkpointedDurableNs[p][i] = latestDurableNs[p][i];
        }
        latestSequence[p][i] = stored;
        latestInterval[p][i] = interval;
        latestDurableNs[p][i] = durableNs;
    }

    private void durable(long lpn, long stored, long programmedNs) {
        int p = (int) (lpn >>> PAGE_SHIFT);
        int i = (int) (lpn & PAGE_MASK);
        if (latestSequence[p][i] == stored) {
            latestDurableNs[p][i] = Math.min(latestDurableNs[p][i], programmedNs);
        } else if (checkpointedSequence[p][i] == stored) {
            checkpointedDurableNs[p][i] = Math.min(checkpointedDurableNs[p][i], programmedNs);
        }
        // else: overwritten twice since, in the same checkpoint interval; no map points at it any more
    }

    /** An entry; 0 on a page never written (callers ask {@link #written} first where it matters). */
    private static long get(long[][] pages, long lpn) {
        long[] page = pages[(int) (lpn >>> PAGE_SHIFT)];
        return page == null ? 0 : page[(int) (lpn & PAGE_MASK)];
    }
}
