package dev.ssdpulse.producer.workload;

/** An entry of a workload's phase list: a single phase or a block of steps repeated N times. */
public sealed interface WorkloadStep permits PhaseSpec, RepeatBlock {
    String name();

    /** How many times the step runs in a row (&gt;= 1). */
    int repeat();
}
