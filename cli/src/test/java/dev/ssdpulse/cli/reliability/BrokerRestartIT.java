package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.cli.CliRun;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes down in the middle of a streamed run and comes back: the idempotent producer (acks=all)
 * retries what it could not deliver, `runs verify` finds every I/O exactly once (no gap, no duplicate batch)
 * and the analytics, running through the outage, count every I/O exactly once. Needs a broker of its own
 * (the shared test stack cannot be restarted under other tests), so it starts a {@link LocalStack}.
 */
// its own waits add up to more than the 5-minute default of integration tests
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class BrokerRestartIT {
    @TempDir
    Path tmp;

    @Test
    void aRunStreamedAcrossABrokerRestartIsCompleteAndCountedExactlyOnce() throws Exception {
        String runId = "it-broker-restart-" + UUID.randomUUID().toString().substring(0, 8);
        try (LocalStack stack = LocalStack.start()) {
            AnalyticsConfig config = AnalyticsConfig.defaults(
                            stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state"))
                    .withApplicationId("it-broker-restart-app");
            // 27 s of run time: a 7-s precondition, then 20 s of 4 KiB random writes at QD1
            GatedSimulation run = new GatedSimulation(
                    stack.bootstrapServers(),
                    stack.schemaRegistryUrl(),
                    runId,
                    "seed003-qd1-random-write-5000s",
                    Map.of("durationS", "20"),
                    10,
                    17);
            try (InProcessAnalytics analytics = InProcessAnalytics.start(config)) {
                run.start();
                run.awaitGate(0, Duration.ofMinutes(2));
                await("windows of run " + runId)
                        .atMost(Duration.ofMinutes(1))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> analytics.api().windowCount(runId) > 0);
                // the run goes on while the broker shuts down: in-flight requests fail and are retried
                run.open(0);
                stack.broker().stop();
                // the rest of the run is produced while no broker is there
                run.open(1);
                run.awaitFinishing(Duration.ofMinutes(1));
                PublishReport during = run.report();
                assertThat(during.ioPublished())
                        .as("I/Os acknowledged while the broker is down")
                        .isLessThan(run.ioCount());
                stack.broker().start();

                assertThat(run.awaitExit(Duration.ofMinutes(3)))
                        .as(run.output())
                        .isZero();
                PublishReport report = run.report();
                assertThat(report.complete()).as(report.toString()).isTrue();
                assertThat(report.ioPublished()).isEqualTo(run.ioCount());

                CliRun verify = CliRun.of(
                        "runs",
                        "verify",
                        "--run",
                        runId,
                        "--timeout",
                        "2m",
                        "--bootstrap-servers",
                        stack.bootstrapServers(),
                        "--schema-registry-url",
                        stack.schemaRegistryUrl());
                assertThat(verify.exit()).as(verify.output()).isZero();
                assertThat(verify.output())
                        .contains(String.format("%,d I/O events", run.ioCount()))
                        .contains("0 gap(s), 0 duplicate batch(es)")
                        .contains("complete: every completed I/O is in the topic exactly once");

                JsonNode summary = await("COMPLETED summary of run " + runId)
                        .atMost(Duration.ofMinutes(2))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(
                                () -> analytics
                                        .api()
                                        .json("/api/runs/" + runId + "/summary")
                                        .filter(s -> s.path("status").asText().equals("COMPLETED")),
                                Optional::isPresent)
                        .get();
                assertThat(summary.path("ioCount").asLong()).isEqualTo(run.ioCount());
                assertThat(summary.path("ioCountExpected").asLong()).isEqualTo(run.ioCount());
                assertThat(summary.path("duplicateBatchCount").asLong()).isZero();
                assertThat(summary.path("lateIoCount").asLong()).isZero();
                long windowIos = 0;
                for (JsonNode points : analytics
                        .api()
                        .json("/api/runs/" + runId + "/series")
                        .orElseThrow()
                        .path("ops")) {
                    for (JsonNode p : points) {
                        windowIos += p.path("ioCount").asLong();
                    }
                }
                assertThat(windowIos).as("I/Os in the window series").isEqualTo(run.ioCount());
                System.out.printf(
                        "BrokerRestartIT: %d I/Os, %d acknowledged before the broker came back; "
                                + "broker restart took %d ms%n",
                        run.ioCount(),
                        during.ioPublished(),
                        stack.broker().lastStartDuration().toMillis());
            } finally {
                run.openAll();
            }
        }
    }
}
