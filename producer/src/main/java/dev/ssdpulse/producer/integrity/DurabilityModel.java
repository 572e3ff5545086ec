package dev.ssdpulse.producer.integrity;

/**
 * What a drive promised to keep, by which a lost write is judged: a write the model requires is lost when the unit
 * holds neither it nor anything written after it.
 */
public enum DurabilityModel {
    /** Every acknowledged write (a drive with power-loss protection keeps them all). */
    ACKNOWLEDGED,
    /** The writes acknowledged before the last completed FLUSH was submitted (what a drive must keep without PLP). */
    FLUSHED,
    /** The writes issued with FUA (RWF_DSYNC): durable when they complete. */
    FUA
}
