package dev.ssdpulse.producer.workload;

/**
 * Role of a phase; the same names as the Avro {@code dev.ssdpulse.schemas.avro.PhaseKind}, so publishing
 * maps by name. PURGE: the driver resets the target (secure erase / format on a device, a fresh drive in
 * the simulator; with {@code trim: true} and access specs, a TRIM pass instead). IDLE: no I/O for the
 * duration. FILL: static data written before a test (e.g. seed 000's "0/4/8/16 GB of free flash"). REPLAY: a
 * recorded block trace issued again ({@link ReplaySpec}); its result is the trace's completion time, the load
 * time.
 */
public enum PhaseKind {
    PURGE,
    PRECONDITION_INDEPENDENT,
    PRECONDITION_DEPENDENT,
    TEST,
    IDLE,
    FILL,
    OTHER,
    REPLAY
}
