package dev.ssdpulse.producer.pacing;

import java.util.ArrayList;
import java.util.List;

/** A wall clock that moves only when slept on: pacing tests run in no time and see every sleep. */
public final class ManualWallClock implements WallClock {
    private long nowNanos;
    private final List<Long> sleepsNs = new ArrayList<>();

    /** @param startNanos where the clock starts (near Long.MAX_VALUE to test wrap-around) */
    public ManualWallClock(long startNanos) {
        this.nowNanos = startNanos;
    }

    @Override
    public long nanoTime() {
        return nowNanos;
    }

    @Override
    public void sleepNanos(long ns) {
        if (ns <= 0) {
            throw new AssertionError("asked to sleep " + ns + " ns");
        }
        sleepsNs.add(ns);
        nowNanos += ns;
    }

    /** Time passing without a sleep (a slow send, a descheduled thread). */
    public void advance(long ns) {
        nowNanos += ns;
    }

    public List<Long> sleepsNs() {
        return sleepsNs;
    }

    public long sleptNs() {
        return sleepsNs.stream().mapToLong(Long::longValue).sum();
    }
}
