package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.cli.run.RunOutput;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * A {@link RunOutput} in front of the real one that notes, per analytics window (I/O completion time in run time
 * divided by the window length), the wall clock (epoch ms) at which the last I/O of that window was handed to the
 * publisher: the start of the lag to the window's appearance in the views. One run, one simulation thread.
 */
final class WindowClock extends ForwardingRunOutput {
    private final long windowNs;
    private final LongSupplier wallMs;
    private long[] lastIoWallMs = new long[64];
    private int windows;
    private long firstIoWallMs = -1;
    private long ioCount;

    WindowClock(RunOutput delegate, long windowNs, LongSupplier wallMs) {
        super(delegate);
        this.windowNs = windowNs;
        this.wallMs = wallMs;
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        delegate.onIoCompleted(
                worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
        long now = wallMs.getAsLong();
        if (firstIoWallMs < 0) {
            firstIoWallMs = now;
        }
        ioCount++;
        int window = Math.toIntExact((submitTimeNs + latencyNs) / windowNs);
        if (window >= lastIoWallMs.length) {
            lastIoWallMs = Arrays.copyOf(lastIoWallMs, Math.max(window + 1, 2 * lastIoWallMs.length));
        }
        lastIoWallMs[window] = now;
        windows = Math.max(windows, window + 1);
    }

    long firstIoWallMs() {
        return firstIoWallMs;
    }

    long ioCount() {
        return ioCount;
    }

    /** Per window index, the wall ms of its last I/O; 0 for a window without I/O. */
    long[] lastIoWallMs() {
        return Arrays.copyOf(lastIoWallMs, windows);
    }
}
