package dev.ssdpulse.producer.pacing;

import java.util.concurrent.TimeUnit;

/** {@link WallClock} on {@link System#nanoTime()} and {@link TimeUnit#sleep}; stateless. */
enum SystemWallClock implements WallClock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleepNanos(long ns) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(ns);
    }
}
