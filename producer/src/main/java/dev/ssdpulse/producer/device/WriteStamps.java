package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.integrity.UnitStamp;

/**
 * A run whose writes are stamped ({@code verify: true}, {@code device --verify-writes}): the hash of its run id and
 * its seed, which every {@link UnitStamp} carries or is drawn from.
 */
public record WriteStamps(long runHash, long seed) {
    public static WriteStamps forRun(String runId, long seed) {
        return new WriteStamps(UnitStamp.runHash(runId), seed);
    }
}
