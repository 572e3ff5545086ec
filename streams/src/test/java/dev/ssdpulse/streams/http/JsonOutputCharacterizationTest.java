package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON the API and the CLI write, byte for byte, for a rich summary (two phases, several ops, an op without
 * I/Os, WA, verdicts, nulls) and for series points: API.md documents these keys, values and their order, and the
 * dashboard and users read them. A change here is a change of the API. When a golden file is missing, the test
 * writes what it got to target/golden/ and fails (review it, then copy it to src/test/resources/golden/).
 */
class JsonOutputCharacterizationTest {
    private static final long S = 1_000_000_000L;
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static OpSummary op(IoOp op, long ioCount, long maxNs, long errors) {
        return OpSummary.newBuilder()
                .setOp(op)
                .setIoCount(ioCount)
                .setBytes(ioCount * 4096)
                .setIops(ioCount / 7.0)
                .setMbPerSec(ioCount * 4096 / 7e6)
                .setLatency(TestRecords.latency(
                        ioCount,
                        1_537_123,
                        1_200_001,
                        1_900_003,
                        maxNs,
                        0,
                        0,
                        3,
                        0,
                        0,
                        Math.max(0, ioCount - 6),
                        0,
                        0,
                        0,
                        0,
                        0,
                        1,
                        1,
                        1))
                .setErrorCount(errors)
                .build();
    }

    static RunSummary richSummary(boolean withWa) {
        PhaseSummary precondition = PhaseSummary.newBuilder()
                .setPhaseIndex(0)
                .setName("precondition, \"seq\"")
                .setKind(PhaseKind.PRECONDITION_INDEPENDENT)
                .setStartNs(0)
                .setEndNs(3 * S)
                .setOps(List.of(op(IoOp.WRITE, 3000, 40_000_000L, 0)))
                .setWriteAmplification(null)
                .setWriteAmplificationResolved(false)
                .build();
        PhaseSummary measure = PhaseSummary.newBuilder()
                .setPhaseIndex(1)
                .setName("measure")
                .setKind(PhaseKind.TEST)
                .setStartNs(3 * S)
                .setEndNs(7 * S)
                .setOps(List.of(
                        op(IoOp.READ, 2500, 60_000_000L, 1),
                        op(IoOp.WRITE, 1500, 2_000_000L, 0),
                        op(IoOp.TRIM, 0, 0, 0)))
                .setWriteAmplification(2.3456789)
                .setWriteAmplificationLow(2.3456789)
                .setWriteAmplificationHigh(2.3456789)
                .setWriteAmplificationResolved(true)
                .build();
        SteadyStateVerdict reached = SteadyStateVerdict.newBuilder()
                .setRunId("rich")
                .setMethod(SteadyStateMethod.SNIA_PTS)
                .setOp(IoOp.WRITE)
                .setAllOps(false)
                .setPhaseIndex(1)
                .setReached(true)
                .setFinalVerdict(true)
                .setSteadyNow(null)
                .setReachedAtNs(5 * S)
                .setLostAtNs(null)
                .setDecidedAtNs(5 * S)
                .setWindowStartNs(3 * S)
                .setWindowEndNs(5 * S)
                .setRoundsOrSamples(5)
                .setMean(1234.5)
                .setRange(0.1)
                .setSlope(0.01)
                .setLimit(0.2)
                .setCriteria("range <= 20%")
                .setExplanation("flat")
                .build();
        SteadyStateVerdict lost = SteadyStateVerdict.newBuilder(reached)
                .setMethod(SteadyStateMethod.FIO_IOPS)
                .setAllOps(true)
                .setReached(false)
                .setFinalVerdict(false)
                .setSteadyNow(true)
                .setReachedAtNs(4 * S)
                .setLostAtNs(6 * S)
                .setDecidedAtNs(7 * S)
                .setMean(0.0)
                .setExplanation("lost, then steady")
                .build();
        return RunSummary.newBuilder()
                .setRunId("rich")
                .setStatus(withWa ? RunStatus.COMPLETED : RunStatus.FAILED)
                .setReason(withWa ? null : "device gone")
                .setDurationNs(7 * S + 123)
                .setOps(List.of(
                        op(IoOp.READ, 2500, 60_000_000L, 1),
                        op(IoOp.WRITE, 4500, 40_000_000L, 0),
                        op(IoOp.TRIM, 0, 0, 0)))
                .setPhases(List.of(precondition, measure))
                .setWriteAmplification(withWa ? TestRecords.wa("rich", 0, 7 * S, 2.123456789) : null)
                .setSteadyState(List.of(
                        reached,
                        lost,
                        SteadyStateVerdict.newBuilder(reached)
                                .setReached(false)
                                .setReachedAtNs(null)
                                .setMean(Double.NaN)
                                .setExplanation("not enough rounds")
                                .build()))
                .setIoCount(7000)
                .setIoCountExpected(7002)
                .setLateIoCount(2)
                .setDuplicateBatchCount(1)
                .setIoNotPublished(withWa ? 0 : 2)
                .build();
    }

    @Test
    void theSummaryJsonIsUnchanged() throws IOException {
        String json = SummaryJson.of(richSummary(true), "OCZ Vertex 4, 512.11 GB (476.94 GiB)", "seq, then rand")
                        .toString()
                + "\n" + SummaryJson.of(richSummary(false), null, null).toString() + "\n"
                + PRETTY.writeValueAsString(SummaryJson.of(richSummary(true), null, "w")) + "\n";
        assertGolden("summary.json", json);
    }

    @Test
    void theSeriesJsonIsUnchanged() throws IOException {
        InMemoryRunViews views = new InMemoryRunViews();
        for (int i = 0; i < 4; i++) {
            views.windows.add(TestRecords.window(
                    "rich", IoOp.READ, i < 2 ? 0 : 1, i * S, 1000 + 7 * i, i == 2 ? 60_000_000L : 1_900_000L));
            views.windows.add(
                    TestRecords.window("rich", IoOp.WRITE, i < 2 ? 0 : 1, i * S + S / 3, 333 + i, 2_000_000L));
        }
        WindowMetrics empty = WindowMetrics.newBuilder(TestRecords.window("rich", IoOp.TRIM, 1, 2 * S, 1, 0))
                .setIoCount(0)
                .setBytes(0)
                .setIops(0)
                .setMbPerSec(0)
                .setLatency(TestRecords.latency(0, 0, 0, 0, 0))
                .build();
        views.windows.add(empty);
        String json = ApiJson.series("rich", SeriesQuery.parse(Map.of()), views).toString() + "\n"
                + ReportTables.POINT.json(empty).toString() + "\n"
                + ReportTables.POINT.json(TestRecords.window("rich", IoOp.READ, 3, 12_345_678_901L, 97, 123_456_789L))
                + "\n";
        assertGolden("series.json", json);
    }

    /**
     * The run list, run detail, result sets, /phases and /wa documents: for a run with a summary, WA, stored
     * result sets and phases; for one seen only through its windows (no RunStarted, no summary); for one with
     * planned phases and windows but no summary; and for an unknown one.
     */
    @Test
    void theRunDocumentsAreUnchanged() throws IOException {
        InMemoryRunViews views = new InMemoryRunViews();
        views.runs.put(
                "rich",
                TestRecords.runStarted("rich", "rich \"run\", 1", 512_110_190_592L, 1_700_000_000_123_456_789L));
        views.statuses.put("rich", "COMPLETED");
        views.summaries.put("rich", richSummary(true));
        views.wa.put(
                "rich",
                List.of(TestRecords.wa("rich", 0, 3 * S, 1.5), TestRecords.wa("rich", 3 * S, 7 * S + 1, 2.123456789)));
        views.resultSets.put(
                "rich",
                List.of(
                        ResultSetStarted.newBuilder()
                                .setRunId("rich")
                                .setResultSet("b-window2s")
                                .setSettings(Map.of("windowS", "2", "graceS", "1", "binEdgesUs", "100,1000"))
                                .setCreatedAtEpochMs(Instant.ofEpochMilli(1_700_000_100_000L))
                                .build(),
                        ResultSetStarted.newBuilder()
                                .setRunId("rich")
                                .setResultSet("a")
                                .setSettings(Map.of())
                                .setCreatedAtEpochMs(Instant.ofEpochMilli(1_700_000_200_000L))
                                .build()));
        views.statuses.put(ResultSetNames.alias("rich", "a"), "RUNNING");
        views.statuses.put("windowed", "RUNNING");
        for (int i = 0; i < 4; i++) {
            views.windows.add(TestRecords.window("windowed", IoOp.READ, i < 2 ? 0 : 2, i * S + S / 3, 100, 1_900_000L));
        }
        views.windows.add(TestRecords.window("windowed", IoOp.WRITE, 2, 5 * S, 100, 1_900_000L));
        views.windows.add(TestRecords.window("windowed", IoOp.WRITE, 0, 0, 100, 1_900_000L));
        // planned phases 0 and 1, windows seen of phases 1 and 2
        views.runs.put("planned", TestRecords.runStarted("planned", null, 1L << 30, 1_700_000_000_000_000_000L));
        views.windows.add(TestRecords.window("planned", IoOp.READ, 1, 2 * S, 10, 1_900_000L));
        views.windows.add(TestRecords.window("planned", IoOp.READ, 2, 4 * S, 10, 1_900_000L));
        StringBuilder json = new StringBuilder();
        for (String id : List.of("rich", "windowed", "planned", "unknown")) {
            json.append(ApiJson.runListItem(id, views))
                    .append('\n')
                    .append(ApiJson.runDetail(id, views))
                    .append('\n')
                    .append(ApiJson.resultSets(id, views))
                    .append('\n')
                    .append(ApiJson.phases(id, views))
                    .append('\n')
                    .append(ApiJson.wa(id, views.waSeries(id)))
                    .append('\n');
        }
        assertGolden("runs.json", json.toString());
    }

    private static void assertGolden(String name, String actual) throws IOException {
        try (InputStream in = JsonOutputCharacterizationTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                Path out = Path.of("target", "golden", name);
                Files.createDirectories(out.getParent());
                Files.writeString(out, actual, StandardCharsets.UTF_8);
                throw new AssertionError(
                        "no golden file " + name + "; what the code gives is in " + out.toAbsolutePath());
            }
            assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
