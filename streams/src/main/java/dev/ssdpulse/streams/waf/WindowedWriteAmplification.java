package dev.ssdpulse.streams.waf;

import java.util.ArrayList;
import java.util.List;

/**
 * Sums {@link WaInterval}s into fixed windows of N ns (e.g. 60 s) for a coarser WA series. An interval is
 * attributed whole to the window containing its end sample (toTimeNs - 1 ns, so an interval ending exactly
 * on a boundary belongs to the window it closes); with SMART samples every second or so and windows of a
 * minute, the misattribution is at most one sample period at each window edge. A window is emitted when an
 * interval of a later window arrives, or by {@link #flush()}.
 */
public final class WindowedWriteAmplification {
    /** One window's sums; wa null when host bytes are 0. */
    public record Window(long windowStartNs, long windowSizeNs, long hostBytesWrittenDelta,
                         long nandBytesWrittenDelta, Double wa, int intervals) {
    }

    private final long windowSizeNs;
    private long currentIndex = Long.MIN_VALUE;
    private long host;
    private long nand;
    private int intervals;

    public WindowedWriteAmplification(long windowSizeNs) {
        if (windowSizeNs <= 0) {
            throw new IllegalArgumentException("windowSizeNs must be > 0, was " + windowSizeNs);
        }
        this.windowSizeNs = windowSizeNs;
    }

    /** @return windows completed by this interval (usually none or one) */
    public List<Window> accept(WaInterval interval) {
        long index = Math.floorDiv(interval.toTimeNs() - 1, windowSizeNs);
        List<Window> done = new ArrayList<>(1);
        if (currentIndex != Long.MIN_VALUE && index != currentIndex) {
            if (index < currentIndex) {
                throw new IllegalArgumentException("WA interval ending at " + interval.toTimeNs()
                        + " ns is earlier than the current window starting at " + currentIndex * windowSizeNs + " ns");
            }
            done.add(current());
            host = 0;
            nand = 0;
            intervals = 0;
        }
        currentIndex = index;
        host += interval.hostBytesWrittenDelta();
        nand += interval.nandBytesWrittenDelta();
        intervals++;
        return done;
    }

    /** Emits the open window, if any. */
    public List<Window> flush() {
        if (currentIndex == Long.MIN_VALUE || intervals == 0) {
            return List.of();
        }
        Window w = current();
        host = 0;
        nand = 0;
        intervals = 0;
        return List.of(w);
    }

    private Window current() {
        return new Window(currentIndex * windowSizeNs, windowSizeNs, host, nand, WaInterval.ratio(nand, host), intervals);
    }
}
