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
    private final long lastCheckpointNs;
    private long runHash;

    PowerCut(UnitVersions versions, long cutNs, boolean powerLossProtection) {
        this.versions = versions;
        this.cutNs = cutNs;
        this.powerLossProtection = powerLossProtection;
        this.cutInterval = versions.interval(cutNs);
        this.lastCheckpointNs = versions.lastCheckpointNs(cutNs);
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
        if (persisted(versions.latestInterval(lpn), versions.latestDurableNs(lpn))) {
            return latest < 0 ? UnitVersions.NONE : latest;
        }
        // the latest mapping rolls back to the one before it, if that one was persisted
        long older = versions.checkpointedSequence(lpn);
        if (older >= 0 && versions.checkpointedDurableNs(lpn) <= lastCheckpointNs) {
            return older;
        }
        return UnitVersions.NONE;
    }

    /** A mapping made in {@code interval} persists if a checkpoint followed it with its data on flash by then. */
    private boolean persisted(long interval, long durableNs) {
        return interval < cutInterval && durableNs <= lastCheckpointNs;
    }

    /** What the model says the cut did to the units the run wrote. */
    public Account account() {
        long written = 0, buffered = 0, held = 0, older = 0, nothing = 0;
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
                buffered++;
            }
            long now = heldSequence(lpn);
            if (now == latest) {
                held++;
            } else if (now >= 0) {
                older++;
            } else {
                nothing++;
            }
        }
        return new Account(written, buffered, held, older, nothing);
    }

    /**
     * @param writtenUnits      units whose latest operation in the run was a write
     * @param bufferedUnits     of which the latest version was still in the volatile write buffer at the cut (lost
     *                          with it unless protected)
     * @param latestUnits       units that hold their latest version after the cut
     * @param olderUnits        units whose mapping rolled back to an older version they hold
     * @param nothingUnits      units that hold nothing (their latest version's data or mapping was lost, and no
     *                          older one is known to have been persisted)
     */
    public record Account(
            long writtenUnits, long bufferedUnits, long latestUnits, long olderUnits, long nothingUnits) {}

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
