package dev.ssdpulse.streams.steadystate;

/** The series a steady-state criterion watches. */
public enum TrackedVariable {
    /** I/Os per second. */
    IOPS,
    /** Bytes per second. */
    BYTES_PER_SEC
}
