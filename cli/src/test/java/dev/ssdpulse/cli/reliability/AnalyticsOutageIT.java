package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analytics are down for longer than the heartbeat timeout while a run's producer lives (and keeps
 * publishing heartbeats): after the restart the run is not taken for dead, it is still RUNNING once the
 * backlog is processed, and it ends COMPLETED with the views of an instance that never stopped.
 */
@ExtendWith(KafkaTestEnvironment.class)
// its own waits add up to more than the 5-minute default of integration tests
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class AnalyticsOutageIT {
    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(4);

    @TempDir
    Path tmp;

    @Test
    void aLiveRunOutlivesAnAnalyticsOutageLongerThanTheHeartbeatTimeout(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String runId = "it-outage-" + suffix;
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state"))
                .withApplicationId("it-outage-" + suffix)
                .withHeartbeatTimeout(HEARTBEAT_TIMEOUT)
                // Kafka Streams does not leave its group on close: the restarted instance waits for the old
                // member's session timeout (45 s by default) before it gets its tasks
                .withExtraProperties(Map.of("session.timeout.ms", "6000", "heartbeat.interval.ms", "1000"));
        AnalyticsConfig reference =
                config.withApplicationId("it-outage-reference-" + suffix).withStateDir(tmp.resolve("reference-state"));
        // 27 s of run time: a 7-s precondition, then 20 s of 4 KiB random writes at QD1
        GatedSimulation run = new GatedSimulation(
                stack.bootstrapServers(),
                stack.schemaRegistryUrl(),
                runId,
                "seed003-qd1-random-write-5000s",
                Map.of("durationS", "20"),
                10,
                20);
        try (InProcessAnalytics ref = InProcessAnalytics.start(reference)) {
            InProcessAnalytics analytics = InProcessAnalytics.start(config);
            try {
                run.start();
                run.awaitGate(0, Duration.ofMinutes(2));
                await("windows of run " + runId)
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> analytics.api().windowCount(runId) > 0);
            } finally {
                analytics.close();
            }
            long downSinceNs = System.nanoTime();
            run.open(0);
            run.awaitGate(1, Duration.ofMinutes(1));
            // the producer lives on, held at 20 s, sending a heartbeat every 2 s; the analytics stay down for
            // twice the heartbeat timeout
            // (the outage is a span of real time: the analytics' heartbeat timeout is wall-clock)
            await("outage of twice the heartbeat timeout")
                    .during(HEARTBEAT_TIMEOUT.multipliedBy(2))
                    .atMost(Duration.ofMinutes(1))
                    .untilAsserted(() -> assertThat(ref.api().status(runId))
                            .as("the uninterrupted instance sees the heartbeats")
                            .contains("RUNNING"));
            assertThat(ref.api().status(runId))
                    .as("the uninterrupted instance sees the heartbeats")
                    .contains("RUNNING");

            long restartNs = System.nanoTime();
            try (InProcessAnalytics restarted = InProcessAnalytics.start(config)) {
                long runningAfterMs = (System.nanoTime() - restartNs) / 1_000_000;
                ApiClient api = restarted.api();
                // held at 20 s: windows close up to the watermark (latest completion published - 2 s grace)
                await("the restarted analytics caught up with run " + runId)
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> api.lastWindowStartS(runId) >= 15);
                // two more heartbeat timeouts with the producer alive
                await("the run stays RUNNING while its producer lives")
                        .during(HEARTBEAT_TIMEOUT.multipliedBy(2))
                        .atMost(Duration.ofMinutes(1))
                        .untilAsserted(() -> assertThat(api.status(runId))
                                .as("status after the outage")
                                .contains("RUNNING"));
                run.open(1);
                assertThat(run.awaitExit(Duration.ofMinutes(1)))
                        .as(run.output())
                        .isZero();
                JsonNode summary = SameViews.assertSame(runId, ref.api(), api, Duration.ofMinutes(1));
                assertThat(summary.path("status").asText()).isEqualTo("COMPLETED");
                assertThat(summary.path("ioCount").asLong()).isEqualTo(run.ioCount());
                System.out.printf(
                        "AnalyticsOutageIT: outage %d ms, restarted analytics RUNNING after %d ms, %d I/Os%n",
                        (restartNs - downSinceNs) / 1_000_000, runningAfterMs, run.ioCount());
            }
        } finally {
            run.openAll();
        }
    }
}
