package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;

/**
 * Garbage in, clean errors out: whatever the text of a workload file (random, a mutated valid file, random
 * trees of known and unknown fields with hostile values, deep nesting), the loader returns a spec or throws
 * {@link WorkloadValidationException} whose every problem starts with the file name; never another exception
 * and never a hang.
 */
class WorkloadParserPropertyTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final String VALID = """
            name: prop
            description: property test base
            seed: 3
            targetSize: 1GiB
            phases:
              - name: fill
                kind: FILL
                accessSpecs: [{transferSize: 128k, percentRead: 0, percentRandom: 0}]
              - name: test
                kind: TEST
                accessSpecs:
                  - {transferSize: 4k, percentOfSpec: 70, percentRead: 70, percentRandom: 100}
                  - {transferSize: 64KiB, percentOfSpec: 30, percentRead: 0, percentRandom: 0,
                     delay: 1ms, burstLength: 2}
                queueDepth: 8
                workers: 2
                span: {offset: 1MiB, size: "50%"}
                duration: 20s
                ramp: 1s
                distribution: zipf:1.1
                dataPattern: compressible:2
              - name: rounds
                repeat: 2
                phases:
                  - {name: a, kind: TEST, duration: 1s,
                     accessSpecs: [{transferSize: 4k, percentRead: 100, percentRandom: 100}]}
            """;
    private static final List<String> INT_FIELDS_OF_PHASE = List.of("queueDepth", "workers", "repeat");
    private static final List<String> INT_FIELDS_OF_ACCESS =
            List.of("percentOfSpec", "percentRead", "percentRandom", "burstLength");
    private static final List<String> ALL_KEYS = List.of(
            "name",
            "description",
            "seed",
            "targetSize",
            "phases",
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
            "transferSize",
            "percentOfSpec",
            "percentRead",
            "percentRandom",
            "alignment",
            "delay",
            "burstLength",
            "offset",
            "size");

    private final WorkloadLoader loader = new WorkloadLoader();

    @Example
    void theBaseDocumentIsValidInYamlAndJson() throws Exception {
        assertThat(loader.parse(VALID, "base.yaml").phases()).hasSize(3);
        assertThat(loader.parse(JSON.writeValueAsString(YAML.readTree(VALID)), "base.json")
                        .phases())
                .hasSize(3);
    }

    @Property(tries = 500)
    void randomTextGivesOnlyValidationErrors(@ForAll String text, @ForAll boolean json) {
        check(text, json);
    }

    @Property(tries = 500)
    void yamlAndJsonLikeTextGivesOnlyValidationErrors(@ForAll("structuredNoise") String text, @ForAll boolean json) {
        check(text, json);
    }

    @Property(tries = 500)
    void mutatedValidDocumentsGiveOnlyValidationErrors(@ForAll("edits") List<Edit> edits, @ForAll boolean json)
            throws Exception {
        String base = json ? JSON.writeValueAsString(YAML.readTree(VALID)) : VALID;
        StringBuilder text = new StringBuilder(base);
        for (Edit e : edits) {
            e.apply(text);
        }
        check(text.toString(), json);
    }

    @Property(tries = 300)
    void randomTreesWithHostileValuesGiveOnlyValidationErrors(@ForAll("trees") JsonNode tree, @ForAll boolean json)
            throws Exception {
        check(json ? JSON.writeValueAsString(tree) : YAML.writeValueAsString(tree), json);
    }

    @Property(tries = 200)
    void hostileValuesInAValidDocumentGiveOnlyValidationErrors(
            @ForAll("fieldPaths") String field, @ForAll("hostileValues") JsonNode value, @ForAll boolean json)
            throws Exception {
        ObjectNode root = (ObjectNode) YAML.readTree(VALID);
        set(root, field, value);
        check(json ? JSON.writeValueAsString(root) : YAML.writeValueAsString(root), json);
    }

    @Property(tries = 30)
    void deepNestingGivesAValidationErrorNotAStackOverflow(
            @ForAll @IntRange(min = 50, max = 5_000) int depth, @ForAll("nestingStyles") String style) {
        String text = switch (style) {
            case "json-array" -> "[".repeat(depth) + "]".repeat(depth);
            case "json-object" -> "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
            case "yaml-flow" -> "name: x\nphases: " + "[".repeat(depth) + "]".repeat(depth);
            case "yaml-block" -> {
                StringBuilder b = new StringBuilder("name: x\nphases:\n");
                for (int i = 0; i < Math.min(depth, 300); i++) {
                    b.append("  ".repeat(i + 1)).append("- ").append('\n');
                }
                yield b.toString();
            }
            default -> throw new IllegalArgumentException(style);
        };
        WorkloadValidationException e = expectRejected(text, style.startsWith("json"));
        assertThat(e.problems()).isNotEmpty();
    }

    /** An int field out of int range, as a number or as text, is an error: never a silently wrapped value. */
    @Property(tries = 300)
    void intFieldsOutOfIntRangeAreRefusedWhetherNumberOrText(
            @ForAll("outOfIntRange") long value, @ForAll("intFields") String field, @ForAll boolean asText)
            throws Exception {
        ObjectNode root = (ObjectNode) YAML.readTree(VALID);
        JsonNode v = asText ? NODES.textNode(Long.toString(value)) : NODES.numberNode(value);
        set(root, field, v);
        WorkloadValidationException e = expectRejected(YAML.writeValueAsString(root), false);
        String leaf = field.substring(field.lastIndexOf('.') + 1);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(leaf));
    }

    @Property(tries = 200)
    void unknownKeysAnywhereAreRefusedByName(@ForAll("unknownKeys") String key, @ForAll("objectPaths") String where)
            throws Exception {
        ObjectNode root = (ObjectNode) YAML.readTree(VALID);
        ObjectNode target = where.isEmpty() ? root : (ObjectNode) at(root, where);
        target.put(key, 1);
        WorkloadValidationException e = expectRejected(YAML.writeValueAsString(root), false);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(key + ": unknown field"));
    }

    // ---- checking ----

    private void check(String text, boolean json) {
        String source = json ? "w.json" : "w.yaml";
        Throwable thrown = assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> {
                    try {
                        loader.parse(text, source);
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                },
                () -> "parsing did not finish in 10 s: " + abbreviate(text));
        if (thrown == null) {
            return;
        }
        if (!(thrown instanceof WorkloadValidationException e)) {
            throw new AssertionError(
                    "unexpected " + thrown + " for " + (json ? "JSON" : "YAML") + " input: " + abbreviate(text),
                    thrown);
        }
        assertThat(e.problems()).isNotEmpty();
        assertThat(e.problems()).allSatisfy(p -> assertThat(p).startsWith(source + ": "));
        assertThat(e.getMessage()).isNotBlank();
    }

    private WorkloadValidationException expectRejected(String text, boolean json) {
        check(text, json);
        try {
            loader.parse(text, json ? "w.json" : "w.yaml");
        } catch (WorkloadValidationException e) {
            return e;
        }
        throw new AssertionError("accepted: " + abbreviate(text));
    }

    private static String abbreviate(String text) {
        return text.length() <= 400 ? text : text.substring(0, 400) + "... (" + text.length() + " chars)";
    }

    // ---- tree paths: "phases[1].accessSpecs[0].percentRead" ----

    private static void set(ObjectNode root, String path, JsonNode value) {
        int dot = path.lastIndexOf('.');
        ObjectNode parent = dot < 0 ? root : (ObjectNode) at(root, path.substring(0, dot));
        parent.set(path.substring(dot + 1), value);
    }

    private static JsonNode at(JsonNode root, String path) {
        JsonNode n = root;
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            if (bracket < 0) {
                n = n.get(part);
            } else {
                n = n.get(part.substring(0, bracket))
                        .get(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
            }
        }
        return n;
    }

    // ---- generators ----

    record Edit(double position, int kind, String text) {
        void apply(StringBuilder s) {
            int at = (int) (position * s.length());
            switch (kind) {
                case 0 -> s.insert(at, text);
                case 1 -> s.delete(at, Math.min(s.length(), at + text.length()));
                default -> s.replace(at, Math.min(s.length(), at + text.length()), text);
            }
        }
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        Arbitrary<String> fragments = Arbitraries.oneOf(
                Arbitraries.strings()
                        .withChars(":{}[]-,\"'#&*!|>%@`\n \t0123456789.eE+")
                        .ofMinLength(1)
                        .ofMaxLength(6),
                Arbitraries.of(
                        "${x}",
                        "${",
                        "}",
                        "&a",
                        "*a",
                        "<<: *a",
                        "!!binary",
                        "!!python/object",
                        "---",
                        "...",
                        "\u0000",
                        "\uFEFF",
                        "\uD800",
                        "99999999999999999999999",
                        "-1",
                        "1e400",
                        "NaN",
                        ".inf",
                        "~"));
        Arbitrary<Edit> edit = Combinators.combine(
                        Arbitraries.doubles().between(0, 1),
                        Arbitraries.integers().between(0, 2),
                        fragments)
                .as(Edit::new);
        return edit.list().ofMinSize(1).ofMaxSize(5);
    }

    @Provide
    Arbitrary<String> structuredNoise() {
        return Arbitraries.strings()
                .withChars("abcnmeps:{}[]-,\"' \n\t0123456789.%$&*!#|>~")
                .ofMaxLength(400);
    }

    @Provide
    Arbitrary<JsonNode> hostileValues() {
        return Arbitraries.oneOf(
                Arbitraries.of(
                                "4k",
                                "0",
                                "-4k",
                                "1e400",
                                "1e400GiB",
                                "9999999999999999999999TB",
                                "100%-200%",
                                "%",
                                "-100%",
                                "100%-",
                                "zipf:NaN",
                                "zipf:-1",
                                "zipf:Infinity",
                                "zipf:",
                                "compressible:0",
                                "compressible:-2",
                                "compressible:1e308",
                                "5000000000000000000s",
                                "-5ms",
                                "1.5.5s",
                                "ms",
                                "",
                                " ",
                                "TEST",
                                "fill",
                                "split",
                                "${v}",
                                "\u0000",
                                "\uD83D\uDE00",
                                "0x10",
                                "1_000")
                        .map(s -> (JsonNode) NODES.textNode(s)),
                Arbitraries.longs().map(v -> (JsonNode) NODES.numberNode(v)),
                Arbitraries.of(
                                Long.MAX_VALUE,
                                Long.MIN_VALUE,
                                0L,
                                -1L,
                                (long) Integer.MAX_VALUE + 1,
                                (long) Integer.MIN_VALUE - 1)
                        .map(v -> (JsonNode) NODES.numberNode(v)),
                Arbitraries.of(
                                new BigInteger("123456789012345678901234567890"),
                                BigInteger.TWO.pow(64).negate())
                        .map(v -> (JsonNode) NODES.numberNode(v)),
                Arbitraries.of(Double.MAX_VALUE, -0.0, 1e-300, 0.5, 3.999, -2.5)
                        .map(v -> (JsonNode) NODES.numberNode(v)),
                Arbitraries.of(
                        NODES.booleanNode(true), NODES.nullNode(), NODES.arrayNode(), NODES.objectNode(), (JsonNode)
                                NODES.arrayNode().add(1).add("x")));
    }

    @Provide
    Arbitrary<String> fieldPaths() {
        List<String> paths = new ArrayList<>();
        for (String f : List.of("name", "description", "seed", "targetSize", "phases")) {
            paths.add(f);
        }
        for (String f : List.of(
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
                "repeat")) {
            paths.add("phases[1]." + f);
            paths.add("phases[0]." + f);
        }
        for (String f : List.of(
                "transferSize", "percentOfSpec", "percentRead", "percentRandom", "alignment", "delay", "burstLength")) {
            paths.add("phases[1].accessSpecs[0]." + f);
            paths.add("phases[1].accessSpecs[1]." + f);
        }
        paths.add("phases[1].span.offset");
        paths.add("phases[1].span.size");
        paths.add("phases[2].repeat");
        paths.add("phases[2].phases[0].duration");
        return Arbitraries.of(paths);
    }

    @Provide
    Arbitrary<String> intFields() {
        List<String> paths = new ArrayList<>();
        for (String f : INT_FIELDS_OF_PHASE) {
            paths.add("phases[1]." + f);
        }
        for (String f : INT_FIELDS_OF_ACCESS) {
            paths.add("phases[1].accessSpecs[0]." + f);
        }
        paths.add("phases[2].repeat");
        return Arbitraries.of(paths);
    }

    @Provide
    Arbitrary<Long> outOfIntRange() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between((long) Integer.MAX_VALUE + 1, Long.MAX_VALUE),
                Arbitraries.longs().between(Long.MIN_VALUE, (long) Integer.MIN_VALUE - 1),
                Arbitraries.of(1L << 32, (1L << 32) + 1, (1L << 32) + 8));
    }

    @Provide
    Arbitrary<String> unknownKeys() {
        return Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12).filter(k -> !ALL_KEYS.contains(k));
    }

    @Provide
    Arbitrary<String> objectPaths() {
        return Arbitraries.of(
                "",
                "phases[0]",
                "phases[1]",
                "phases[1].accessSpecs[0]",
                "phases[1].span",
                "phases[2]",
                "phases[2].phases[0]");
    }

    @Provide
    Arbitrary<String> nestingStyles() {
        return Arbitraries.of("json-array", "json-object", "yaml-flow", "yaml-block");
    }

    @Provide
    Arbitrary<JsonNode> trees() {
        return tree(4);
    }

    private Arbitrary<JsonNode> tree(int depth) {
        Arbitrary<JsonNode> leaf = hostileValues();
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<String> keys = Arbitraries.oneOf(
                Arbitraries.of(ALL_KEYS),
                Arbitraries.of(ALL_KEYS),
                Arbitraries.strings().ofMaxLength(8));
        Arbitrary<JsonNode> object = Combinators.combine(
                        keys.list().ofMaxSize(6), tree(depth - 1).list().ofSize(6))
                .as((ks, vs) -> {
                    ObjectNode o = NODES.objectNode();
                    for (int i = 0; i < ks.size(); i++) {
                        o.set(ks.get(i), vs.get(i));
                    }
                    return (JsonNode) o;
                });
        Arbitrary<JsonNode> array = tree(depth - 1).list().ofMaxSize(3).map(vs -> {
            ArrayNode a = NODES.arrayNode();
            vs.forEach(a::add);
            return (JsonNode) a;
        });
        return Arbitraries.frequencyOf(Tuple.of(2, leaf), Tuple.of(4, object), Tuple.of(2, array));
    }
}
