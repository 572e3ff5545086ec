package dev.ssdpulse.producer.pacing;

import java.util.function.BooleanSupplier;

/**
 * Maps a run's own time (ns since its start) to the wall clock at {@code speed} run seconds per wall second, and
 * waits for it: what `play --speed` and `simulate --realtime --speed` share. The wait is sliced (at most
 * {@code maxSliceNs} per sleep) so a stop request is seen within one slice; a step already due is never delayed,
 * and a producer that fell behind within a phase is not slowed further (the wall schedule stays fixed to the start,
 * so it catches up instead of drifting). A phase never starts in a burst: one starting behind its schedule (setup
 * and unpaced preparation took longer than their run time) moves the start forward ({@link #startPhase}), so the
 * run's time t is due at the start plus {@link #originShiftNs()} plus t / speed.
 */
public final class RunTimePacer {
    private final WallClock clock;
    private final double speed;
    private final long maxSliceNs;
    private long startNanos;
    private long originShiftNs;

    /**
     * Starts the schedule now.
     *
     * @param speed      run seconds per wall second (> 0; 1 = real time)
     * @param maxSliceNs the longest single sleep, so stop requests are seen at least this often
     */
    public RunTimePacer(WallClock clock, double speed, long maxSliceNs) {
        this(clock, speed, maxSliceNs, clock.nanoTime());
    }

    /**
     * Starts the schedule at {@code startNanos} on the clock (earlier than now: the run's recorded start, taken before
     * its producer connected), so run time t comes due at that start plus t / speed: a producer starting late catches
     * up, and the run's times stay those of the wall clock from its recorded start.
     */
    public RunTimePacer(WallClock clock, double speed, long maxSliceNs, long startNanos) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be a finite number > 0, got " + speed);
        }
        if (maxSliceNs <= 0) {
            throw new IllegalArgumentException("maxSliceNs must be > 0, got " + maxSliceNs);
        }
        this.clock = clock;
        this.speed = speed;
        this.maxSliceNs = maxSliceNs;
        this.startNanos = startNanos;
    }

    /**
     * A paced phase starts at run time {@code runTimeNs}: when that time is already past due, the start moves forward
     * so that it is due now, and the phase is paced from its own start instead of catching up in a burst.
     *
     * @return the wall nanoseconds the start moved by (0 when on schedule)
     */
    public long startPhase(long runTimeNs) {
        long lateNs = elapsedWallNs() - wallOffsetNs(runTimeNs);
        if (lateNs <= 0) {
            return 0;
        }
        startNanos += lateNs;
        originShiftNs += lateNs;
        return lateNs;
    }

    /** Wall nanoseconds the start has moved forward in all ({@link #startPhase}): run time to wall clock offset. */
    public long originShiftNs() {
        return originShiftNs;
    }

    /** Wall nanoseconds from the start at which run time {@code runTimeNs} is due. */
    public long wallOffsetNs(long runTimeNs) {
        return (long) (runTimeNs / speed);
    }

    /** The run time that is due now. */
    public long runTimeNowNs() {
        return (long) (elapsedWallNs() * speed);
    }

    /** Wall nanoseconds since the start. */
    public long elapsedWallNs() {
        return clock.nanoTime() - startNanos;
    }

    /**
     * Waits until run time {@code runTimeNs} is due.
     *
     * @return false when {@code stop} asked to stop first (checked before every slice, also when already due)
     */
    public boolean awaitRunTime(long runTimeNs, BooleanSupplier stop) throws InterruptedException {
        long dueOffsetNs = wallOffsetNs(runTimeNs);
        while (true) {
            if (stop.getAsBoolean()) {
                return false;
            }
            long waitNs = dueOffsetNs - elapsedWallNs();
            if (waitNs <= 0) {
                return true;
            }
            clock.sleepNanos(Math.min(waitNs, maxSliceNs));
        }
    }

    /** Sleeps one slice (a producer that advances on its own in small steps, such as the simulator). */
    public void sleepSlice() throws InterruptedException {
        clock.sleepNanos(maxSliceNs);
    }
}
