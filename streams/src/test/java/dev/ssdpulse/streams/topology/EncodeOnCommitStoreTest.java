package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EncodeOnCommitStoreTest {
    private static final String STORE = "joined-store";

    @TempDir
    Path stateDir;

    private static byte[] utf8(StringBuilder value) {
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Appends every value to a live StringBuilder per key; never encodes anything itself. */
    private static final class AppendingProcessor implements Processor<String, String, Void, Void> {
        private EncodeOnCommitStore<StringBuilder> store;

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(STORE);
        }

        @Override
        public void process(Record<String, String> record) {
            StringBuilder live = store.getLive(record.key());
            if (live == null) {
                byte[] encoded = store.getEncoded(record.key());
                live = new StringBuilder(encoded == null ? "" : text(encoded));
            }
            live.append(record.value());
            store.put(record.key(), live);
        }
    }

    private Topology topology(boolean persistent) {
        Topology topology = new Topology();
        topology.addSource("in", new StringDeserializer(), new StringDeserializer(), "input");
        topology.addProcessor("append", AppendingProcessor::new, "in");
        topology.addStateStore(
                persistent
                        ? EncodeOnCommitStore.persistent(STORE, EncodeOnCommitStoreTest::utf8)
                        : EncodeOnCommitStore.inMemory(STORE, EncodeOnCommitStoreTest::utf8),
                "append");
        return topology;
    }

    private Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "eoc");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return props;
    }

    @Test
    void kafkaStreamsEncodesTheLiveObjectsAtEveryCommitIntoTheStoreAndItsChangelog() {
        for (boolean persistent : new boolean[] {true, false}) {
            try (TopologyTestDriver driver = new TopologyTestDriver(topology(persistent), props())) {
                TestInputTopic<String, String> in =
                        driver.createInputTopic("input", new StringSerializer(), new StringSerializer());
                @SuppressWarnings("unchecked")
                EncodeOnCommitStore<StringBuilder> store =
                        (EncodeOnCommitStore<StringBuilder>) driver.getStateStore(STORE);
                in.pipeInput("k", "a");
                in.pipeInput("k", "b");
                in.pipeInput("other", "x");
                in.pipeInput("k", "c");
                // TopologyTestDriver commits after every record through StreamTask.prepareCommit, the same path
                // as a real commit: had flushCache not been called, nothing would be encoded
                assertThat(text(store.getEncoded("k")))
                        .as("persistent=%s", persistent)
                        .isEqualTo("abc");
                assertThat(text(store.getEncoded("other"))).isEqualTo("x");
                List<String> changelog = driver
                        .createOutputTopic(
                                "eoc-" + STORE + "-changelog", new StringDeserializer(), new ByteArrayDeserializer())
                        .readValuesToList()
                        .stream()
                        .map(EncodeOnCommitStoreTest::text)
                        .toList();
                assertThat(changelog).containsExactly("a", "ab", "x", "abc");
            }
        }
    }

    @Test
    void betweenCommitsPutsOnlyMarkDirtyAndEvictAndClearBehave() {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>(props());
        EncodeOnCommitStore<StringBuilder> store = EncodeOnCommitStore.inMemory(STORE, EncodeOnCommitStoreTest::utf8)
                .withLoggingDisabled()
                .build();
        store.init(context.getStateStoreContext(), store);
        store.put("k", new StringBuilder("1"));
        assertThat(store.getEncoded("k")).as("no commit yet").isNull();
        store.getLive("k").append("2");
        store.flushCache();
        assertThat(text(store.getEncoded("k"))).isEqualTo("12");

        store.getLive("k").append("3");
        store.put("k", store.getLive("k"));
        store.clearCache();
        assertThat(store.getLive("k")).as("recycled task drops live objects").isNull();
        assertThat(text(store.getEncoded("k")))
                .as("the uncommitted change is gone too")
                .isEqualTo("12");

        store.put("done", new StringBuilder("final"));
        store.evict("done");
        assertThat(store.liveCount()).isZero();
        assertThat(text(store.getEncoded("done"))).isEqualTo("final");
        store.close();
    }

    @Test
    void aRecordCacheBelowIsRefused() {
        assertThatThrownBy(() -> EncodeOnCommitStore.persistent(STORE, EncodeOnCommitStoreTest::utf8)
                        .withCachingEnabled())
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
