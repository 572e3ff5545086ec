package dev.ssdpulse.producer.sim.ftl.power;

import dev.ssdpulse.producer.integrity.UnitContents;
import dev.ssdpulse.producer.integrity.UnitStamp;

/**
 * A simulated drive's content after a power cut, unit by unit, as the verification reads a real target's stamps
 * ({@link UnitContents}): the stamp of the version the recovered mapping points at, or zeros where it points at
 * nothing or at a page whose program never completed. The model's own account of the cut ({@link #account}) is what
 * a verification of the same content must find.
 */
public final class PowerCut implements UnitContents {
    private final UnitVersions versions;
    private final long cutNs;
    private final boolean powerLossProtection;
    private final long cutInterval;
    private long runHash;

    PowerCut(UnitVersions versions, long cutNs, boolean powerLossProtection) {
        this.versions = versions;
        this.cutNs = cutNs;
        this.powerLossProtection = powerLossProtection;
        this.cutInterval = versions.interval(cutNs);
    }

    /** The drive time of the cut. */
    public long cutNs() {
        return cutNs;
    }

    public boolean powerLossProtection() {
        return powerLossProtection;
    }

    /** The stamps report this run's hash (a simulated unit holds only what the run wrote). */
    public PowerCut forRun(long runHash) {
        this.runHash = runHash;
        return this;
    }

    /** The sequence unit {@code lpn} holds after the cut: a stamp sequence, or {@link UnitVersions#NONE}. */
    public long heldSequence(long lpn) {
        if (!versions.written(lpn)) {
            return UnitVersions.NONE;
        }
        long latest = versions.latestSequence(lpn);
        if (powerLossProtection) {
            return latest == UnitVersions.TRIMMED ? UnitVersions.NONE : latest;
        }
        boolean rolledBack = versions.latestInterval(lpn) >= cutInterval;
        long sequence = rolledBack ? versions.checkpointedSequence(lpn) : latest;
        long durableNs = rolledBack ? versions.checkpointedDurableNs(lpn) : versions.latestDurableNs(lpn);
        if (sequence < 0 || durableNs > cutNs) {
            return UnitVersions.NONE;
        }
        return sequence;
    }

    /** What the model says the cut did to the units the run wrote. */
    public Account account() {
        long written = 0, unprogrammed = 0, toOlder = 0, toNothing = 0, bufferedAtCut = 0;
        for (long lpn = 0; lpn < versions.units(); lpn++) {
            if (!versions.written(lpn)) {
                lpn |= (1 << 15) - 1; // the whole page is unwritten
                continue;
            }
            long latest = versions.latestSequence(lpn);
            if (latest < 0) {
                continue;
            }
            written++;
            if (versions.latestDurableNs(lpn) > cutNs) {
                bufferedAtCut++;
            }
            if (powerLossProtection) {
                continue;
            }
            boolean back = versions.latestInterval(lpn) >= cutInterval;
            long durableNs = back ? versions.checkpointedDurableNs(lpn) : versions.latestDurableNs(lpn);
            long held = back ? versions.checkpointedSequence(lpn) : latest;
            if (held >= 0 && durableNs > cutNs) {
                unprogrammed++;
            } else if (back && held >= 0) {
                toOlder++;
            } else if (back) {
                toNothing++;
            }
        }
        return new Account(written, bufferedAtCut, unprogrammed, toOlder, toNothing);
    }

    /**
     * @param writtenUnits   units whose latest operation in the run was a write
     * @param bufferedUnits  of which the latest version was still in the volatile write buffer at the cut
     * @param unprogrammedUnits units that hold nothing after the cut because the version their recovered mapping
     *                       points at was still in the buffer (lost with the buffer)
     * @param rolledBackToOlderUnits   units whose mapping rolled back to the last checkpoint's, an older version
     *                                 that reached flash: they hold it
     * @param rolledBackToNothingUnits units whose mapping rolled back to the last checkpoint's, which maps nothing
     *                                 (first written since): they hold zeros
     */
    public record Account(
            long writtenUnits,
            long bufferedUnits,
            long unprogrammedUnits,
            long rolledBackToOlderUnits,
            long rolledBackToNothingUnits) {}

    @Override
    public void read(long[] extents, Observer observer) {
        UnitStamp.Observation o = new UnitStamp.Observation();
        for (int i = 0; i < extents.length; i += 2) {
            for (long lba = extents[i]; lba < extents[i] + extents[i + 1]; lba++) {
                long held = lba < versions.units() ? heldSequence(lba) : UnitVersions.NONE;
                if (held < 0) {
                    o.state = UnitStamp.State.ZEROS;
                    o.runHash = 0;
                    o.lba = 0;
                    o.sequence = 0;
                } else {
                    o.state = UnitStamp.State.STAMPED;
                    o.runHash = runHash;
                    o.lba = lba;
                    o.sequence = held;
                }
                observer.unit(lba, o);
            }
        }
    }
}
