package dev.ssdpulse.producer.workload;

/**
 * A phase in run order after expanding repeats: what a driver executes and what {@code PhaseChanged}
 * events carry.
 *
 * @param index      position in the run, from 0
 * @param name       unique path, e.g. "purge", "run#2", "round#3/rw65-35-bs4k"
 * @param phase      the phase to run
 * @param repetition 1-based repetition of the innermost repeat (1 when not repeated)
 * @param seed       seed for this phase's generators, derived from the workload seed and the index so
 *                   repeated phases do not replay identical offsets
 */
public record ScheduledPhase(int index, String name, PhaseSpec phase, int repetition, long seed) {}
