package dev.ssdpulse.schemas.runs;

import dev.ssdpulse.schemas.avro.RunStarted;
import java.time.Instant;

/**
 * A run's wall-clock start: {@code wallClockStart} (timestamp-micros, exact in every language's number type). The
 * retired {@code wallClockStartEpochNs} (ns, beyond 2^53) is written as null; readers fall back to it for runs
 * recorded before {@code wallClockStart} existed.
 */
public final class RunStartTime {
    private RunStartTime() {}

    /**
     * Sets the start (truncated below a microsecond), and the retired ns field to null, also in a builder copied
     * from an older record.
     */
    public static RunStarted.Builder stamp(RunStarted.Builder builder, Instant start) {
        return builder.setWallClockStartEpochNs(null)
                .setWallClockStart(Instant.ofEpochSecond(start.getEpochSecond(), start.getNano() / 1_000 * 1_000L));
    }

    /**
     * The run's start: the timestamp field, or for runs recorded before it, the retired ns field; null for a record
     * with neither (the analytics send such a record to the dead-letter topic).
     */
    public static Instant of(RunStarted started) {
        Instant start = started.getWallClockStart();
        if (start != null) {
            return start;
        }
        Long epochNs = started.getWallClockStartEpochNs();
        return epochNs == null
                ? null
                : Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L));
    }
}
