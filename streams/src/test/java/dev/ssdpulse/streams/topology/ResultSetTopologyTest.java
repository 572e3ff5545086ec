package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result sets and deletions in the live topology, on the TopologyTestDriver. */
class ResultSetTopologyTest {
    @TempDir
    Path stateDir;

    @Test
    void resultSetsSitUnderAliasKeysAndDeletionRemovesEverythingOfARun() {
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir))) {
            TestInputTopic<String, ResultSetRecord> sets = h.driver.createInputTopic(
                    Topics.RESULT_SETS.name(),
                    new StringSerializer(),
                    h.serdes.value(ResultSetRecord.class).serializer());
            TestInputTopic<String, RunDeleted> deletions = h.driver.createInputTopic(
                    Topics.RUN_DELETIONS.name(),
                    new StringSerializer(),
                    h.serdes.value(RunDeleted.class).serializer());
            SyntheticRun r1 = SyntheticRun.random("r1", 7, 0, 20, 200);
            SyntheticRun r2 = SyntheticRun.random("r2", 8, 0, 10, 200);
            h.runs.pipeInput("r1", TestRuns.runStarted("r1"));
            h.runs.pipeInput("r2", TestRuns.runStarted("r2"));
            h.send("r1", r1.records(64));
            List<WindowMetrics> windows = h.metrics();
            List<SteadyStateVerdict> verdicts = h.verdicts();
            List<RunSummary> summaries = h.summaries();
            h.send("r2", r2.records(64));
            KeyValueStore<String, WindowMetrics> series = h.driver.getKeyValueStore(Names.WINDOW_SERIES_STORE);
            KeyValueStore<String, SteadyStateVerdict> verdictStore =
                    h.driver.getKeyValueStore(Names.STEADY_STATE_STORE);
            KeyValueStore<String, RunSummary> summaryStore = h.driver.getKeyValueStore(Names.RUN_SUMMARY_STORE);
            KeyValueStore<String, String> status = h.driver.getKeyValueStore(Names.RUN_STATUS_STORE);
            KeyValueStore<String, ResultSetStarted> info = h.driver.getKeyValueStore(Names.RESULT_SET_INFO_STORE);
            KeyValueStore<String, RunStarted> runs = h.driver.getKeyValueStore(Names.RUNS_STORE);
            List<Object> ownBefore = keysAndValues(series, "r1");

            // a result set holding a copy of r1's outputs
            String alias = ResultSetNames.alias("r1", "copy");
            sets.pipeInput(
                    "r1",
                    new ResultSetRecord(
                            "copy",
                            new ResultSetStarted("r1", "copy", Map.of("windowNs", "1"), Instant.ofEpochMilli(5L))));
            windows.forEach(w -> sets.pipeInput("r1", new ResultSetRecord("copy", w)));
            verdicts.forEach(v -> sets.pipeInput("r1", new ResultSetRecord("copy", v)));
            summaries.forEach(s -> sets.pipeInput("r1", new ResultSetRecord("copy", s)));
            assertThat(keysAndValues(series, alias)).hasSize(2 * windows.size());
            assertThat(summaryStore.get(alias)).isEqualTo(summaryStore.get("r1"));
            assertThat(status.get(alias)).isEqualTo("COMPLETED");
            assertThat(info.get(alias).getSettings()).containsEntry("windowNs", "1");
            assertThat(valuesText(verdictStore, alias)).isEqualTo(valuesText(verdictStore, "r1"));
            assertThat(keysAndValues(series, "r1"))
                    .as("the run's own windows are untouched")
                    .isEqualTo(ownBefore);

            // outputs without a ResultSetStarted are no result set; a new start replaces the old set
            sets.pipeInput("r1", new ResultSetRecord("orphan", windows.get(0)));
            assertThat(status.get(ResultSetNames.alias("r1", "orphan"))).isNull();
            sets.pipeInput(
                    "r1",
                    new ResultSetRecord(
                            "copy", new ResultSetStarted("r1", "copy", Map.of(), Instant.ofEpochMilli(6L))));
            assertThat(keysAndValues(series, alias)).isEmpty();
            assertThat(summaryStore.get(alias)).isNull();
            assertThat(status.get(alias)).isEqualTo(Names.STATUS_RUNNING);
            windows.forEach(w -> sets.pipeInput("r1", new ResultSetRecord("copy", w)));

            // deletion: r1 and its result set vanish from every view, r2 stays; later events of r1 are ignored
            deletions.pipeInput("r1", new RunDeleted("r1", Instant.ofEpochMilli(9L), "test"));
            h.driver
                    .createInputTopic(Topics.RUNS.name(), new StringSerializer(), new ByteArraySerializer())
                    .pipeInput("r1", (byte[]) null);
            assertThat(keysAndValues(series, "r1")).isEmpty();
            assertThat(keysAndValues(series, alias)).isEmpty();
            assertThat(keysAndValues(verdictStore, "r1")).isEmpty();
            assertThat(summaryStore.get("r1")).isNull();
            assertThat(status.get("r1")).isNull();
            assertThat(status.get(alias)).isNull();
            assertThat(info.get(alias)).isNull();
            assertThat(runs.get("r1")).isNull();
            EncodeOnCommitStore<?> runState = (EncodeOnCommitStore<?>) h.driver.getStateStore(Names.RUN_STATE_STORE);
            assertThat(runState.getLive("r1")).isNull();
            assertThat(runState.getEncoded("r1")).isNull();
            assertThat(runs.get("r2")).isNotNull();
            assertThat(status.get("r2")).isEqualTo("COMPLETED");
            assertThat(keysAndValues(series, "r2")).isNotEmpty();

            h.send("r1", SyntheticRun.random("r1", 9, 0, 5, 100).records(64));
            sets.pipeInput(
                    "r1",
                    new ResultSetRecord(
                            "late", new ResultSetStarted("r1", "late", Map.of(), Instant.ofEpochMilli(7L))));
            assertThat(status.get("r1"))
                    .as("raw events of a deleted run are ignored")
                    .isNull();
            assertThat(keysAndValues(series, "r1")).isEmpty();
            assertThat(info.get(ResultSetNames.alias("r1", "late"))).isNull();

            // a run deleted while still running: its live state goes too
            h.send("r3", SyntheticRun.random("r3", 10, 0, 10, 100).recordsWithoutFinish(64));
            assertThat(runState.getLive("r3")).isNotNull();
            assertThat(status.get("r3")).isEqualTo(Names.STATUS_RUNNING);
            deletions.pipeInput("r3", new RunDeleted("r3", Instant.ofEpochMilli(11L), null));
            assertThat(runState.getLive("r3")).isNull();
            assertThat(runState.getEncoded("r3")).isNull();
            assertThat(status.get("r3")).isNull();
        }
    }

    private static <V> List<Object> keysAndValues(KeyValueStore<String, V> store, String key) {
        List<Object> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = store.range(StoreKeys.runPrefix(key), StoreKeys.runEnd(key))) {
            it.forEachRemaining(kv -> {
                out.add(kv.key);
                out.add(kv.value);
            });
        }
        return out;
    }

    /** Avro's equals fails on NaN fields (fio verdicts whose window never filled): compare the text form. */
    private static List<String> valuesText(KeyValueStore<String, SteadyStateVerdict> store, String key) {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, SteadyStateVerdict> it =
                store.range(StoreKeys.runPrefix(key), StoreKeys.runEnd(key))) {
            it.forEachRemaining(kv -> out.add(kv.key.substring(key.length()) + "=" + kv.value));
        }
        return out;
    }
}
