package dev.ssdpulse.producer.device;

/**
 * When a worker's next request may be submitted: {@code delayNs} after the previous request's scheduled submit
 * (a rate limit of 1 / delay per worker, as fio's {@code rate_iops}), or now if that time has passed. A worker
 * that fell behind (a slow device, a descheduled thread) is not given a burst to catch up: the schedule restarts
 * from now, so the rate is never exceeded over any span. Pure arithmetic on {@link System#nanoTime()} values, so
 * the pacing is tested without a clock.
 */
final class SubmitPacing {
    /** The previous scheduled submit of a worker that has submitted nothing yet. */
    static final long NONE = Long.MIN_VALUE;

    private SubmitPacing() {}

    /**
     * @param lastScheduledNanos the previous request's scheduled submit time, or {@link #NONE}
     * @param delayNs            the minimum gap to the previous submit; 0 or less: unpaced
     * @param nowNanos           the current time
     */
    static long scheduledNanos(long lastScheduledNanos, long delayNs, long nowNanos) {
        if (delayNs <= 0 || lastScheduledNanos == NONE) {
            return nowNanos;
        }
        long due = lastScheduledNanos + delayNs;
        return due - nowNanos > 0 ? due : nowNanos; // subtraction: nanoTime values may wrap
    }
}
