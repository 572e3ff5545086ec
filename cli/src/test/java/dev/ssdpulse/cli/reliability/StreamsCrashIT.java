package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of the Streams application in the middle of a run, twice: restarted on its state directory, then
 * killed again while it catches up and restarted on a wiped state directory (the changelog restore path).
 * Under exactly_once_v2 its final summary, full window series, steady-state verdicts and WA intervals equal
 * those of an uninterrupted instance (another application id) that processed the same run.
 */
@ExtendWith(KafkaTestEnvironment.class)
// its own waits add up to more than the 5-minute default of integration tests
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class StreamsCrashIT {
    private static final Pattern API_URL = Pattern.compile("dashboard and API: (http://\\S+)");

    @TempDir
    Path tmp;

    @Test
    void killedAndRestartedStreamsAppEndsWithTheViewsOfAnUninterruptedOne(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String runId = "it-crash-" + suffix;
        String appId = "it-crash-app-" + suffix;
        Path stateDir = Files.createDirectories(tmp.resolve("state"));
        AnalyticsConfig reference = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("reference-state"))
                .withApplicationId("it-crash-reference-" + suffix);
        // 37 s of run time: a 7-s precondition, then 30 s of 4 KiB random writes at QD1 (~74 k I/Os on tiny-test)
        GatedSimulation run = new GatedSimulation(
                stack.bootstrapServers(),
                stack.schemaRegistryUrl(),
                runId,
                "seed003-qd1-random-write-5000s",
                Map.of("durationS", "30"),
                12,
                24);
        List<ChildJvm> children = new ArrayList<>();
        TopicPartition partition = KafkaAdmin.partitionOf(Topics.IO.name(), Topics.DEFAULT_PARTITIONS, runId);
        // the child JVM starts while the reference starts in this one
        ChildJvm first = startChild(stack, appId, stateDir, children, 1);
        try (InProcessAnalytics ref = InProcessAnalytics.start(reference);
                KafkaAdmin admin = new KafkaAdmin(stack.bootstrapServers())) {
            ApiClient child = awaitApi(first);
            run.start();

            run.awaitGate(0, Duration.ofMinutes(2));
            await("windows of run " + runId + " in the Streams app")
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> child.windowCount(runId) >= 5);
            long end = admin.endOffset(partition);
            await("the Streams app committed its input up to offset " + end)
                    .atMost(Duration.ofMinutes(1))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> committed(admin, appId, partition) >= end);
            int windowsBeforeKill = child.windowCount(runId);
            children.get(0).kill();
            assertThat(run.isFinished()).as("the run is still going").isFalse();

            run.open(0);
            long t0 = System.nanoTime();
            ApiClient second = awaitApi(startChild(stack, appId, stateDir, children, 2));
            run.awaitGate(1, Duration.ofMinutes(2));
            // kill again while it processes what was published during its downtime, before RunFinished
            await("the restarted Streams app processes windows after 12 s")
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> second.lastWindowStartS(runId) >= 12);
            long restartedMs = (System.nanoTime() - t0) / 1_000_000;
            children.get(1).kill();
            assertThat(run.isFinished()).isFalse();

            deleteRecursively(stateDir);
            run.open(1);
            assertThat(run.awaitExit(Duration.ofMinutes(2))).as(run.output()).isZero();
            long t1 = System.nanoTime();
            ApiClient third = awaitApi(startChild(stack, appId, stateDir, children, 3));
            JsonNode summary = SameViews.assertSame(runId, ref.api(), third, Duration.ofMinutes(2));
            long restoredMs = (System.nanoTime() - t1) / 1_000_000;

            assertThat(summary.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(summary.path("ioCount").asLong())
                    .isEqualTo(run.ioCount())
                    .isGreaterThan(50_000);
            assertThat(summary.path("ioCountExpected").asLong()).isEqualTo(run.ioCount());
            assertThat(summary.path("duplicateBatchCount").asLong()).isZero();
            assertThat(summary.path("lateIoCount").asLong()).isZero();
            JsonNode series = third.json("/api/runs/" + runId + "/series").orElseThrow();
            long windowIos = 0;
            for (JsonNode points : series.path("ops")) {
                for (JsonNode p : points) {
                    windowIos += p.path("ioCount").asLong();
                }
            }
            assertThat(windowIos).as("I/Os in the window series").isEqualTo(run.ioCount());
            System.out.printf(
                    "StreamsCrashIT: %d I/Os; killed after %d windows; restart on state dir to "
                            + "processing after %d ms; restart on a wiped state dir to identical views after %d ms%n",
                    run.ioCount(), windowsBeforeKill, restartedMs, restoredMs);
        } finally {
            run.openAll();
            for (ChildJvm c : children) {
                c.close();
            }
        }
    }

    private ChildJvm startChild(TestStack stack, String appId, Path stateDir, List<ChildJvm> children, int n) {
        ChildJvm child = ChildJvm.start(
                tmp.resolve("streams-" + n + ".log"),
                List.of(
                        "streams",
                        "--bootstrap-servers",
                        stack.bootstrapServers(),
                        "--schema-registry-url",
                        stack.schemaRegistryUrl(),
                        "--application-id",
                        appId,
                        "--state-dir",
                        stateDir.toString(),
                        "--http-port",
                        "0",
                        // never outlives the test by much, even if this JVM dies before it can kill the child
                        "--exit-after",
                        "5m",
                        // the killed member leaves the group after the session timeout: keep it at the broker's minimum
                        "-X",
                        "session.timeout.ms=6000",
                        "-X",
                        "heartbeat.interval.ms=1000",
                        // a transaction of the killed instance that no one fences is aborted after this
                        "-X",
                        "transaction.timeout.ms=5000"));
        children.add(child);
        return child;
    }

    /** The child's HTTP API, once it printed its URL (after its Streams application reached RUNNING). */
    private static ApiClient awaitApi(ChildJvm child) throws InterruptedException {
        return new ApiClient(child.awaitOutput(API_URL, Duration.ofMinutes(2)));
    }

    private static long committed(KafkaAdmin admin, String groupId, TopicPartition tp) {
        try {
            return admin.committed(groupId, tp);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
