package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.topics.DeadLetterHeaders;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.analysis.CollectingOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.ReplayResult;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.latency.RestoredLatency;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyticsTopologyTest {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path stateDir;

    private TopologyHarness harness() {
        return new TopologyHarness(TopologyHarness.testConfig(stateDir));
    }

    @Test
    void windowsCountIopsAndMegabytesPerSecondPerOpExactly() {
        SyntheticRun run = SyntheticRun.random("run-a", 1, 0, 6, 500);
        try (TopologyHarness h = harness()) {
            h.send(run.runId, run.records(64));
            List<WindowMetrics> metrics = h.metrics();
            Map<String, long[]> expected = new TreeMap<>();
            for (SyntheticRun.Io io : run.ios) {
                long[] e = expected.computeIfAbsent(
                        io.op() + "@" + Math.floorDiv(io.completionNs(), S) * S, k -> new long[2]);
                e[0]++;
                e[1] += io.sizeBytes();
            }
            Map<String, long[]> actual = new TreeMap<>();
            for (WindowMetrics m : metrics) {
                actual.put(m.getOp().ordinal() + "@" + m.getWindowStartNs(), new long[] {m.getIoCount(), m.getBytes()});
                assertThat(m.getIops()).isEqualTo((double) m.getIoCount());
                assertThat(m.getMbPerSec()).isEqualTo(m.getBytes() / 1e6);
                assertThat(m.getWindowSizeNs()).isEqualTo(S);
            }
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            expected.forEach((k, v) -> assertThat(actual.get(k)).as(k).containsExactly(v));
        }
    }

    @Test
    void latencyBinsAndOutlierCountsAreExactPerWindow() {
        SyntheticRun run = SyntheticRun.random("run-bins", 2, 0, 4, 800);
        LatencyBins bins = LatencyBins.iometer();
        try (TopologyHarness h = harness()) {
            h.send(run.runId, run.records(512));
            for (WindowMetrics m : h.metrics()) {
                long[] expectedBins = new long[bins.binCount()];
                long above10 = 0;
                long above100 = 0;
                long sum = 0;
                for (SyntheticRun.Io io : run.ios) {
                    if (io.op() == m.getOp().ordinal()
                            && Math.floorDiv(io.completionNs(), S) * S == m.getWindowStartNs()) {
                        LatencyAccumulator one = new LatencyAccumulator(bins);
                        one.record(io.latencyNs());
                        long[] c = one.binCounts();
                        for (int i = 0; i < c.length; i++) {
                            expectedBins[i] += c[i];
                        }
                        above10 += io.latencyNs() >= 10_000_000L ? 1 : 0;
                        above100 += io.latencyNs() >= 100_000_000L ? 1 : 0;
                        sum += io.latencyNs();
                    }
                }
                assertThat(m.getLatency().getBinCounts())
                        .containsExactly(Arrays.stream(expectedBins).boxed().toArray(Long[]::new));
                LatencyAccumulator restored = RestoredLatency.of(m.getLatency());
                assertThat(restored.countAtOrAbove(10_000_000L)).isEqualTo(above10);
                assertThat(restored.countAtOrAbove(100_000_000L)).isEqualTo(above100);
                assertThat(m.getLatency().getSumNs()).isEqualTo(sum);
            }
        }
    }

    @Test
    void resultsAreByteIdenticalForBatchesOf1And7And512() {
        SyntheticRun run = SyntheticRun.random("run-inv", 3, 0, 8, 300);
        List<List<byte[]>> first = null;
        for (int batch : new int[] {1, 7, 512}) {
            try (TopologyHarness h = harness()) {
                h.send(run.runId, run.records(batch));
                List<List<byte[]>> outputs = List.of(
                        h.datums(Topics.METRICS_1S.name()),
                        h.datums(Topics.LATENCY.name()),
                        h.datums(Topics.STEADY_STATE.name()),
                        h.datums(Topics.RUN_SUMMARY.name()));
                assertThat(outputs.get(0)).isNotEmpty();
                assertThat(outputs.get(3)).hasSize(1);
                if (first == null) {
                    first = outputs;
                } else {
                    for (int i = 0; i < outputs.size(); i++) {
                        assertThat(TopologyHarness.sameBytes(outputs.get(i), first.get(i)))
                                .as("output %d with batch size %d", i, batch)
                                .isTrue();
                    }
                }
            }
        }
    }

    @Test
    void lateIosAreCountedInTheSummaryNotDropped() {
        String runId = "run-late";
        try (TopologyHarness h = harness()) {
            IoBatchBuilder b = new IoBatchBuilder(runId, 0, 1);
            h.io.pipeInput(runId, new IoStreamRecord(new PhaseChanged(runId, 0, "t", PhaseKind.TEST, 0L)));
            h.io.pipeInput(runId, new IoStreamRecord(b.add(0, (byte) 0, 0, 4096, 100, 1000, 1, 0)));
            // watermark = 10 s - 2 s grace: window [0, 1 s) closes
            h.io.pipeInput(runId, new IoStreamRecord(b.add(0, (byte) 0, 0, 4096, 10 * S, 1000, 1, 0)));
            // completes at 0.5 s: its window is closed, so it is late
            h.io.pipeInput(runId, new IoStreamRecord(b.add(0, (byte) 0, 0, 4096, S / 2, 1000, 1, 0)));
            h.io.pipeInput(runId, new IoStreamRecord(finished(runId, 11 * S, 3)));
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getLateIoCount()).isEqualTo(1);
            assertThat(summary.getIoCount()).isEqualTo(3);
            assertThat(summary.getIoCountExpected()).isEqualTo(3);
            List<WindowMetrics> metrics = h.metrics();
            assertThat(metrics).extracting(WindowMetrics::getIoCount).containsExactly(1L, 1L);
        }
    }

    @Test
    void twoInterleavedRunsAtDifferentRunTimesDoNotDisturbEachOther() {
        SyntheticRun early = SyntheticRun.random("run-early", 4, 0, 6, 200);
        SyntheticRun late = SyntheticRun.random("run-late-clock", 5, 1000 * S, 6, 200);
        List<byte[]> earlyAlone;
        List<byte[]> lateAlone;
        try (TopologyHarness h = harness()) {
            h.send(early.runId, early.records(16));
            earlyAlone = h.datums(Topics.METRICS_1S.name());
        }
        try (TopologyHarness h = harness()) {
            h.send(late.runId, late.records(16));
            lateAlone = h.datums(Topics.METRICS_1S.name());
        }
        try (TopologyHarness h = harness()) {
            List<IoStreamRecord> a = early.records(16);
            List<IoStreamRecord> b = late.records(16);
            // the late-clock run goes first so that, on partition stream time, every early window would be late
            for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                if (i < b.size()) {
                    h.io.pipeInput(late.runId, b.get(i));
                }
                if (i < a.size()) {
                    h.io.pipeInput(early.runId, a.get(i));
                }
            }
            List<TestRecord<String, byte[]>> mixed = h.raw(Topics.METRICS_1S.name());
            List<byte[]> earlyMixed = new ArrayList<>();
            List<byte[]> lateMixed = new ArrayList<>();
            for (TestRecord<String, byte[]> r : mixed) {
                (r.key().equals(early.runId) ? earlyMixed : lateMixed).add(ReplayResult.datum(r.value()));
            }
            assertThat(TopologyHarness.sameBytes(earlyMixed, earlyAlone)).isTrue();
            assertThat(TopologyHarness.sameBytes(lateMixed, lateAlone)).isTrue();
        }
    }

    @Test
    void runFinishedGivesASummaryWithPhasesAndPhaseLatencies() {
        SyntheticRun run = SyntheticRun.random("run-sum", 6, 0, 6, 400);
        try (TopologyHarness h = harness()) {
            h.send(run.runId, run.records(100));
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
            assertThat(summary.getIoCount()).isEqualTo(run.ios.size());
            assertThat(summary.getIoCountExpected()).isEqualTo(run.ios.size());
            assertThat(summary.getLateIoCount()).isZero();
            assertThat(summary.getDuplicateBatchCount()).isZero();
            assertThat(summary.getPhases()).hasSize(2);
            assertThat(summary.getPhases().get(0).getName()).isEqualTo("precondition");
            assertThat(summary.getPhases().get(1).getKind()).isEqualTo(PhaseKind.TEST);
            long phase0Reads = run.ios.stream()
                    .filter(io -> io.phase() == 0 && io.op() == 0)
                    .count();
            assertThat(summary.getPhases().get(0).getOps().get(0).getIoCount()).isEqualTo(phase0Reads);
            long errors = run.ios.stream().filter(io -> io.status() != 0).count();
            assertThat(summary.getOps().stream()
                            .mapToLong(o -> o.getErrorCount())
                            .sum())
                    .isEqualTo(errors);

            List<RunLatency> latencies = h.latencies();
            assertThat(latencies).anySatisfy(l -> {
                assertThat(l.getPhaseIndex()).isEqualTo(0);
                assertThat(l.getOp()).isEqualTo(IoOp.READ);
                assertThat(l.getLatency().getCount()).isEqualTo(phase0Reads);
            });
            RunLatency wholeRunReads = latencies.stream()
                    .filter(l -> l.getPhaseIndex() == -1 && l.getOp() == IoOp.READ)
                    .reduce((x, y) -> y)
                    .orElseThrow();
            assertThat(wholeRunReads.getLatency().getCount())
                    .isEqualTo(run.ios.stream().filter(io -> io.op() == 0).count());
            assertThat(wholeRunReads.getLatency().getPercentiles().getP99Ns())
                    .isEqualTo(summary.getOps()
                            .get(0)
                            .getLatency()
                            .getPercentiles()
                            .getP99Ns());

            KeyValueStore<String, RunSummary> store = h.driver.getKeyValueStore(Names.RUN_SUMMARY_STORE);
            assertThat(store.get(run.runId)).isEqualTo(summary);
            KeyValueStore<String, String> status = h.driver.getKeyValueStore(Names.RUN_STATUS_STORE);
            assertThat(status.get(run.runId)).isEqualTo("COMPLETED");
        }
    }

    @Test
    void anIoArrivingAfterRunFinishedIsLateAndTheFinishedRunIsRestoredFromItsStore() {
        SyntheticRun run = SyntheticRun.random("run-after", 12, 0, 3, 100);
        try (TopologyHarness h = harness()) {
            h.send(run.runId, run.records(10));
            assertThat(h.summaries()).hasSize(1);
            assertThat(h.metrics()).isNotEmpty();
            IoBatchBuilder b = new IoBatchBuilder(run.runId, 1, 1);
            h.io.pipeInput(run.runId, new IoStreamRecord(b.add(1, (byte) 0, 0, 4096, S, 1000, 1, 0)));
            assertThat(h.metrics()).isEmpty();
            EncodeOnCommitStore<?> store = (EncodeOnCommitStore<?>) h.driver.getStateStore(Names.RUN_STATE_STORE);
            // TopologyTestDriver commits after every record: the encoded value is what a restart would read
            RunAnalysis state = RunAnalysis.decode(
                    run.runId, store.getEncoded(run.runId), h.config.analysisSettings(), new CollectingOutput());
            assertThat(store.liveCount())
                    .as("finished runs are not kept in memory")
                    .isZero();
            assertThat(state.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(state.lateIoCount()).isEqualTo(1);
        }
    }

    @Test
    void aDuplicatedBatchIsSkippedAndCounted() {
        SyntheticRun run = SyntheticRun.random("run-dup", 7, 0, 4, 300);
        List<IoStreamRecord> records = new ArrayList<>(run.records(50));
        IoStreamRecord someBatch = records.stream()
                .filter(r -> r.getEvent() instanceof IoBatch)
                .skip(3)
                .findFirst()
                .orElseThrow();
        records.add(records.indexOf(someBatch) + 2, someBatch);
        try (TopologyHarness h = harness()) {
            h.send(run.runId, records);
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getDuplicateBatchCount()).isEqualTo(1);
            assertThat(summary.getIoCount()).isEqualTo(run.ios.size());
        }
    }

    @Test
    void aRunWithoutHeartbeatsForTheTimeoutIsMarkedIncomplete() {
        SyntheticRun run = SyntheticRun.random("run-silent", 8, 0, 4, 100);
        try (TopologyHarness h = new TopologyHarness(
                TopologyHarness.testConfig(stateDir).withHeartbeatTimeout(Duration.ofSeconds(60)))) {
            h.send(run.runId, run.recordsWithoutFinish(20));
            h.io.pipeInput(
                    run.runId,
                    new IoStreamRecord(new RunHeartbeat(run.runId, 4 * S, Instant.EPOCH, 400L, 400L, 0L, null, null)));
            h.driver.advanceWallClockTime(Duration.ofSeconds(30));
            assertThat(h.summaries()).isEmpty();
            h.driver.advanceWallClockTime(Duration.ofSeconds(40));
            List<RunSummary> summaries = h.summaries();
            assertThat(summaries).hasSize(1);
            assertThat(summaries.get(0).getStatus()).isEqualTo(RunStatus.INCOMPLETE);
            assertThat(summaries.get(0).getIoCount()).isEqualTo(run.ios.size());
            assertThat(summaries.get(0).getReason()).contains("heartbeat");
            KeyValueStore<String, String> status = h.driver.getKeyValueStore(Names.RUN_STATUS_STORE);
            assertThat(status.get(run.runId)).isEqualTo("INCOMPLETE");
            h.driver.advanceWallClockTime(Duration.ofSeconds(120));
            assertThat(h.summaries()).as("marked once").isEmpty();
        }
    }

    @Test
    void aRunIsRunningFromItsRunStartedAndEndsIncompleteIfNothingFollows() {
        try (TopologyHarness h = new TopologyHarness(
                TopologyHarness.testConfig(stateDir).withHeartbeatTimeout(Duration.ofSeconds(60)))) {
            KeyValueStore<String, String> status = h.driver.getKeyValueStore(Names.RUN_STATUS_STORE);
            h.runs.pipeInput("run-announced", TestRuns.runStarted("run-announced"));
            assertThat(status.get("run-announced"))
                    .as("listed as running before its first event")
                    .isEqualTo("RUNNING");
            h.driver.advanceWallClockTime(Duration.ofSeconds(70));
            List<RunSummary> summaries = h.summaries();
            assertThat(summaries).hasSize(1);
            assertThat(summaries.get(0).getStatus()).isEqualTo(RunStatus.INCOMPLETE);
            assertThat(summaries.get(0).getIoCount()).isZero();
            assertThat(status.get("run-announced")).isEqualTo("INCOMPLETE");

            // a run that has ended keeps its status when its RunStarted is read again (a restored compacted topic)
            h.runs.pipeInput("run-announced", TestRuns.runStarted("run-announced"));
            assertThat(status.get("run-announced")).isEqualTo("INCOMPLETE");
        }
    }

    @Test
    void corruptRecordsGoToTheDeadLetterTopicWithTheReasonAndProcessingContinues() {
        SyntheticRun run = SyntheticRun.random("run-dlq", 9, 0, 3, 100);
        try (TopologyHarness h = harness()) {
            h.ioRaw.pipeInput(run.runId, new byte[] {7, 1, 2, 3, 4, 5});
            h.ioRaw.pipeInput(
                    run.runId,
                    ByteBuffer.allocate(9)
                            .put((byte) 0)
                            .putInt(424_242)
                            .putInt(0)
                            .array());
            h.send(run.runId, run.records(32).subList(0, 2));
            byte[] valid = h.serdes
                    .value(IoStreamRecord.class)
                    .serializer()
                    .serialize(Topics.IO.name(), run.records(32).get(1));
            byte[] truncated = Arrays.copyOf(valid, 12);
            h.ioRaw.pipeInput(run.runId, truncated);
            List<IoStreamRecord> rest = run.records(32);
            h.send(run.runId, rest.subList(2, rest.size()));

            List<TestRecord<String, byte[]>> dead = h.raw(Topics.DEAD_LETTER.name());
            assertThat(dead).hasSize(3);
            assertThat(dead.get(0).value()).containsExactly(7, 1, 2, 3, 4, 5);
            assertThat(header(dead.get(0), DeadLetterHeaders.REASON)).containsIgnoringCase("magic");
            assertThat(header(dead.get(1), DeadLetterHeaders.REASON)).contains("424242");
            assertThat(header(dead.get(2), DeadLetterHeaders.SOURCE_TOPIC)).isEqualTo(Topics.IO.name());
            assertThat(header(dead.get(2), DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("4");
            assertThat(header(dead.get(2), DeadLetterHeaders.REJECTED_BY)).isEqualTo("ssdpulse-test");
            KeyValueStore<String, Long> counts = h.driver.getKeyValueStore(Names.IO_DEAD_LETTER_COUNT_STORE);
            assertThat(counts.get(Topics.IO.name())).isEqualTo(3L);
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getIoCount()).isEqualTo(run.ios.size());
        }
    }

    private static String header(TestRecord<String, byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void writeAmplificationComesFromSmartSamplesAndReachesTheSummary() {
        SyntheticRun run = SyntheticRun.random("run-wa", 10, 0, 4, 100);
        try (TopologyHarness h = harness()) {
            h.send(run.runId, run.recordsWithoutFinish(50));
            for (int i = 0; i <= 4; i++) {
                long host = 1_000_000L * i;
                h.smart.pipeInput(
                        run.runId,
                        SmartSample.newBuilder()
                                .setRunId(run.runId)
                                .setTimeNs(i * S)
                                .setSource(SmartSource.SIMULATOR)
                                .setHostBytesWritten(host)
                                .setNandBytesWrittenHost(host)
                                .setNandBytesWrittenGc(host * 3 / 2)
                                .build());
            }
            List<IoStreamRecord> all = run.records(50);
            h.io.pipeInput(run.runId, all.get(all.size() - 1));
            List<WriteAmplification> wa = h.wa();
            assertThat(wa).hasSize(4);
            assertThat(wa.get(3).getWaCumulative()).isEqualTo(2.5);
            assertThat(wa.get(3).getNandBytesWrittenGcDelta()).isEqualTo(1_500_000L);
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getWriteAmplification().getWaCumulative()).isEqualTo(2.5);
            // a sample processed after the summary updates it
            h.smart.pipeInput(
                    run.runId,
                    SmartSample.newBuilder()
                            .setRunId(run.runId)
                            .setTimeNs(5 * S)
                            .setSource(SmartSource.SIMULATOR)
                            .setHostBytesWritten(5_000_000L)
                            .setNandBytesWrittenHost(5_000_000L)
                            .setNandBytesWrittenGc(5_000_000L * 3 / 2 + 1_000_000L)
                            .build());
            List<RunSummary> updated = h.summaries();
            assertThat(updated).hasSize(1);
            assertThat(updated.get(0).getWriteAmplification().getNandBytesWrittenCumulative())
                    .isEqualTo(13_500_000L);
            KeyValueStore<String, WriteAmplification> series = h.driver.getKeyValueStore(Names.WAF_SERIES_STORE);
            assertThat(series.get(StoreKeys.waf(run.runId, 5 * S))).isNotNull();
        }
    }

    @Test
    void aFlatTestPhaseReachesSniaAndFioSteadyStateAndTheVerdictIsAnEvent() {
        String runId = "run-flat";
        SyntheticRun run = new SyntheticRun(runId);
        run.phase(0, "steady", PhaseKind.TEST, 0);
        run.add(11, 0, 40, 100, 0);
        run.endNs = 40 * S;
        AnalyticsConfig config =
                TopologyHarness.testConfig(stateDir).withSteadyState(5 * S, List.of(FioCriterion.parse("iops:20%:10")));
        try (TopologyHarness h = new TopologyHarness(config)) {
            h.send(runId, run.records(64));
            List<SteadyStateVerdict> verdicts = h.verdicts();
            assertThat(verdicts).anySatisfy(v -> {
                assertThat(v.getMethod()).isEqualTo(SteadyStateMethod.SNIA_PTS);
                assertThat(v.getOp()).isEqualTo(IoOp.READ);
                assertThat(v.getReached()).isTrue();
                assertThat(v.getFinalVerdict()).isTrue();
            });
            assertThat(verdicts).anySatisfy(v -> {
                assertThat(v.getMethod()).isEqualTo(SteadyStateMethod.FIO_IOPS);
                assertThat(v.getReached()).isTrue();
            });
            RunSummary summary = h.summaries().get(0);
            assertThat(summary.getSteadyState())
                    .extracting(SteadyStateVerdict::getMethod)
                    .contains(SteadyStateMethod.SNIA_PTS, SteadyStateMethod.FIO_IOPS);
        }
    }

    @Test
    void everyNodeStoreAndInternalTopicIsNamed() {
        try (TopologyHarness h = harness()) {
            TopologyDescription description = AnalyticsTopology.build(
                            h.config.applicationId(),
                            h.config.analysisSettings(),
                            h.config.heartbeatTimeout(),
                            h.serdes)
                    .describe();
            String text = description.toString();
            assertThat(text)
                    .doesNotContain("KSTREAM-")
                    .doesNotContain("KTABLE-")
                    .doesNotContain("-000000");
            List<String> stores = new ArrayList<>();
            for (TopologyDescription.Subtopology s : description.subtopologies()) {
                for (TopologyDescription.Node n : s.nodes()) {
                    assertThat(n.name()).startsWith("ssdpulse-");
                    if (n instanceof TopologyDescription.Processor p) {
                        stores.addAll(p.stores());
                    }
                }
            }
            assertThat(stores)
                    .contains(
                            Names.RUN_STATE_STORE,
                            Names.RUNS_STORE,
                            Names.RUN_SUMMARY_STORE,
                            Names.WINDOW_SERIES_STORE,
                            Names.STEADY_STATE_STORE,
                            Names.WAF_SERIES_STORE,
                            Names.RUN_STATUS_STORE);
            assertThat(stores).allMatch(s -> s.startsWith("ssdpulse-") && s.endsWith("-store"));
            // every source is keyed by run id and co-partitioned: one sub-topology, one task per partition
            assertThat(description.subtopologies()).hasSize(1);
        }
    }

    static RunFinished finished(String runId, long timeNs, long ios) {
        return RunFinished.newBuilder()
                .setRunId(runId)
                .setStatus(RunStatus.COMPLETED)
                .setTimeNs(timeNs)
                .setWallClockEpochMs(Instant.EPOCH)
                .setIoCount(ios)
                .setIoCountPerWorker(List.of(ios))
                .setBatchCountPerWorker(List.of(ios))
                .setBytesRead(0L)
                .setBytesWritten(0L)
                .build();
    }
}
