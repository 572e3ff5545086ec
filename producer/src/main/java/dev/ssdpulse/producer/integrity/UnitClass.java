package dev.ssdpulse.producer.integrity;

/** What a unit the log says was written holds after the cut, against the log. */
public enum UnitClass {
    /** The last acknowledged write to the unit (or one in flight at the same time). */
    INTACT,
    /** No stamp of this run for this unit: zeros, other data, another run's stamp, or a stamp naming another LBA. */
    LOST,
    /**
     * Part of a write: a unit of a multi-unit write that lacks it while other units of the write hold it (a shorn
     * write), or a unit whose CRC fails (half of it written).
     */
    TORN,
    /** An older acknowledged write than the last one: the drive rolled the unit back (a mapping-table roll-back). */
    REVERTED,
    /** A write of this run the log never saw (the log was behind at the cut): newer than the log, not a loss. */
    UNLOGGED
}
