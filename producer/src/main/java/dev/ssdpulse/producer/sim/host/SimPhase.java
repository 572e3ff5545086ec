package dev.ssdpulse.producer.sim.host;

import dev.ssdpulse.producer.io.RequestGenerator;
import java.util.List;

/**
 * One phase of a simulated run. An I/O phase has one generator per worker, each worker keeping
 * {@code queueDepth} commands outstanding; it stops submitting once {@code durationNs} has elapsed since
 * the phase start (if > 0), once {@code byteBudget} bytes have been submitted in the phase (if > 0), or
 * when every generator is exhausted, and ends when its last command completes (or at the duration, if
 * that is later). An idle phase submits nothing for {@code durationNs}; idle GC may run meanwhile.
 * {@code compressedFraction} is how far the phase's written data compresses (compressed / original size:
 * 1.0 incompressible, 0.5 for 2:1 data, 0 zeros), from the workload's data pattern. {@code powerCut}: the phase
 * ends with the drive's power cut (POWER_CUT) when its duration has passed or its byte budget is submitted, its
 * I/Os in flight left unacknowledged; the run ends there.
 */
public record SimPhase(
        int phaseIndex,
        List<RequestGenerator> workers,
        int queueDepth,
        long durationNs,
        long byteBudget,
        boolean idle,
        double compressedFraction,
        boolean powerCut) {

    public SimPhase {
        workers = List.copyOf(workers);
        if (!(compressedFraction >= 0 && compressedFraction <= 1)) {
            throw new IllegalArgumentException(
                    "phase " + phaseIndex + ": compressedFraction must be in [0, 1], got " + compressedFraction);
        }
        if (idle) {
            if (durationNs <= 0) {
                throw new IllegalArgumentException("idle phase " + phaseIndex + " needs durationNs > 0");
            }
        } else {
            if (workers.isEmpty()) {
                throw new IllegalArgumentException("phase " + phaseIndex + " has no workers");
            }
            if (queueDepth < 1) {
                throw new IllegalArgumentException(
                        "phase " + phaseIndex + ": queueDepth must be >= 1, got " + queueDepth);
            }
            if (durationNs < 0 || byteBudget < 0) {
                throw new IllegalArgumentException("phase " + phaseIndex + ": durationNs and byteBudget must be >= 0");
            }
        }
    }

    public static SimPhase io(
            int phaseIndex, List<RequestGenerator> workers, int queueDepth, long durationNs, long byteBudget) {
        return io(phaseIndex, workers, queueDepth, durationNs, byteBudget, 1.0);
    }

    public static SimPhase io(
            int phaseIndex,
            List<RequestGenerator> workers,
            int queueDepth,
            long durationNs,
            long byteBudget,
            double compressedFraction) {
        return new SimPhase(phaseIndex, workers, queueDepth, durationNs, byteBudget, false, compressedFraction, false);
    }

    public static SimPhase idle(int phaseIndex, long durationNs) {
        return new SimPhase(phaseIndex, List.of(), 0, durationNs, 0, true, 1.0, false);
    }

    /** I/O until the power is cut: after {@code durationNs}, or once {@code byteBudget} bytes are submitted. */
    public static SimPhase powerCut(
            int phaseIndex,
            List<RequestGenerator> workers,
            int queueDepth,
            long durationNs,
            long byteBudget,
            double compressedFraction) {
        return new SimPhase(phaseIndex, workers, queueDepth, durationNs, byteBudget, false, compressedFraction, true);
    }

    /** No I/O, then the power cut {@code durationNs} after the phase starts. */
    public static SimPhase idlePowerCut(int phaseIndex, long durationNs) {
        return new SimPhase(phaseIndex, List.of(), 0, durationNs, 0, true, 1.0, true);
    }
}
