package dev.ssdpulse.producer.pacing;

/**
 * The wall clock a paced producer waits on: {@link System#nanoTime()} and a sleep in production, a manual clock in
 * tests, so pacing is tested exactly and without waiting.
 */
public interface WallClock {
    /** Monotonic nanoseconds, as {@link System#nanoTime()} (values may wrap: compare by subtraction). */
    long nanoTime();

    /** Sleeps about {@code ns} nanoseconds (the JVM's sleep resolution: ~0.1-1 ms on Linux, more under load). */
    void sleepNanos(long ns) throws InterruptedException;

    /** The JVM's clock. */
    static WallClock system() {
        return SystemWallClock.INSTANCE;
    }
}
