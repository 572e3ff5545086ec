package dev.ssdpulse.streams.avro;

import dev.ssdpulse.schemas.avro.PhaseKind;

/** Name and role of a phase, from the run's workload description (the accumulators know only indexes). */
public record PhaseLabel(String name, PhaseKind kind) {
    /** Fallback when the workload is unknown: "phase-&lt;index&gt;", OTHER. */
    public static PhaseLabel unknown(int phaseIndex) {
        return new PhaseLabel("phase-" + phaseIndex, PhaseKind.OTHER);
    }
}
