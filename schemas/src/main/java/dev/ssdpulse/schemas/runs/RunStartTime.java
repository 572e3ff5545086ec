package dev.ssdpulse.schemas.runs;

import dev.ssdpulse.schemas.avro.RunStarted;
import java.time.Instant;

/**
 * A run's wall-clock start, which RunStarted carries twice while readers move over: {@code wallClockStart}
 * (timestamp-micros, exact in every language's number type) and the deprecated {@code wallClockStartEpochNs}
 * (ns, beyond 2^53). Writers set both here; readers take the new field and fall back to the old one for runs
 * written before it existed.
 */
public final class RunStartTime {
    private RunStartTime() {}

    /** Sets both start fields from one instant (the µs field truncates below a microsecond). */
    public static RunStarted.Builder stamp(RunStarted.Builder builder, Instant start) {
        long epochNs = Math.addExact(Math.multiplyExact(start.getEpochSecond(), 1_000_000_000L), start.getNano());
        return builder.setWallClockStartEpochNs(epochNs)
                .setWallClockStart(Instant.ofEpochSecond(start.getEpochSecond(), start.getNano() / 1_000 * 1_000L));
    }

    /** The run's start: the timestamp field, or for runs written before it, the deprecated ns field. */
    public static Instant of(RunStarted started) {
        Instant start = started.getWallClockStart();
        if (start != null) {
            return start;
        }
        long epochNs = started.getWallClockStartEpochNs();
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L));
    }

    /** The run's start in ns since the Unix epoch, from whichever field the record has. */
    public static long epochNs(RunStarted started) {
        Instant start = of(started);
        return Math.addExact(Math.multiplyExact(start.getEpochSecond(), 1_000_000_000L), start.getNano());
    }
}
