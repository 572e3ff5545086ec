package dev.ssdpulse.producer.workload;

/**
 * How a phase makes its writes durable: a FLUSH after every {@code flushEveryWrites} writes of a worker and/or
 * after every {@code flushIntervalNs} of a worker's time (whichever comes first when both are set), and a share of
 * its writes issued with FUA ({@code RWF_DSYNC}: durable when they complete). FLUSHes are I/Os of the run like any
 * other, recorded with their latency; a power-loss verification judges lost writes against them.
 *
 * @param flushEveryWrites a FLUSH after this many writes of a worker (0: none)
 * @param flushIntervalNs  a FLUSH once this much time passed since the worker's last one, when it wrote since (0:
 *                         none)
 * @param fuaPercent       0..100: the share of writes issued with FUA
 */
public record WriteDurability(int flushEveryWrites, long flushIntervalNs, int fuaPercent) {
    private static final WriteDurability NONE = new WriteDurability(0, 0, 0);

    /** No FLUSH, no FUA: the device's cache decides when writes become durable. */
    public static WriteDurability none() {
        return NONE;
    }

    /** True when the phase issues FLUSHes or FUA writes. */
    public boolean any() {
        return flushEveryWrites > 0 || flushIntervalNs > 0 || fuaPercent > 0;
    }
}
