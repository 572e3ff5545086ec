package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadLoaderTest {
    private final WorkloadLoader loader = new WorkloadLoader();

    static final String QD32 = """
            name: qd32
            description: QD32 random read/write
            seed: 7
            targetSize: 1GiB
            phases:
              - name: purge
                kind: PURGE
              - name: test
                kind: TEST
                accessSpecs:
                  - {transferSize: 4k, percentOfSpec: 60, percentRead: 70, percentRandom: 100}
                  - {transferSize: 64KiB, percentOfSpec: 40, percentRead: 0, percentRandom: 0, alignment: 64k,
                     delay: 2ms, burstLength: 4}
                queueDepth: 32
                workers: 2
                spanSharing: split
                span: {offset: 1MiB, size: "50%"}
                duration: 20m
                totalBytes: "200%"
                ramp: 500ms
                rateLimitIops: 5000
                distribution: zipf:1.2
                dataPattern: compressible:2
                trim: false
              - name: rounds
                repeat: 3
                phases:
                  - {name: a, kind: TEST, duration: 1s,
                     accessSpecs: [{transferSize: 4k, percentRead: 100, percentRandom: 100}]}
                  - {name: rest, kind: IDLE, duration: 0}
            """;

    @Test
    void parsesEveryField() {
        WorkloadSpec spec = loader.parse(QD32, "qd32.yaml");
        assertThat(spec.seed()).isEqualTo(7);
        assertThat(spec.targetSizeBytes()).hasValue(1L << 30);
        PhaseSpec test = (PhaseSpec) spec.phases().get(1);
        assertThat(test.accessSpecs())
                .containsExactly(
                        new AccessSpec(4096, 60, 70, 100, 4096, 0, 1),
                        new AccessSpec(65536, 40, 0, 0, 65536, 2_000_000, 4));
        assertThat(test.queueDepth()).isEqualTo(32);
        assertThat(test.spanSharing()).isEqualTo(SpanSharing.SPLIT);
        assertThat(test.span().offsetBytes(1L << 30)).isEqualTo(1 << 20);
        assertThat(test.span().sizeBytes(1L << 30)).isEqualTo(1 << 29);
        assertThat(test.durationNs()).hasValue(1_200_000_000_000L);
        assertThat(test.totalBytes(1L << 30)).hasValue(1L << 30);
        assertThat(test.rampNs()).isEqualTo(500_000_000L);
        assertThat(test.rateLimitIops()).hasValue(5000);
        assertThat(test.distribution()).isEqualTo(Distribution.zipf(1.2));
        assertThat(test.dataPattern()).isEqualTo(DataPattern.compressible(2));
        List<ScheduledPhase> schedule = spec.schedule();
        assertThat(schedule)
                .extracting(ScheduledPhase::name)
                .containsExactly(
                        "purge",
                        "test",
                        "rounds#1/a",
                        "rounds#1/rest",
                        "rounds#2/a",
                        "rounds#2/rest",
                        "rounds#3/a",
                        "rounds#3/rest");
        assertThat(schedule).extracting(ScheduledPhase::seed).doesNotHaveDuplicates();
    }

    @Test
    void jsonFilesParseToo() {
        String json = WorkloadJson.toCanonicalJson(loader.parse(QD32, "qd32.yaml"));
        assertThat(loader.parse(json, "qd32.json")).isEqualTo(loader.parse(QD32, "qd32.yaml"));
    }

    @Test
    void canonicalJsonRoundTripsAndIsStable() {
        WorkloadSpec spec = loader.parse(QD32, "qd32.yaml");
        String json = WorkloadJson.toCanonicalJson(spec);
        assertThat(WorkloadJson.fromCanonicalJson(json)).isEqualTo(spec);
        assertThat(WorkloadJson.toCanonicalJson(WorkloadJson.fromCanonicalJson(json)))
                .isEqualTo(json);
        assertThat(json)
                .startsWith("{\"name\":\"qd32\",\"description\":\"QD32 random read/write\",\"seed\":7,"
                        + "\"targetSize\":1073741824,\"phases\":[");
        assertThat(json).contains("\"duration\":\"1200000000000ns\"", "\"totalBytes\":\"200%\"", "\"offset\":1048576");
    }

    @Test
    void rangeProblemsNameFileFieldAndWhy() {
        String bad = QD32.replace("percentRead: 70", "percentRead: 120");
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "qd32.yaml"));
        assertThat(e.problems())
                .containsExactly("qd32.yaml: phases[1].accessSpecs[0].percentRead: 120 is not in 0..100");
    }

    @Test
    void seedsBeyondWhatADoubleHoldsExactlyAreRejected() {
        String tooLarge = QD32.replace("seed: 7", "seed: 9007199254740992");
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(tooLarge, "qd32.yaml"));
        assertThat(e.problems())
                .singleElement()
                .asString()
                .startsWith("qd32.yaml: seed: 9007199254740992 is out of range (|seed| at most 2^53 - 1");
        assertThat(loader.parse(QD32.replace("seed: 7", "seed: -9007199254740991"), "qd32.yaml")
                        .seed())
                .isEqualTo(-9_007_199_254_740_991L);
    }

    @Test
    void aMistypedFieldOrKindOffersTheNearest() {
        String bad = QD32.replace("queueDepth: 32", "queueDeph: 32").replace("kind: TEST", "kind: TEXT");
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "qd32.yaml"));
        assertThat(e.problems())
                .anySatisfy(p -> assertThat(p)
                        .startsWith("qd32.yaml: phases[1].queueDeph: unknown field (did you mean queueDepth?)"))
                .anySatisfy(p -> assertThat(p).contains("'TEXT' is not one of").endsWith("(did you mean TEST?)"));
    }

    @Test
    void everyProblemIsListed() {
        String bad = QD32.replace("percentOfSpec: 40", "percentOfSpec: 30")
                .replace("queueDepth: 32", "queueDepth: 0")
                .replace("transferSize: 64KiB", "transferSize: 1000")
                .replace("trim: false", "trim: false\n    colour: red");
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "qd32.yaml"));
        // unknown fields are reader problems, reported before range checks
        assertThat(e.problems())
                .containsExactly("qd32.yaml: phases[1].colour: unknown field, known fields: "
                        + String.join(", ", SpecReader.PHASE_FIELDS));
        WorkloadValidationException e2 = catchThrowableOfType(
                WorkloadValidationException.class,
                () -> loader.parse(bad.replace("\n    colour: red", ""), "qd32.yaml"));
        assertThat(e2.problems())
                .containsExactlyInAnyOrder(
                        "qd32.yaml: phases[1].queueDepth: 0 is not in 1..65536",
                        "qd32.yaml: phases[1].accessSpecs[1].transferSize: 1000 must be a positive multiple of 512 "
                                + "up to 1 GiB",
                        "qd32.yaml: phases[1].accessSpecs: percentOfSpec of phase 'test' adds up to 90, must be 100");
        assertThat(e2.getMessage()).startsWith("3 problems:");
    }

    @Test
    void typeAndUnitProblems() {
        String bad = """
                name: x
                phases:
                  - name: t
                    kind: TEZT
                    accessSpecs: [{transferSize: 4Gb, percentRead: lots, percentRandom: 100}]
                    duration: 5 days
                    distribution: pareto
                  - {kind: IDLE}
                """;
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "x.yaml"));
        assertThat(e.problems())
                .containsExactly(
                        "x.yaml: phases[0].kind: 'TEZT' is not one of PURGE, PRECONDITION_INDEPENDENT, "
                                + "PRECONDITION_DEPENDENT, TEST, IDLE, FILL, OTHER, REPLAY (did you mean TEST?)",
                        "x.yaml: phases[0].accessSpecs[0].transferSize: '4Gb' has unknown size unit 'Gb' (known: B, "
                                + "k/m/g/t = KiB.., kB/MB/GB/TB = 10^3.., KiB/MiB/GiB/TiB = 2^10..)",
                        "x.yaml: phases[0].accessSpecs[0].percentRead: 'lots' is not a whole number",
                        "x.yaml: phases[0].duration: '5 days' has unknown time unit 'days' (known: ns, us, ms, s, "
                                + "m/min, h; a bare number is seconds)",
                        "x.yaml: phases[0].distribution: 'pareto' is not a distribution (uniform or zipf:THETA, "
                                + "e.g. zipf:1.2)",
                        "x.yaml: phases[1].name: is required");
    }

    @Test
    void crossFieldRules() {
        String bad = """
                name: x
                targetSize: 10GB
                phases:
                  - {name: t, kind: TEST, accessSpecs: [{transferSize: 4k, percentRead: 0, percentRandom: 0}]}
                  - {name: t, kind: IDLE, accessSpecs: [{transferSize: 4k, percentRead: 0, percentRandom: 0}]}
                  - {name: s, kind: TEST, accessSpecs: [{transferSize: 4k, percentRead: 0, percentRandom: 0}],
                     duration: 1s, span: {offset: 8GB, size: 4GB}}
                """;
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "x.yaml"));
        assertThat(e.problems())
                .containsExactly(
                        "x.yaml: phases[0]: phase 't' needs duration or totalBytes (or both: whichever ends first)",
                        "x.yaml: phases[1].name: 't' is used twice in phases",
                        "x.yaml: phases[1].accessSpecs: an IDLE phase does no I/O, remove its access specs",
                        "x.yaml: phases[1].duration: an IDLE phase needs a duration",
                        "x.yaml: phases[2].span: [8000000000, 12000000000) is not inside a target of 10000000000 B "
                                + "(10.00 GB, 9.31 GiB)");
    }

    @Test
    void syntaxErrorsNameTheLine() {
        WorkloadValidationException e = catchThrowableOfType(
                WorkloadValidationException.class, () -> loader.parse("name: x\nphases: [\n  - a: b: c", "x.yaml"));
        assertThat(e.problems())
                .singleElement()
                .asString()
                .startsWith("x.yaml: syntax: ")
                .contains("line ");
    }

    @Test
    void duplicateKeysAreRejected() {
        WorkloadValidationException e = catchThrowableOfType(
                WorkloadValidationException.class, () -> loader.parse("name: x\nname: y\nphases: []\n", "x.yaml"));
        assertThat(e.problems()).singleElement().asString().startsWith("x.yaml: syntax: Duplicate field 'name'");
    }

    @Test
    void placeholdersAreSubstitutedAndChecked() {
        String text = """
                name: p
                phases:
                  - {name: t, kind: TEST, accessSpecs: [{transferSize: 4k, percentRead: 0, percentRandom: 100}],
                     queueDepth: ${qd:4}, duration: ${secs}s}
                """;
        assertThat(((PhaseSpec) loader.parse(text, "p.yaml", Map.of("secs", "10"))
                                .phases()
                                .get(0))
                        .queueDepth())
                .isEqualTo(4);
        assertThat(((PhaseSpec) loader.parse(text, "p.yaml", Map.of("secs", "10", "qd", "64"))
                                .phases()
                                .get(0))
                        .queueDepth())
                .isEqualTo(64);
        assertThatThrownBy(() -> loader.parse(text, "p.yaml"))
                .hasMessage("p.yaml: variable 'secs' has no value and no default (set it with --set secs=VALUE)");
        assertThatThrownBy(() -> loader.parse(text, "p.yaml", Map.of("secs", "1", "qdd", "3")))
                .hasMessage("p.yaml: --set qdd: unknown variable, known: qd, secs");
        assertThatThrownBy(() -> loader.parse(text, "p.yaml", Map.of("secs", "1}\nfoo: {")))
                .hasMessageContaining("may only contain letters, digits");
    }

    @Test
    void overridesApplyToTestPhasesOnly() {
        WorkloadSpec spec = loader.parse(QD32, "qd32.yaml");
        WorkloadOverrides o = WorkloadOverrides.none()
                .withQueueDepth(256)
                .withWorkers(1)
                .withDurationNs(5_000_000_000L)
                .withSeed(99L);
        WorkloadSpec out = o.apply(spec, "qd32.yaml");
        assertThat(out.seed()).isEqualTo(99);
        assertThat(out.schedule())
                .filteredOn(p -> p.phase().kind() == PhaseKind.TEST)
                .allSatisfy(p -> {
                    assertThat(p.phase().queueDepth()).isEqualTo(256);
                    assertThat(p.phase().durationNs()).hasValue(5_000_000_000L);
                });
        assertThat(((PhaseSpec) out.phases().get(0)).queueDepth()).isEqualTo(1);
        assertThat(WorkloadOverrides.none().apply(spec, "x")).isEqualTo(spec);
        assertThatThrownBy(() -> WorkloadOverrides.none().withQueueDepth(0).apply(spec, "qd32.yaml"))
                .hasMessageContaining("qd32.yaml (with overrides): phases[1].queueDepth: 0 is not in 1..65536");
    }
}
