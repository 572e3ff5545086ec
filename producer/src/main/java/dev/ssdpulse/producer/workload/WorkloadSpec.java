package dev.ssdpulse.producer.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A complete workload: phases (or repeated blocks of phases) run in order against one target.
 *
 * @param name            workload or preset name
 * @param description     one line
 * @param seed            root seed; every generator's seed derives from it
 * @param targetSizeBytes intended target size (e.g. seed 001's 160 GB test file): the size a file target is
 *                        created with; a block device or simulated drive uses its own capacity
 * @param phases          steps in run order
 * @param verify          stamp every 4 KiB unit a write carries so that {@code ssdpulse verify} can check the target
 *                        against the run's log afterwards (a power-loss test); the data written is then the stamps
 *                        and their incompressible pseudo-random rest, whatever a phase's dataPattern
 */
public record WorkloadSpec(
        String name,
        String description,
        long seed,
        OptionalLong targetSizeBytes,
        List<WorkloadStep> phases,
        boolean verify) {

    /** Expansion guard: more scheduled phases than this is a spec error, not a workload. */
    public static final int MAX_SCHEDULED_PHASES = 1_000_000;

    public WorkloadSpec {
        phases = List.copyOf(phases);
    }

    /** A workload whose writes are not stamped. */
    public WorkloadSpec(
            String name, String description, long seed, OptionalLong targetSizeBytes, List<WorkloadStep> phases) {
        this(name, description, seed, targetSizeBytes, phases, false);
    }

    /** The same workload with its writes stamped ({@code device --verify-writes}) or not. */
    public WorkloadSpec withVerify(boolean v) {
        return new WorkloadSpec(name, description, seed, targetSizeBytes, phases, v);
    }

    /** Number of phases after expanding repeats (saturates at Long.MAX_VALUE). */
    public long scheduledPhaseCount() {
        return count(phases);
    }

    private static long count(List<WorkloadStep> steps) {
        long n = 0;
        for (WorkloadStep s : steps) {
            long inner = s instanceof RepeatBlock b ? count(b.steps()) : 1;
            n = saturatingAdd(n, saturatingMultiply(inner, s.repeat()));
        }
        return n;
    }

    /** The phases in run order with repeats expanded. */
    public List<ScheduledPhase> schedule() {
        long n = scheduledPhaseCount();
        if (n > MAX_SCHEDULED_PHASES) {
            throw new IllegalStateException(
                    "workload '" + name + "' expands to " + n + " phases, more than " + MAX_SCHEDULED_PHASES);
        }
        List<ScheduledPhase> out = new ArrayList<>((int) n);
        expand(phases, "", out);
        return out;
    }

    private void expand(List<WorkloadStep> steps, String prefix, List<ScheduledPhase> out) {
        for (WorkloadStep s : steps) {
            for (int r = 1; r <= s.repeat(); r++) {
                String name = prefix + s.name() + (s.repeat() > 1 ? "#" + r : "");
                if (s instanceof RepeatBlock b) {
                    expand(b.steps(), name + "/", out);
                } else {
                    int index = out.size();
                    out.add(new ScheduledPhase(index, name, (PhaseSpec) s, r, phaseSeed(seed, index)));
                }
            }
        }
    }

    /** SplitMix64 finalizer of (seed, index): well-spread, stable across versions (it is part of replay). */
    static long phaseSeed(long seed, long index) {
        return mix64(seed + 0x9E3779B97F4A7C15L * (index + 1));
    }

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }

    private static long saturatingMultiply(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }
}
