package dev.ssdpulse.streams.waf;

import java.util.Optional;

/**
 * Write amplification of one run from its SMART samples, fed in time order.
 *
 * <ul>
 *   <li>Each usable sample after the first yields a {@link WaInterval}: deltas against the previous usable
 *       sample and cumulative totals since the first.</li>
 *   <li>A sample without host bytes or any NAND figure is unusable: counted, ignored.</li>
 *   <li>A sample with time <= the previous usable sample's time is out of order (or a duplicate): counted,
 *       ignored; the counters of a late sample cannot be placed without rewriting emitted intervals.</li>
 *   <li>A host or NAND total that goes backwards is a counter reset (device power cycle, simulator restart,
 *       counter wrap): the sample becomes the new origin for deltas, no interval is emitted for it, the
 *       reset is counted, and the cumulative totals keep the deltas accumulated before the reset.</li>
 * </ul>
 * Not thread-safe: one instance per run.
 */
public final class WriteAmplificationAccumulator {
    private SmartCounters previous;
    private long hostCumulative;
    private long nandCumulative;
    private long firstTimeNs = Long.MIN_VALUE;
    private long resetCount;
    private long outOfOrderCount;
    private long unusableCount;
    private WaInterval last;

    /** @return the interval ending at this sample, or empty (first, unusable, out-of-order or reset sample) */
    public Optional<WaInterval> accept(SmartCounters sample) {
        Long nand = sample.nandTotal();
        if (sample.hostBytesWritten() == null || nand == null) {
            unusableCount++;
            return Optional.empty();
        }
        if (previous == null) {
            previous = sample;
            firstTimeNs = sample.timeNs();
            return Optional.empty();
        }
        if (sample.timeNs() <= previous.timeNs()) {
            outOfOrderCount++;
            return Optional.empty();
        }
        long hostDelta = sample.hostBytesWritten() - previous.hostBytesWritten();
        long nandDelta = nand - previous.nandTotal();
        if (hostDelta < 0 || nandDelta < 0) {
            resetCount++;
            previous = sample;
            return Optional.empty();
        }
        hostCumulative += hostDelta;
        nandCumulative += nandDelta;
        WaInterval interval = new WaInterval(previous.timeNs(), sample.timeNs(), hostDelta, nandDelta,
                causeDelta(previous.nandBytesWrittenHost(), sample.nandBytesWrittenHost()),
                causeDelta(previous.nandBytesWrittenGc(), sample.nandBytesWrittenGc()),
                causeDelta(previous.nandBytesWrittenWearLeveling(), sample.nandBytesWrittenWearLeveling()),
                causeDelta(previous.nandBytesWrittenMetadata(), sample.nandBytesWrittenMetadata()),
                WaInterval.ratio(nandDelta, hostDelta), hostCumulative, nandCumulative,
                WaInterval.ratio(nandCumulative, hostCumulative), sample.freeBlocks());
        previous = sample;
        last = interval;
        return Optional.of(interval);
    }

    private static Long causeDelta(Long before, Long after) {
        if (before == null || after == null || after < before) {
            return null;
        }
        return after - before;
    }

    public long hostBytesWrittenCumulative() {
        return hostCumulative;
    }

    public long nandBytesWrittenCumulative() {
        return nandCumulative;
    }

    /** NAND / host since the first sample; null while the host has written nothing. */
    public Double waCumulative() {
        return WaInterval.ratio(nandCumulative, hostCumulative);
    }

    /** The latest interval, or null before the second usable sample. */
    public WaInterval lastInterval() {
        return last;
    }

    /** Time of the first usable sample, Long.MIN_VALUE before it. */
    public long firstTimeNs() {
        return firstTimeNs;
    }

    public long resetCount() {
        return resetCount;
    }

    public long outOfOrderCount() {
        return outOfOrderCount;
    }

    public long unusableCount() {
        return unusableCount;
    }
}
