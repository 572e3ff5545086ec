package dev.ssdpulse.producer.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.producer.naming.NearestName;
import dev.ssdpulse.producer.trace.TraceFormat;
import dev.ssdpulse.producer.trace.TraceSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Turns a parsed YAML/JSON tree into a {@link WorkloadSpec}, collecting every type, unit, required-field
 * and unknown-field problem (ranges are {@link WorkloadValidator}'s job).
 */
final class SpecReader {
    static final List<String> WORKLOAD_FIELDS = List.of("name", "description", "seed", "targetSize", "phases");
    static final List<String> PHASE_FIELDS = List.of(
            "name",
            "kind",
            "accessSpecs",
            "queueDepth",
            "workers",
            "span",
            "spanSharing",
            "duration",
            "totalBytes",
            "ramp",
            "rateLimitIops",
            "distribution",
            "dataPattern",
            "trim",
            "repeat",
            "trace",
            "format",
            "timing",
            "timeScale",
            "remap");
    /** The fields only a REPLAY phase has. */
    static final List<String> REPLAY_FIELDS = List.of("trace", "format", "timing", "timeScale", "remap");
    /** A REPLAY phase's queue-depth cap when the file gives none (fio's replays run at its iodepth). */
    static final int REPLAY_DEFAULT_QUEUE_DEPTH = 32;

    static final List<String> BLOCK_FIELDS = List.of("name", "repeat", "phases");
    static final List<String> ACCESS_FIELDS = List.of(
            "transferSize", "percentOfSpec", "percentRead", "percentRandom", "alignment", "delay", "burstLength");
    static final List<String> SPAN_FIELDS = List.of("offset", "size");

    private final String source;
    private final Function<String, TraceSource> traces;
    private final List<String> problems = new ArrayList<>();

    /** @param traces resolves a REPLAY phase's {@code trace} as written to where it is read from */
    SpecReader(String source, Function<String, TraceSource> traces) {
        this.source = source;
        this.traces = traces;
    }

    List<String> problems() {
        return problems;
    }

    WorkloadSpec read(JsonNode root) {
        if (root == null || !root.isObject()) {
            problems.add(source + ": (root): expected a mapping with fields " + String.join(", ", WORKLOAD_FIELDS));
            return null;
        }
        unknown(root, "", WORKLOAD_FIELDS);
        String name = string(root, "", "name", true, null);
        String description = string(root, "", "description", false, "");
        long seed = integer(root, "", "seed", false, 1L);
        OptionalLong target = root.hasNonNull("targetSize")
                ? OptionalLong.of(parsed(root.get("targetSize"), "targetSize", this::bytes, 0L))
                : OptionalLong.empty();
        List<WorkloadStep> steps = steps(root, "", "phases");
        return new WorkloadSpec(name, description, seed, target, steps);
    }

    private List<WorkloadStep> steps(JsonNode node, String prefix, String field) {
        List<WorkloadStep> steps = new ArrayList<>();
        JsonNode list = node.get(field);
        String path = prefix + field;
        if (list == null || list.isNull()) {
            problems.add(source + ": " + path + ": is required");
            return steps;
        }
        if (!list.isArray()) {
            problems.add(source + ": " + path + ": expected a list of phases");
            return steps;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode item = list.get(i);
            String at = path + "[" + i + "]";
            if (!item.isObject()) {
                problems.add(source + ": " + at + ": expected a mapping (a phase, or a block with 'phases')");
                continue;
            }
            steps.add(item.has("phases") ? block(item, at) : phase(item, at));
        }
        return steps;
    }

    private RepeatBlock block(JsonNode n, String at) {
        unknown(n, at + ".", BLOCK_FIELDS);
        String name = string(n, at + ".", "name", true, null);
        int repeat = (int) integer(n, at + ".", "repeat", false, 1L);
        return new RepeatBlock(name, repeat, steps(n, at + ".", "phases"));
    }

    private PhaseSpec phase(JsonNode n, String at) {
        String p = at + ".";
        unknown(n, p, PHASE_FIELDS);
        String name = string(n, p, "name", true, null);
        PhaseKind kind = enumValue(n, p, "kind", PhaseKind.class, null, true);
        PhaseSpec.Builder b = PhaseSpec.builder(name, kind);
        if (n.hasNonNull("accessSpecs")) {
            JsonNode list = n.get("accessSpecs");
            if (!list.isArray()) {
                problems.add(source + ": " + p + "accessSpecs: expected a list");
            } else {
                List<AccessSpec> specs = new ArrayList<>();
                for (int j = 0; j < list.size(); j++) {
                    specs.add(accessSpec(list.get(j), p + "accessSpecs[" + j + "]"));
                }
                b.accessSpecs(specs);
            }
        }
        b.queueDepth(
                (int) integer(n, p, "queueDepth", false, kind == PhaseKind.REPLAY ? REPLAY_DEFAULT_QUEUE_DEPTH : 1L));
        b.workers((int) integer(n, p, "workers", false, 1L));
        if (n.hasNonNull("span")) {
            b.span(span(n.get("span"), p + "span"));
        }
        b.spanSharing(enumValue(n, p, "spanSharing", SpanSharing.class, SpanSharing.SHARED, false));
        if (n.hasNonNull("duration")) {
            b.durationNs(parsed(n.get("duration"), p + "duration", this::durationNs, 0L));
        }
        if (n.hasNonNull("totalBytes")) {
            b.totalBytes(parsed(n.get("totalBytes"), p + "totalBytes", this::amount, Amount.ofBytes(1)));
        } else if (kind == PhaseKind.FILL && !n.hasNonNull("duration")) {
            b.totalBytes(Amount.ofPercent(100)); // a fill is one pass over its span unless told otherwise
        }
        if (n.hasNonNull("ramp")) {
            b.rampNs(parsed(n.get("ramp"), p + "ramp", this::durationNs, 0L));
        }
        if (n.hasNonNull("rateLimitIops")) {
            b.rateLimitIops(OptionalLong.of(integer(n, p, "rateLimitIops", false, 1L)));
        }
        if (n.hasNonNull("distribution")) {
            b.distribution(parsed(
                    n.get("distribution"), p + "distribution", SpecReader::distribution, Distribution.uniform()));
        }
        if (n.hasNonNull("dataPattern")) {
            b.dataPattern(parsed(
                    n.get("dataPattern"), p + "dataPattern", SpecReader::dataPattern, DataPattern.incompressible()));
        }
        if (n.hasNonNull("trim")) {
            JsonNode t = n.get("trim");
            if (t.isBoolean()) {
                b.trim(t.booleanValue());
            } else {
                problems.add(source + ": " + p + "trim: '" + t.asText() + "' is not true or false");
            }
        }
        b.repeat((int) integer(n, p, "repeat", false, 1L));
        if (kind == PhaseKind.REPLAY) {
            b.replay(replay(n, p));
        } else {
            for (String f : REPLAY_FIELDS) {
                if (n.has(f)) {
                    problems.add(source + ": " + p + f + ": only a REPLAY phase replays a trace"
                            + (kind == null ? "" : " (this one is " + kind + ")"));
                }
            }
        }
        return b.build();
    }

    private ReplaySpec replay(JsonNode n, String p) {
        String trace = string(n, p, "trace", true, null);
        TraceFormat format = TraceFormat.AUTO;
        if (n.hasNonNull("format")) {
            format = parsed(n.get("format"), p + "format", v -> TraceFormat.parse(v.asText()), TraceFormat.AUTO);
        }
        ReplaySpec.Timing timing =
                enumValue(n, p, "timing", ReplaySpec.Timing.class, ReplaySpec.Timing.RECORDED, false);
        double timeScale = 1.0;
        if (n.hasNonNull("timeScale")) {
            JsonNode v = n.get("timeScale");
            if (v.isNumber()) {
                timeScale = v.doubleValue();
            } else {
                timeScale = parsed(v, p + "timeScale", t -> number(t.asText().trim(), t), 1.0);
            }
        }
        ReplaySpec.Remap remap = enumValue(n, p, "remap", ReplaySpec.Remap.class, ReplaySpec.Remap.SHIFT, false);
        if (trace == null || trace.isBlank()) {
            if (trace != null) {
                problems.add(source + ": " + p + "trace: must name a trace file");
            }
            return null;
        }
        TraceSource resolved;
        try {
            resolved = traces.apply(trace);
        } catch (IllegalArgumentException e) {
            problems.add(source + ": " + p + "trace: '" + trace + "' is not a path: " + e.getMessage());
            return null;
        }
        return new ReplaySpec(resolved, format, timing, timeScale, remap);
    }

    private AccessSpec accessSpec(JsonNode n, String at) {
        String p = at + ".";
        if (!n.isObject()) {
            problems.add(source + ": " + at + ": expected a mapping with fields " + String.join(", ", ACCESS_FIELDS));
            return AccessSpec.of(4096, 0, 0, 0);
        }
        unknown(n, p, ACCESS_FIELDS);
        long transfer = n.hasNonNull("transferSize")
                ? parsed(n.get("transferSize"), p + "transferSize", this::bytes, 4096L)
                : -1;
        if (transfer < 0) {
            problems.add(source + ": " + p + "transferSize: is required");
            transfer = 4096;
        }
        if (transfer > Integer.MAX_VALUE) {
            problems.add(source + ": " + p + "transferSize: " + transfer + " is larger than 1 GiB");
            transfer = 4096;
        }
        int percentOfSpec = (int) integer(n, p, "percentOfSpec", false, 100L);
        int percentRead = (int) integer(n, p, "percentRead", true, 0L);
        int percentRandom = (int) integer(n, p, "percentRandom", true, 0L);
        long alignment = n.hasNonNull("alignment")
                ? parsed(n.get("alignment"), p + "alignment", this::bytes, 4096L)
                : AccessSpec.defaultAlignment(transfer);
        long delayNs = n.hasNonNull("delay") ? parsed(n.get("delay"), p + "delay", this::durationNs, 0L) : 0;
        int burst = (int) integer(n, p, "burstLength", false, 1L);
        return new AccessSpec((int) transfer, percentOfSpec, percentRead, percentRandom, alignment, delayNs, burst);
    }

    private Span span(JsonNode n, String at) {
        if (!n.isObject()) {
            problems.add(source + ": " + at + ": expected a mapping with fields offset, size");
            return Span.whole();
        }
        unknown(n, at + ".", SPAN_FIELDS);
        Amount offset = n.hasNonNull("offset")
                ? parsed(n.get("offset"), at + ".offset", this::amount, Amount.ofBytes(0))
                : Amount.ofBytes(0);
        Amount size = n.hasNonNull("size")
                ? parsed(n.get("size"), at + ".size", this::amount, Amount.ofPercent(100))
                : Amount.ofPercent(100);
        return new Span(offset, size);
    }

    private long bytes(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.longValue();
        }
        if (v.isTextual()) {
            return Units.parseBytes(v.textValue());
        }
        throw new IllegalArgumentException(
                "'" + v.asText() + "' is not a size (expected e.g. 4k, 4KiB, 160GB or a byte count)");
    }

    private long durationNs(JsonNode v) {
        if (v.isIntegralNumber()) {
            return Math.multiplyExact(v.longValue(), 1_000_000_000L);
        }
        if (v.isNumber()) {
            return Units.parseDurationNs(v.asText());
        }
        if (v.isTextual()) {
            return Units.parseDurationNs(v.textValue());
        }
        throw new IllegalArgumentException("'" + v.asText() + "' is not a duration (expected e.g. 500ms, 20m, 5000s)");
    }

    private Amount amount(JsonNode v) {
        if (v.isIntegralNumber()) {
            return Amount.ofBytes(v.longValue());
        }
        if (v.isTextual()) {
            return Amount.parse(v.textValue());
        }
        throw new IllegalArgumentException("'" + v.asText() + "' is not an amount (e.g. 24GB, 100%, 100%-8GB)");
    }

    static Distribution distribution(JsonNode v) {
        String s = v.asText().trim().toLowerCase(Locale.ROOT);
        if (s.equals("uniform")) {
            return Distribution.uniform();
        }
        if (s.startsWith("zipf:")) {
            return Distribution.zipf(number(s.substring(5), v));
        }
        throw new IllegalArgumentException(
                "'" + v.asText() + "' is not a distribution (uniform or zipf:THETA, e.g. zipf:1.2)");
    }

    static DataPattern dataPattern(JsonNode v) {
        String s = v.asText().trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "incompressible":
                return DataPattern.incompressible();
            case "zeros":
                return DataPattern.zeros();
            default:
                if (s.startsWith("compressible:")) {
                    return DataPattern.compressible(number(s.substring(13), v));
                }
                throw new IllegalArgumentException("'" + v.asText()
                        + "' is not a data pattern (incompressible, compressible:RATIO e.g. compressible:2.0, zeros)");
        }
    }

    private static double number(String s, JsonNode v) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + v.asText() + "': '" + s + "' is not a number");
        }
    }

    private <T> T parsed(JsonNode v, String path, Function<JsonNode, T> parser, T fallback) {
        try {
            return parser.apply(v);
        } catch (IllegalArgumentException | ArithmeticException e) {
            problems.add(source + ": " + path + ": " + e.getMessage());
            return fallback;
        }
    }

    private String string(JsonNode n, String p, String field, boolean required, String fallback) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                problems.add(source + ": " + p + field + ": is required");
            }
            return fallback;
        }
        if (!v.isValueNode()) {
            problems.add(source + ": " + p + field + ": expected text");
            return fallback;
        }
        return v.asText();
    }

    private long integer(JsonNode n, String p, String field, boolean required, long fallback) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                problems.add(source + ": " + p + field + ": is required");
            }
            return fallback;
        }
        Long value = null;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            value = v.longValue();
        } else if (v.isTextual()) {
            try {
                value = Long.parseLong(v.textValue().trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        if (value == null) {
            problems.add(source + ": " + p + field + ": '" + v.asText() + "' is not a whole number");
            return fallback;
        }
        // the caller casts every field but these to int: a larger value, as a number or as text, must not wrap
        if (!field.equals("seed")
                && !field.equals("rateLimitIops")
                && (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE)) {
            problems.add(
                    source + ": " + p + field + ": " + value + " is out of range (at most " + Integer.MAX_VALUE + ")");
            return fallback;
        }
        return value;
    }

    private <E extends Enum<E>> E enumValue(
            JsonNode n, String p, String field, Class<E> type, E fallback, boolean required) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                problems.add(source + ": " + p + field + ": is required (one of " + names(type) + ")");
            }
            return fallback;
        }
        String s = v.asText().trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            names.add(e.name());
        }
        problems.add(source + ": " + p + field + ": '" + v.asText() + "' is not one of " + names(type)
                + NearestName.among(s, names)
                        .map(near -> " (did you mean " + near + "?)")
                        .orElse(""));
        return fallback;
    }

    private static String names(Class<? extends Enum<?>> type) {
        List<String> names = new ArrayList<>();
        for (Enum<?> e : type.getEnumConstants()) {
            names.add(e.name());
        }
        return String.join(", ", names);
    }

    private void unknown(JsonNode n, String p, List<String> known) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add(source + ": " + p + f + ": unknown field"
                        + NearestName.among(f, known)
                                .map(near -> " (did you mean " + near + "?)")
                                .orElse("")
                        + ", known fields: " + String.join(", ", known));
            }
        }
    }
}
