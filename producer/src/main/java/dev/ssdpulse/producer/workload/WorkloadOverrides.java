package dev.ssdpulse.producer.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * CLI-style overrides (each null = leave as is), applied to every TEST phase (inside repeated blocks too);
 * {@code seed} and {@code targetSizeBytes} apply to the workload. Purge, preconditioning, fill and idle
 * phases keep their preset values: a QD override is about the measurement, not the preparation.
 *
 * @param queueDepth     outstanding I/Os per worker
 * @param workers        worker count
 * @param durationNs     duration of each TEST phase
 * @param totalBytes     byte budget of each TEST phase (absolute or % of the span)
 * @param span           span of each TEST phase
 * @param rateLimitIops  rate cap of each TEST phase
 * @param rampNs         ramp of each TEST phase
 * @param seed           workload seed
 * @param targetSizeBytes intended target size
 */
public record WorkloadOverrides(
        Integer queueDepth,
        Integer workers,
        Long durationNs,
        Amount totalBytes,
        Span span,
        Long rateLimitIops,
        Long rampNs,
        Long seed,
        Long targetSizeBytes) {

    public static WorkloadOverrides none() {
        return new WorkloadOverrides(null, null, null, null, null, null, null, null, null);
    }

    public WorkloadOverrides withQueueDepth(Integer v) {
        return new WorkloadOverrides(
                v, workers, durationNs, totalBytes, span, rateLimitIops, rampNs, seed, targetSizeBytes);
    }

    public WorkloadOverrides withWorkers(Integer v) {
        return new WorkloadOverrides(
                queueDepth, v, durationNs, totalBytes, span, rateLimitIops, rampNs, seed, targetSizeBytes);
    }

    public WorkloadOverrides withDurationNs(Long v) {
        return new WorkloadOverrides(
                queueDepth, workers, v, totalBytes, span, rateLimitIops, rampNs, seed, targetSizeBytes);
    }

    public WorkloadOverrides withSpan(Span v) {
        return new WorkloadOverrides(
                queueDepth, workers, durationNs, totalBytes, v, rateLimitIops, rampNs, seed, targetSizeBytes);
    }

    public WorkloadOverrides withRateLimitIops(Long v) {
        return new WorkloadOverrides(
                queueDepth, workers, durationNs, totalBytes, span, v, rampNs, seed, targetSizeBytes);
    }

    public WorkloadOverrides withSeed(Long v) {
        return new WorkloadOverrides(
                queueDepth, workers, durationNs, totalBytes, span, rateLimitIops, rampNs, v, targetSizeBytes);
    }

    public boolean isEmpty() {
        return this.equals(none());
    }

    /** Applies the overrides and validates the result (source names the origin in error messages). */
    public WorkloadSpec apply(WorkloadSpec spec, String source) {
        WorkloadSpec out = new WorkloadSpec(
                spec.name(),
                spec.description(),
                seed != null ? seed : spec.seed(),
                targetSizeBytes != null ? OptionalLong.of(targetSizeBytes) : spec.targetSizeBytes(),
                steps(spec.phases()),
                spec.verify());
        WorkloadValidator.validate(out, source + " (with overrides)");
        return out;
    }

    private List<WorkloadStep> steps(List<WorkloadStep> steps) {
        List<WorkloadStep> out = new ArrayList<>(steps.size());
        for (WorkloadStep s : steps) {
            if (s instanceof RepeatBlock b) {
                out.add(new RepeatBlock(b.name(), b.repeat(), steps(b.steps())));
            } else {
                out.add(phase((PhaseSpec) s));
            }
        }
        return out;
    }

    private PhaseSpec phase(PhaseSpec p) {
        if (p.kind() != PhaseKind.TEST) {
            return p;
        }
        PhaseSpec.Builder b = p.toBuilder();
        if (queueDepth != null) b.queueDepth(queueDepth);
        if (workers != null) b.workers(workers);
        if (durationNs != null) b.durationNs(durationNs);
        if (totalBytes != null) b.totalBytes(totalBytes);
        if (span != null) b.span(span);
        if (rateLimitIops != null) b.rateLimitIops(OptionalLong.of(rateLimitIops));
        if (rampNs != null) b.rampNs(rampNs);
        return b.build();
    }
}
