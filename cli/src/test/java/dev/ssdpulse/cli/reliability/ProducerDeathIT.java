package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A producer that dies without RunFinished (`ssdpulse simulate` in a child JVM, killed with SIGKILL): its run
 * stays RUNNING while the producer lives, even across stretches longer than the heartbeat timeout, and is
 * marked INCOMPLETE once it has been silent for the heartbeat timeout, in the status, the summary (with
 * every I/O that reached Kafka counted), the run list and /metrics of the HTTP API; not "running" forever.
 */
@ExtendWith(KafkaTestEnvironment.class)
class ProducerDeathIT {
    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(6);

    @TempDir
    Path tmp;

    @Test
    void aRunWhoseProducerIsKilledBecomesIncompleteAfterTheHeartbeatTimeout(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String runId = "it-producer-death-" + suffix;
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state"))
                .withApplicationId("it-producer-death-" + suffix)
                .withHeartbeatTimeout(HEARTBEAT_TIMEOUT);
        try (InProcessAnalytics analytics = InProcessAnalytics.start(config);
                ChildJvm producer = ChildJvm.start(
                        tmp.resolve("simulate.log"),
                        List.of(
                                "simulate",
                                "--ssd",
                                "tiny-test",
                                "--workload",
                                "seed003-qd1-random-write-5000s",
                                "--set",
                                "durationS=600",
                                "--realtime",
                                "--speed",
                                "2",
                                "--run-id",
                                runId,
                                "--quiet",
                                "--bootstrap-servers",
                                stack.bootstrapServers(),
                                "--schema-registry-url",
                                stack.schemaRegistryUrl()))) {
            ApiClient api = analytics.api();
            await("windows of run " + runId + "\n" + producer.tail())
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> api.windowCount(runId) > 0);
            // paced at twice real time: a live producer keeps its run RUNNING for longer
            // than the heartbeat timeout
            double liveUntilS = api.lastWindowStartS(runId) + 2 * (HEARTBEAT_TIMEOUT.toSeconds() + 2);
            await("run " + runId + " progresses to " + liveUntilS + " s while RUNNING")
                    .atMost(Duration.ofMinutes(1))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> {
                        assertThat(api.status(runId)).contains("RUNNING");
                        return api.lastWindowStartS(runId) >= liveUntilS;
                    });
            assertThat(producer.isAlive()).isTrue();
            producer.kill();
            long killedNs = System.nanoTime();

            String status = await("INCOMPLETE status of run " + runId)
                    .atMost(Duration.ofMinutes(1))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> api.status(runId).filter(s -> !s.equals("RUNNING")), Optional::isPresent)
                    .get();
            long incompleteAfterMs = (System.nanoTime() - killedNs) / 1_000_000;
            assertThat(status).isEqualTo("INCOMPLETE");
            JsonNode summary = api.json("/api/runs/" + runId + "/summary").orElseThrow();
            assertThat(summary.path("status").asText()).isEqualTo("INCOMPLETE");
            assertThat(summary.path("reason").asText()).contains("heartbeat timeout");
            assertThat(summary.path("ioCountExpected").asLong())
                    .as("unknown without RunFinished")
                    .isEqualTo(-1);
            assertThat(api.get("/api/runs").orElseThrow()).contains("\"" + runId + "\"");
            JsonNode listed = null;
            for (JsonNode r : api.json("/api/runs").orElseThrow()) {
                if (r.path("runId").asText().equals(runId)) {
                    listed = r;
                }
            }
            assertThat(listed).isNotNull();
            assertThat(listed.path("status").asText()).isEqualTo("INCOMPLETE");
            assertThat(api.get("/metrics").orElseThrow())
                    .contains("ssdpulse_run_status{run_id=\"" + runId + "\",status=\"INCOMPLETE\"} 1.0")
                    .contains("ssdpulse_run_status{run_id=\"" + runId + "\",status=\"RUNNING\"} 0.0");

            // the summary counts exactly the I/Os that reached the topic before the kill
            StringWriter out = new StringWriter();
            var cli = Main.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(out, true));
            int verify = cli.execute(
                    "runs",
                    "verify",
                    "--run",
                    runId,
                    "--timeout",
                    "1m",
                    "--bootstrap-servers",
                    stack.bootstrapServers(),
                    "--schema-registry-url",
                    stack.schemaRegistryUrl());
            assertThat(verify).as("no RunFinished: " + out).isEqualTo(1);
            Matcher m = Pattern.compile("([\\d,]+) I/O events in .*; 0 gap\\(s\\), 0 duplicate")
                    .matcher(out.toString());
            assertThat(m.find()).as(out.toString()).isTrue();
            long inTopic = Long.parseLong(m.group(1).replace(",", ""));
            assertThat(summary.path("ioCount").asLong()).isEqualTo(inTopic).isPositive();
            System.out.printf(
                    "ProducerDeathIT: heartbeat timeout %d s, INCOMPLETE %d ms after the kill, %d I/Os%n",
                    HEARTBEAT_TIMEOUT.toSeconds(), incompleteAfterMs, inTopic);
        }
    }
}
