package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.registry.InMemorySchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.nio.file.Path;
import java.util.Set;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyModeTest {
    @TempDir
    Path stateDir;

    @Test
    void liveStoresAreChangeloggedRunOnceStoresAreNot() {
        TopologyMode replay = TopologyMode.runOnce(TopologyMode.Kind.REPLAY, "p.", Set.of("r1"));
        assertThat(new StoreFactory(TopologyMode.live())
                        .keyValue("s", Serdes.Long())
                        .loggingEnabled())
                .isTrue();
        assertThat(new StoreFactory(replay).keyValue("s", Serdes.Long()).loggingEnabled())
                .isFalse();
        assertThat(new StoreFactory(replay)
                        .runState("s", (Object o) -> new byte[0])
                        .loggingEnabled())
                .isFalse();
    }

    @Test
    void aRunOnceTopologyWritesToItsOwnTopicsForItsRunsAndHasNoResultSetBranch() {
        AnalyticsConfig config = TopologyHarness.testConfig(stateDir);
        AnalyticsSerdes serdes = new AnalyticsSerdes(new InMemorySchemaRegistryClient());
        TopologyMode replay = TopologyMode.runOnce(TopologyMode.Kind.REANALYSIS, "ssdpulse.replay.x.", Set.of("r1"));
        String live = AnalyticsTopology.build(
                        config.applicationId(),
                        config.analysisSettings(),
                        config.heartbeatTimeout(),
                        serdes,
                        TopologyMode.live())
                .describe()
                .toString();
        String once = AnalyticsTopology.build(
                        config.applicationId(), config.analysisSettings(), config.heartbeatTimeout(), serdes, replay)
                .describe()
                .toString();
        assertThat(live).contains(Names.RESULT_SETS_SOURCE, Names.DELETIONS_SOURCE, "topic: ssdpulse.metrics-1s.v1");
        assertThat(once)
                .doesNotContain(Names.RESULT_SETS_SOURCE, Names.DELETIONS_SOURCE)
                .contains("topic: ssdpulse.replay.x.ssdpulse.metrics-1s.v1");
        assertThat(replay.runFilter().test("r1")).isTrue();
        assertThat(replay.runFilter().test("r2")).isFalse();
        assertThat(replay.outputs().catalogueName("ssdpulse.replay.x.ssdpulse.waf.v1"))
                .isEqualTo("ssdpulse.waf.v1");
        assertThatThrownBy(() -> TopologyMode.runOnce(TopologyMode.Kind.LIVE, "p.", Set.of("r1")))
                .hasMessageContaining("not run-once");
    }
}
