package dev.ssdpulse.streams.steadystate;

/** Steady-state criterion; names equal the Avro {@code SteadyStateMethod} symbols. */
public enum SteadyStateMethod {
    SNIA_PTS,
    FIO_IOPS,
    FIO_IOPS_SLOPE,
    FIO_BW,
    FIO_BW_SLOPE
}
