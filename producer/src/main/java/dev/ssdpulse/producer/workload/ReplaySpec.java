package dev.ssdpulse.producer.workload;

import dev.ssdpulse.producer.trace.TraceFormat;
import dev.ssdpulse.producer.trace.TraceSource;
import java.util.Locale;
import java.util.Objects;

/**
 * The trace of a REPLAY phase and how it is replayed.
 *
 * @param trace     the trace file (or a shipped trace, {@code classpath:...})
 * @param format    its format, or AUTO to tell it from its first line
 * @param timing    RECORDED: each I/O issued at its recorded time (relative to the trace's first I/O) divided by
 *                  {@code timeScale}; FAST: as fast as the queue-depth cap allows, in recorded order (fio's
 *                  {@code replay_no_stall})
 * @param timeScale the recorded I/O rate multiplier, as fio's {@code replay_time_scale} / 100: 2.0 replays the
 *                  trace at twice its recorded rate (its times halved), 0.5 at half; ignored by FAST
 * @param remap     how the trace's offsets are placed in the phase's span
 */
public record ReplaySpec(TraceSource trace, TraceFormat format, Timing timing, double timeScale, Remap remap) {
    public static final double MAX_TIME_SCALE = 1000;

    public ReplaySpec {
        Objects.requireNonNull(trace, "trace");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(remap, "remap");
    }

    public enum Timing {
        RECORDED,
        FAST;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * SHIFT: the trace's lowest offset (rounded down to 1 MiB, so every alignment up to 1 MiB is kept) goes to the
     * span's start, the rest keeps its distance from it; a trace whose extent exceeds the span is refused.
     * WRAP: as SHIFT, then offsets folded modulo the span (rounded down to 1 MiB); an I/O that would cross the
     * span's end is placed at its start: a trace of a large disk runs on a small target, its locality kept
     * within the span. NONE: offsets as recorded, relative to the span's start; refused if one falls outside.
     */
    public enum Remap {
        SHIFT,
        WRAP,
        NONE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
