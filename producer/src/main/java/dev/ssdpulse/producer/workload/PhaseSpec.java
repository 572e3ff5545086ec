package dev.ssdpulse.producer.workload;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One phase of a workload.
 *
 * @param name          unique among its siblings
 * @param kind          role of the phase
 * @param accessSpecs   IOMeter access-spec lines (empty for IDLE and a plain PURGE)
 * @param queueDepth    outstanding requests per worker
 * @param workers       parallel workers (fio jobs / IOMeter workers)
 * @param span          addressed region
 * @param spanSharing   how workers divide the span
 * @param durationNs    run time, when time-bounded
 * @param totalBytes    bytes to transfer (all workers together), absolute or a percentage of the span
 *                      ("200%" = SNIA's 2x capacity), when size-bounded; with a duration too, the phase
 *                      ends at whichever comes first (fio semantics)
 * @param rampNs        warm-up at the start of the phase, excluded from the statistics by the consumer
 * @param rateLimitIops cap of the whole phase (all workers), when set
 * @param distribution  distribution of random offsets
 * @param dataPattern   data written
 * @param trim          when true the write share of the access specs is issued as TRIM (fio's
 *                      {@code rw=trim}/{@code randtrim}); a PURGE with trim and access specs is a TRIM pass
 * @param repeat        how many times the phase runs in a row (seed 002's three runs)
 * @param replay        the trace of a REPLAY phase (empty for every other kind); its queueDepth caps the I/Os in
 *                      flight
 */
public record PhaseSpec(
        String name,
        PhaseKind kind,
        List<AccessSpec> accessSpecs,
        int queueDepth,
        int workers,
        Span span,
        SpanSharing spanSharing,
        OptionalLong durationNs,
        Optional<Amount> totalBytes,
        long rampNs,
        OptionalLong rateLimitIops,
        Distribution distribution,
        DataPattern dataPattern,
        boolean trim,
        int repeat,
        Optional<ReplaySpec> replay)
        implements WorkloadStep {

    public PhaseSpec {
        accessSpecs = List.copyOf(accessSpecs);
        replay = replay == null ? Optional.empty() : replay;
    }

    /** Planned bytes for this phase on a target of the given size, when size-bounded. */
    public OptionalLong totalBytes(long targetSizeBytes) {
        return totalBytes
                .map(a -> OptionalLong.of(a.resolve(span.sizeBytes(targetSizeBytes))))
                .orElse(OptionalLong.empty());
    }

    /** A builder seeded with every default of the file format (QD1, one worker, whole span, ...). */
    public static Builder builder(String name, PhaseKind kind) {
        return new Builder(name, kind);
    }

    public Builder toBuilder() {
        Builder b = new Builder(name, kind);
        b.accessSpecs = accessSpecs;
        b.queueDepth = queueDepth;
        b.workers = workers;
        b.span = span;
        b.spanSharing = spanSharing;
        b.durationNs = durationNs;
        b.totalBytes = totalBytes;
        b.rampNs = rampNs;
        b.rateLimitIops = rateLimitIops;
        b.distribution = distribution;
        b.dataPattern = dataPattern;
        b.trim = trim;
        b.repeat = repeat;
        b.replay = replay;
        return b;
    }

    /** Mutable builder, used by the loader and by overrides; {@link #build()} does not validate. */
    public static final class Builder {
        private String name;
        private PhaseKind kind;
        private List<AccessSpec> accessSpecs = List.of();
        private int queueDepth = 1;
        private int workers = 1;
        private Span span = Span.whole();
        private SpanSharing spanSharing = SpanSharing.SHARED;
        private OptionalLong durationNs = OptionalLong.empty();
        private Optional<Amount> totalBytes = Optional.empty();
        private long rampNs;
        private OptionalLong rateLimitIops = OptionalLong.empty();
        private Distribution distribution = Distribution.uniform();
        private DataPattern dataPattern = DataPattern.incompressible();
        private boolean trim;
        private int repeat = 1;
        private Optional<ReplaySpec> replay = Optional.empty();

        private Builder(String name, PhaseKind kind) {
            this.name = name;
            this.kind = kind;
        }

        public Builder name(String v) {
            name = v;
            return this;
        }

        public Builder kind(PhaseKind v) {
            kind = v;
            return this;
        }

        public Builder accessSpecs(List<AccessSpec> v) {
            accessSpecs = v;
            return this;
        }

        public Builder accessSpec(AccessSpec v) {
            accessSpecs = List.of(v);
            return this;
        }

        public Builder queueDepth(int v) {
            queueDepth = v;
            return this;
        }

        public Builder workers(int v) {
            workers = v;
            return this;
        }

        public Builder span(Span v) {
            span = v;
            return this;
        }

        public Builder spanSharing(SpanSharing v) {
            spanSharing = v;
            return this;
        }

        public Builder durationNs(long v) {
            durationNs = OptionalLong.of(v);
            return this;
        }

        public Builder durationNs(OptionalLong v) {
            durationNs = v;
            return this;
        }

        public Builder totalBytes(Amount v) {
            totalBytes = Optional.ofNullable(v);
            return this;
        }

        public Builder rampNs(long v) {
            rampNs = v;
            return this;
        }

        public Builder rateLimitIops(OptionalLong v) {
            rateLimitIops = v;
            return this;
        }

        public Builder distribution(Distribution v) {
            distribution = v;
            return this;
        }

        public Builder dataPattern(DataPattern v) {
            dataPattern = v;
            return this;
        }

        public Builder trim(boolean v) {
            trim = v;
            return this;
        }

        public Builder repeat(int v) {
            repeat = v;
            return this;
        }

        public Builder replay(ReplaySpec v) {
            replay = Optional.ofNullable(v);
            return this;
        }

        public PhaseSpec build() {
            return new PhaseSpec(
                    name,
                    kind,
                    accessSpecs,
                    queueDepth,
                    workers,
                    span,
                    spanSharing,
                    durationNs,
                    totalBytes,
                    rampNs,
                    rateLimitIops,
                    distribution,
                    dataPattern,
                    trim,
                    repeat,
                    replay);
        }
    }
}
