package dev.ssdpulse.producer.workload;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Semantic checks of a {@link WorkloadSpec} (ranges and cross-field rules), applied after loading and after
 * overrides. Problems read "source: field path: why".
 */
public final class WorkloadValidator {
    /** Largest transfer: 1 GiB (IoRequest.sizeBytes is an int; seed 003 mentions 1 GB requests). */
    public static final int MAX_TRANSFER_BYTES = 1 << 30;

    public static final int MAX_QUEUE_DEPTH = 65_536;
    public static final int MAX_WORKERS = 4_096;

    /** 2^53 - 1: the largest integer below which every integer is exact in a double. */
    static final long MAX_EXACT_DOUBLE_INTEGER = (1L << 53) - 1;

    private WorkloadValidator() {}

    /** Throws {@link WorkloadValidationException} listing every problem, if any. */
    public static void validate(WorkloadSpec spec, String source) {
        List<String> problems = problems(spec, source);
        if (!problems.isEmpty()) {
            throw new WorkloadValidationException(problems);
        }
    }

    public static List<String> problems(WorkloadSpec spec, String source) {
        List<String> p = new ArrayList<>();
        if (spec.name() == null || spec.name().isBlank()) {
            p.add(source + ": name: must not be empty");
        }
        // the seed travels in RunStarted to consumers in every language: a JavaScript number or a double holds
        // integers exactly only up to 2^53 - 1
        if (Math.abs(spec.seed()) > MAX_EXACT_DOUBLE_INTEGER) {
            p.add(source + ": seed: " + spec.seed() + " is out of range (|seed| at most 2^53 - 1 = "
                    + MAX_EXACT_DOUBLE_INTEGER + ", so that every consumer's number type holds it exactly)");
        }
        spec.targetSizeBytes().ifPresent(t -> {
            if (t <= 0) {
                p.add(source + ": targetSize: " + t + " must be > 0");
            }
        });
        if (spec.phases().isEmpty()) {
            p.add(source + ": phases: at least one phase is required");
        }
        steps(spec.phases(), source, "phases", spec, p);
        long n = spec.scheduledPhaseCount();
        if (n > WorkloadSpec.MAX_SCHEDULED_PHASES) {
            p.add(source + ": phases: repeats expand to " + n + " phases, at most " + WorkloadSpec.MAX_SCHEDULED_PHASES
                    + " are allowed");
        }
        return p;
    }

    private static void steps(List<WorkloadStep> steps, String source, String path, WorkloadSpec spec, List<String> p) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            WorkloadStep s = steps.get(i);
            String at = source + ": " + path + "[" + i + "]";
            if (s.name() == null || s.name().isBlank()) {
                p.add(at + ".name: must not be empty");
            } else if (!names.add(s.name())) {
                p.add(at + ".name: '" + s.name() + "' is used twice in " + path);
            } else if (s.name().contains("/") || s.name().contains("#")) {
                p.add(at + ".name: '" + s.name() + "' must not contain '/' or '#' (used in scheduled phase names)");
            }
            if (s.repeat() < 1) {
                p.add(at + ".repeat: " + s.repeat() + " must be >= 1");
            }
            if (s instanceof RepeatBlock b) {
                if (b.steps().isEmpty()) {
                    p.add(at + ".phases: a repeated block needs at least one phase");
                }
                steps(b.steps(), source, path + "[" + i + "].phases", spec, p);
            } else {
                phase((PhaseSpec) s, at, spec, p);
            }
        }
    }

    private static void phase(PhaseSpec ph, String at, WorkloadSpec spec, List<String> p) {
        String label = "phase '" + ph.name() + "'";
        if (ph.kind() == null) {
            p.add(at + ".kind: is required");
            return;
        }
        range(p, at + ".queueDepth", ph.queueDepth(), 1, MAX_QUEUE_DEPTH);
        range(p, at + ".workers", ph.workers(), 1, MAX_WORKERS);
        if (ph.rampNs() < 0) {
            p.add(at + ".ramp: must not be negative");
        }
        ph.durationNs().ifPresent(d -> {
            if (d < 0 || (d == 0 && ph.kind() != PhaseKind.IDLE)) {
                p.add(at + ".duration: " + d + " ns must be > 0" + (ph.kind() == PhaseKind.IDLE ? " or 0" : ""));
            }
        });
        ph.totalBytes().ifPresent(t -> {
            if (t.percent() < 0 || (t.isAbsolute() && t.bytes() <= 0)) {
                p.add(at + ".totalBytes: " + t.toCanonicalString() + " must be > 0");
            }
        });
        ph.rateLimitIops().ifPresent(r -> {
            if (r <= 0) {
                p.add(at + ".rateLimitIops: " + r + " must be > 0");
            }
        });
        if (ph.distribution().kind() == Distribution.Kind.ZIPF
                && !(ph.distribution().theta() > 0 && ph.distribution().theta() <= 100)) {
            p.add(at + ".distribution: zipf theta " + ph.distribution().theta() + " must be in (0, 100]");
        }
        if (ph.dataPattern().kind() == DataPattern.Kind.COMPRESSIBLE
                && !(ph.dataPattern().compressionRatio() >= 1
                        && ph.dataPattern().compressionRatio() <= 1000)) {
            p.add(at + ".dataPattern: compression ratio " + ph.dataPattern().compressionRatio()
                    + " must be in 1..1000");
        }
        Span span = ph.span();
        if (span.offset().percent() < 0
                || (span.offset().isAbsolute() && span.offset().bytes() < 0)) {
            p.add(at + ".span.offset: " + span.offset().toCanonicalString() + " must not be negative");
        }
        if (span.size().percent() < 0
                || (span.size().isAbsolute() && span.size().bytes() <= 0)) {
            p.add(at + ".span.size: " + span.size().toCanonicalString() + " must be > 0");
        }

        boolean io = !ph.accessSpecs().isEmpty();
        switch (ph.kind()) {
            case REPLAY:
                replay(ph, at, p);
                break;
            case IDLE:
                if (io) {
                    p.add(at + ".accessSpecs: an IDLE phase does no I/O, remove its access specs");
                }
                if (ph.durationNs().isEmpty()) {
                    p.add(at + ".duration: an IDLE phase needs a duration");
                }
                break;
            case PURGE:
                if (io && ph.durationNs().isEmpty() && ph.totalBytes().isEmpty()) {
                    p.add(at + ": a PURGE with access specs (a TRIM pass) needs duration or totalBytes");
                }
                break;
            default:
                if (!io) {
                    p.add(at + ".accessSpecs: " + label + " of kind " + ph.kind() + " needs at least one access spec");
                }
                if (ph.durationNs().isEmpty() && ph.totalBytes().isEmpty()) {
                    p.add(at + ": " + label + " needs duration or totalBytes (or both: whichever ends first)");
                }
        }
        int sum = 0;
        int maxTransfer = 0;
        for (int j = 0; j < ph.accessSpecs().size(); j++) {
            AccessSpec a = ph.accessSpecs().get(j);
            String as = at + ".accessSpecs[" + j + "]";
            if (a.transferSizeBytes() <= 0
                    || a.transferSizeBytes() % 512 != 0
                    || a.transferSizeBytes() > MAX_TRANSFER_BYTES) {
                p.add(as + ".transferSize: " + a.transferSizeBytes()
                        + " must be a positive multiple of 512 up to 1 GiB");
            }
            if (a.alignmentBytes() <= 0 || a.alignmentBytes() % 512 != 0) {
                p.add(as + ".alignment: " + a.alignmentBytes() + " must be a positive multiple of 512");
            }
            range(p, as + ".percentOfSpec", a.percentOfSpec(), 0, 100);
            range(p, as + ".percentRead", a.percentRead(), 0, 100);
            range(p, as + ".percentRandom", a.percentRandom(), 0, 100);
            if (a.delayNs() < 0) {
                p.add(as + ".delay: must not be negative");
            }
            if (a.burstLength() < 1) {
                p.add(as + ".burstLength: " + a.burstLength() + " must be >= 1");
            }
            sum += a.percentOfSpec();
            maxTransfer = Math.max(maxTransfer, a.transferSizeBytes());
        }
        if (io && sum != 100) {
            p.add(at + ".accessSpecs: percentOfSpec of " + label + " adds up to " + sum + ", must be 100");
        }
        if (spec.targetSizeBytes().isPresent() && io) {
            long target = spec.targetSizeBytes().getAsLong();
            String problem = spanProblem(ph, target, maxTransfer);
            if (problem != null) {
                p.add(at + ".span: " + problem);
            }
        }
    }

    /** A REPLAY phase: one ordered stream from its trace; the access-spec fields do not apply. */
    private static void replay(PhaseSpec ph, String at, List<String> p) {
        if (ph.replay().isEmpty()) {
            return; // the reader reported the missing trace
        }
        ReplaySpec r = ph.replay().get();
        if (!ph.accessSpecs().isEmpty()) {
            p.add(at + ".accessSpecs: a REPLAY phase issues its trace's I/Os, remove its access specs");
        }
        if (ph.workers() != 1) {
            p.add(at + ".workers: " + ph.workers() + " must be 1 for a REPLAY phase (a trace is one ordered stream;"
                    + " queueDepth caps its I/Os in flight)");
        }
        if (ph.totalBytes().isPresent()) {
            p.add(at + ".totalBytes: a REPLAY phase ends with its trace (a duration may end it earlier)");
        }
        if (ph.rateLimitIops().isPresent()) {
            p.add(at + ".rateLimitIops: a REPLAY phase is paced by its trace (timing, timeScale)");
        }
        if (ph.trim()) {
            p.add(at + ".trim: a REPLAY phase issues its trace's trims as recorded");
        }
        if (!(r.timeScale() > 0 && r.timeScale() <= ReplaySpec.MAX_TIME_SCALE)) {
            p.add(at + ".timeScale: " + r.timeScale() + " must be in (0, " + (long) ReplaySpec.MAX_TIME_SCALE
                    + "] (2 replays at twice the recorded rate)");
        }
    }

    /**
     * Checks a phase's span against a concrete target size; null when it fits. Drivers call it (via
     * {@link #validateForTarget}) once the real capacity is known.
     */
    static String spanProblem(PhaseSpec ph, long targetSizeBytes, int maxTransferBytes) {
        long off = ph.span().offsetBytes(targetSizeBytes);
        long size = ph.span().sizeBytes(targetSizeBytes);
        if (off < 0 || size <= 0 || off + size > targetSizeBytes) {
            return "[" + off + ", " + (off + size) + ") is not inside a target of "
                    + Units.describeBytes(targetSizeBytes);
        }
        long perWorker = ph.spanSharing() == SpanSharing.SPLIT ? size / ph.workers() : size;
        if (perWorker < maxTransferBytes) {
            return (ph.spanSharing() == SpanSharing.SPLIT ? "each worker's slice (" : "span (") + perWorker
                    + " B) is smaller than the largest transfer size " + maxTransferBytes + " B";
        }
        return null;
    }

    /** Checks every phase's span against the real target size (device capacity, simulated drive). */
    public static void validateForTarget(WorkloadSpec spec, long targetSizeBytes, String source) {
        List<String> p = new ArrayList<>();
        for (ScheduledPhase sp : spec.schedule()) {
            PhaseSpec ph = sp.phase();
            if (ph.accessSpecs().isEmpty()) {
                continue;
            }
            int maxTransfer = ph.accessSpecs().stream()
                    .mapToInt(AccessSpec::transferSizeBytes)
                    .max()
                    .orElse(0);
            String problem = spanProblem(ph, targetSizeBytes, maxTransfer);
            if (problem != null && p.stream().noneMatch(s -> s.contains("'" + ph.name() + "'"))) {
                p.add(source + ": phase '" + ph.name() + "' span: " + problem);
            }
        }
        if (!p.isEmpty()) {
            throw new WorkloadValidationException(p);
        }
    }

    private static void range(List<String> p, String at, long value, long min, long max) {
        if (value < min || value > max) {
            p.add(at + ": " + value + " is not in " + min + ".." + max);
        }
    }
}
