package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latency scatter through the real topology: topic, store, exact outliers, independent of batching. */
class LatencyScatterTopologyTest {
    private static final long S = 1_000_000_000L;
    private static final long THRESHOLD_NS = 10_000_000L;

    @TempDir
    Path stateDir;

    private static String point(long completionNs, long latencyNs, int op) {
        return completionNs + "/" + latencyNs + "/" + op;
    }

    @Test
    void everyWindowKeepsItsOutliersExactlyAndAtMostTheSampleOfTheRestInTopicAndStore() {
        // 1,000 I/Os per second, ~2 % at 10-300 ms: ~20 outliers and 980 candidates for 200 samples per window
        SyntheticRun run = SyntheticRun.random("run-scatter", 3, 0, 8, 1000);
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir))) {
            h.send(run.runId, run.records(64));
            List<LatencyScatter> scatters = h.read(Topics.LATENCY_SCATTER.name(), LatencyScatter.class);
            Map<Long, List<SyntheticRun.Io>> byWindow = new TreeMap<>();
            run.ios.forEach(io -> byWindow.computeIfAbsent(
                            Math.floorDiv(io.completionNs(), S) * S, k -> new ArrayList<>())
                    .add(io));
            assertThat(scatters)
                    .extracting(LatencyScatter::getWindowStartNs)
                    .containsExactlyElementsOf(byWindow.keySet());
            KeyValueStore<String, LatencyScatter> store = h.driver.getKeyValueStore(Names.LATENCY_SCATTER_STORE);
            for (LatencyScatter s : scatters) {
                List<SyntheticRun.Io> in = byWindow.get(s.getWindowStartNs());
                List<String> outliers = in.stream()
                        .filter(io -> io.latencyNs() >= THRESHOLD_NS)
                        .map(io -> point(io.completionNs(), io.latencyNs(), io.op()))
                        .toList();
                List<String> shown = new ArrayList<>();
                for (int i = 0; i < s.getLatenciesNs().size(); i++) {
                    shown.add(point(
                            s.getWindowStartNs() + s.getCompletionOffsetsNs().get(i),
                            s.getLatenciesNs().get(i),
                            s.getOps().get(i)));
                }
                assertThat(s.getIoCount()).isEqualTo(in.size());
                assertThat(s.getThresholdNs()).isEqualTo(THRESHOLD_NS);
                assertThat(s.getAtOrAboveThresholdCount()).isEqualTo(outliers.size());
                assertThat(s.getKeptAtOrAboveThresholdCount()).isEqualTo(outliers.size());
                assertThat(shown)
                        .containsAll(outliers)
                        .hasSize(outliers.size() + Math.min(200, in.size() - outliers.size()));
                assertThat(store.get(StoreKeys.scatter(run.runId, s.getWindowStartNs())))
                        .isEqualTo(s);
            }
            assertThat(scatters.stream()
                            .mapToLong(LatencyScatter::getAtOrAboveThresholdCount)
                            .sum())
                    .isEqualTo(run.ios.stream()
                            .filter(io -> io.latencyNs() >= THRESHOLD_NS)
                            .count())
                    .isGreaterThan(50);
        }
    }

    @Test
    void theScatterIsTheSameForAnyBatchingAndOfflineByteForByte() {
        SyntheticRun run = SyntheticRun.random("run-scatter-b", 5, 0, 6, 700);
        List<byte[]> small;
        List<byte[]> large;
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir.resolve("a")))) {
            h.send(run.runId, run.records(7));
            small = h.datums(Topics.LATENCY_SCATTER.name());
        }
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir.resolve("b")))) {
            h.send(run.runId, run.records(500));
            large = h.datums(Topics.LATENCY_SCATTER.name());
        }
        assertThat(small).hasSize(6);
        assertThat(TopologyHarness.sameBytes(small, large))
                .as("batch size 7 vs 500")
                .isTrue();

        OfflineRunAnalysis offline = new OfflineRunAnalysis(
                run.runId, TopologyHarness.testConfig(stateDir).analysisSettings(), true, true);
        int nextPhase = 0;
        for (SyntheticRun.Io io : run.ios) {
            while (nextPhase < run.phases.size() && run.phases.get(nextPhase).index() <= io.phase()) {
                SyntheticRun.Phase p = run.phases.get(nextPhase++);
                offline.phaseStarted(p.index(), p.name(), p.kind(), p.startNs());
            }
            offline.io(io.op(), io.phase(), io.submitNs(), io.latencyNs(), io.sizeBytes(), io.status());
        }
        offline.finish(RunStatus.COMPLETED, null, run.endNs, run.ios.size(), 0);
        List<byte[]> offlineDatums = offline.scatters().stream()
                .map(LatencyScatterTopologyTest::datum)
                .toList();
        assertThat(TopologyHarness.sameBytes(offlineDatums, small))
                .as("offline vs topology")
                .isTrue();
    }

    @Test
    void aConfiguredThresholdAndSampleSizeReachTheTopology() {
        SyntheticRun run = SyntheticRun.random("run-scatter-c", 9, 0, 3, 500);
        try (TopologyHarness h =
                new TopologyHarness(TopologyHarness.testConfig(stateDir).withScatter(100_000_000L, 10))) {
            h.send(run.runId, run.records(64));
            for (LatencyScatter s : h.read(Topics.LATENCY_SCATTER.name(), LatencyScatter.class)) {
                assertThat(s.getThresholdNs()).isEqualTo(100_000_000L);
                assertThat((long) s.getLatenciesNs().size())
                        .isEqualTo(s.getKeptAtOrAboveThresholdCount()
                                + Math.min(10, s.getIoCount() - s.getAtOrAboveThresholdCount()));
            }
        }
    }

    private static byte[] datum(LatencyScatter record) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            var encoder = EncoderFactory.get().binaryEncoder(bytes, null);
            new SpecificDatumWriter<LatencyScatter>(LatencyScatter.class).write(record, encoder);
            encoder.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
