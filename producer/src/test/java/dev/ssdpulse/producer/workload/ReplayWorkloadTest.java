package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ssdpulse.producer.trace.TraceFormat;
import dev.ssdpulse.producer.trace.TraceSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The REPLAY phase in workload files: its fields, defaults, rules and canonical JSON. */
class ReplayWorkloadTest {
    private final WorkloadLoader loader = new WorkloadLoader();

    private static final String REPLAY = """
            name: load
            phases:
              - name: boot
                kind: REPLAY
                trace: traces/boot.iolog
                format: fio-iolog
                timing: fast
                timeScale: 2
                remap: wrap
                queueDepth: 8
            """;

    @Test
    void aReplayPhaseNamesItsTraceRelativeToTheWorkloadFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, REPLAY);
        PhaseSpec p = (PhaseSpec) loader.load(file).phases().get(0);
        assertThat(p.kind()).isEqualTo(PhaseKind.REPLAY);
        ReplaySpec r = p.replay().orElseThrow();
        assertThat(r.trace()).isEqualTo(new TraceSource.File(dir.resolve("traces/boot.iolog")));
        assertThat(r.format()).isEqualTo(TraceFormat.FIO_IOLOG);
        assertThat(r.timing()).isEqualTo(ReplaySpec.Timing.FAST);
        assertThat(r.timeScale()).isEqualTo(2.0);
        assertThat(r.remap()).isEqualTo(ReplaySpec.Remap.WRAP);
        assertThat(p.queueDepth()).isEqualTo(8);
    }

    @Test
    void defaultsAreAutoFormatRecordedTimingScaleOneShiftAndQueueDepth32() {
        PhaseSpec p = (PhaseSpec)
                loader.parse("name: l\nphases:\n  - {name: a, kind: REPLAY, trace: /tmp/a.iolog}\n", "l.yaml")
                        .phases()
                        .get(0);
        assertThat(p.replay().orElseThrow())
                .isEqualTo(new ReplaySpec(
                        new TraceSource.File(Path.of("/tmp/a.iolog")),
                        TraceFormat.AUTO,
                        ReplaySpec.Timing.RECORDED,
                        1.0,
                        ReplaySpec.Remap.SHIFT));
        assertThat(p.queueDepth()).isEqualTo(32);
    }

    @Test
    void theCanonicalJsonKeepsTheReplayAndReadsBackEqual() {
        WorkloadSpec spec = loader.parse(REPLAY, "w.yaml");
        String json = WorkloadJson.toCanonicalJson(spec);
        assertThat(json).contains("\"kind\":\"REPLAY\"").contains("\"format\":\"fio-iolog\"");
        assertThat(WorkloadJson.fromCanonicalJson(json)).isEqualTo(spec);
    }

    @Test
    void aPresetsTraceIsOnTheClasspathBesideIt() {
        WorkloadSpec spec = new WorkloadPresets().load("seed003-load-app");
        ReplaySpec r = ((PhaseSpec) spec.schedule().get(0).phase()).replay().orElseThrow();
        assertThat(r.trace().name()).startsWith("classpath:workloads/traces/");
    }

    @Test
    void replayRulesAreReportedWithTheirFieldPaths() {
        String bad = """
                name: bad
                phases:
                  - {name: a, kind: REPLAY, workers: 2, totalBytes: 1GB, rateLimitIops: 10, timeScale: 0,
                     accessSpecs: [{transferSize: 4k, percentRead: 100, percentRandom: 0}], trace: x.iolog}
                  - {name: b, kind: REPLAY}
                  - {name: c, kind: TEST, duration: 1s, trace: x.iolog, timing: fast,
                     accessSpecs: [{transferSize: 4k, percentRead: 100, percentRandom: 0}]}
                  - {name: d, kind: REPLAY, trace: x.iolog, format: pcap, timing: slow}
                """;
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "bad.yaml"));
        assertThat(e.problems())
                .containsExactlyInAnyOrder(
                        "bad.yaml: phases[1].trace: is required",
                        "bad.yaml: phases[2].trace: only a REPLAY phase replays a trace (this one is TEST)",
                        "bad.yaml: phases[2].timing: only a REPLAY phase replays a trace (this one is TEST)",
                        "bad.yaml: phases[3].format: 'pcap' is not a trace format (auto, fio-iolog, blkparse or msr)",
                        "bad.yaml: phases[3].timing: 'slow' is not one of RECORDED, FAST");
    }

    @Test
    void replayRangeAndCrossFieldRulesAreReportedWithTheirFieldPaths() {
        String bad = """
                name: bad
                phases:
                  - {name: a, kind: REPLAY, workers: 2, totalBytes: 1GB, rateLimitIops: 10, timeScale: 0,
                     accessSpecs: [{transferSize: 4k, percentRead: 100, percentRandom: 0}], trace: x.iolog}
                """;
        WorkloadValidationException e =
                catchThrowableOfType(WorkloadValidationException.class, () -> loader.parse(bad, "bad.yaml"));
        assertThat(e.problems())
                .containsExactlyInAnyOrder(
                        "bad.yaml: phases[0].accessSpecs: a REPLAY phase issues its trace's I/Os, remove its access"
                                + " specs",
                        "bad.yaml: phases[0].workers: 2 must be 1 for a REPLAY phase (a trace is one ordered stream;"
                                + " queueDepth caps its I/Os in flight)",
                        "bad.yaml: phases[0].totalBytes: a REPLAY phase ends with its trace (a duration may end it"
                                + " earlier)",
                        "bad.yaml: phases[0].rateLimitIops: a REPLAY phase is paced by its trace (timing, timeScale)",
                        "bad.yaml: phases[0].timeScale: 0.0 must be in (0, 1000] (2 replays at twice the recorded"
                                + " rate)");
    }
}
