package dev.ssdpulse.streams.window;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import java.util.List;

/**
 * A closed event-time window of one op of one run. Only windows that saw at least one I/O exist; a
 * second with no I/O of an op has no result (consumers that need a dense series fill the gap with zeros).
 *
 * @param op          op code ({@link IoOpCode})
 * @param windowStartNs inclusive start, ns since run start (a multiple of windowSizeNs)
 * @param windowSizeNs window length, ns
 * @param phaseIndex  phase of the I/O with the latest completion time in the window (ties: highest phase
 *                    index) - order-independent, unlike "the last I/O added"
 * @param ioCount     I/Os completed in the window
 * @param bytes       bytes transferred
 * @param errorCount  I/Os with a non-zero status
 * @param latency     latency of the window's I/Os (owned by the result; do not mutate)
 * @param phaseParts  the window's I/Os split by phase, ascending phase index (one part unless a phase change
 *                    fell inside the window); with one part, its latency is the same object as {@code latency}
 */
public record WindowResult(
        int op,
        long windowStartNs,
        long windowSizeNs,
        int phaseIndex,
        long ioCount,
        long bytes,
        long errorCount,
        LatencyAccumulator latency,
        List<PhasePart> phaseParts) {

    public WindowResult {
        phaseParts = List.copyOf(phaseParts);
    }

    public long windowEndNs() {
        return windowStartNs + windowSizeNs;
    }

    /** I/Os per second over the window. */
    public double iops() {
        return ioCount * 1e9 / windowSizeNs;
    }

    /** MB/s over the window, 1 MB = 1e6 bytes. */
    public double mbPerSec() {
        return bytes / 1e6 * 1e9 / windowSizeNs;
    }
}
