package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.cli.CliRun;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.platform.kafka.Replicas;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Faults on a three-broker cluster (replication factor 3, min.insync.replicas 2), the one {@link ThreeBrokerCluster}
 * that {@code ClusterLoadIT} uses too:
 * <ul>
 * <li>the broker leading a streamed run's partition is killed with SIGKILL in the middle of the run: leadership
 * moves, the idempotent producer's retries land once, `runs verify` finds every I/O exactly once, and the
 * analytics, running through it, give the same summary as the offline analysis of the same seed; the killed broker
 * then rejoins and catches up;</li>
 * <li>one of two analytics instances (child JVMs, one application id) is killed with SIGKILL in the middle of two
 * runs, one owned by each: the survivor takes the dead one's partitions over and answers for both runs itself
 * within the session timeout, with the offline analysis' summaries; the killed instance restarts and nothing
 * changes.</li>
 * </ul>
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(ThreeBrokerCluster.class)
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ClusterFaultsIT {
    private static final String WORKLOAD = "seed003-qd1-random-write-5000s";
    private static final Map<String, String> VARIABLES = Map.of("durationS", "20");
    private static final Pattern API_URL = Pattern.compile("dashboard and API: (http://\\S+)");
    private final HttpClient http = HttpClient.newHttpClient();
    private LocalStack stack;
    private Path tmp;

    @BeforeAll
    void useCluster(LocalStack sharedStack) throws Exception {
        tmp = Files.createTempDirectory("cluster-faults-it-");
        stack = sharedStack;
    }

    @Test
    void aRunSurvivesTheKillOfItsPartitionLeaderAndEqualsItsOfflineAnalysis() throws Exception {
        String runId = "it-cluster-kill-" + UUID.randomUUID().toString().substring(0, 8);
        EmbeddedKafkaCluster cluster = stack.cluster();
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state"))
                .withApplicationId("it-cluster-kill-app");
        GatedSimulation run = new GatedSimulation(
                stack.bootstrapServers(), stack.schemaRegistryUrl(), runId, WORKLOAD, VARIABLES, 12);
        try (InProcessAnalytics analytics = InProcessAnalytics.start(config)) {
            run.start();
            run.awaitGate(0, Duration.ofMinutes(3));
            await("windows of run " + runId)
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> analytics.api().windowCount(runId) > 0);
            int leader = leaderOfRunPartition(stack.bootstrapServers(), runId);
            long killedNs = System.nanoTime();
            cluster.killNode(leader);
            run.open(0);
            assertThat(run.awaitExit(Duration.ofMinutes(5))).as(run.output()).isZero();
            long finishedAfterKillMs = (System.nanoTime() - killedNs) / 1_000_000;
            PublishReport report = run.report();
            assertThat(report.complete()).as(report.toString()).isTrue();
            assertThat(report.ioPublished()).isEqualTo(run.ioCount());
            assertThat(leaderOfRunPartition(stack.bootstrapServers(), runId))
                    .as("leadership moved")
                    .isNotEqualTo(leader);

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
                    .contains("0 gap(s), 0 duplicate batch(es)");

            JsonNode live = await("COMPLETED summary of run " + runId)
                    .atMost(Duration.ofMinutes(3))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(
                            () -> analytics
                                    .api()
                                    .json("/api/runs/" + runId + "/summary")
                                    .filter(s -> s.path("status").asText().equals("COMPLETED")),
                            Optional::isPresent)
                    .get();
            assertThat(withoutContext(live))
                    .as("the live summary equals the offline analysis of the same seed")
                    .isEqualTo(withoutContext(offlineSummary(runId)));

            cluster.startNode(leader);
            Replicas.awaitAllInSync(cluster.bootstrapServers(), Duration.ofMinutes(2));
            System.out.printf(
                    "ClusterFaultsIT: %d I/Os; leader %d killed, run finished %d ms later; "
                            + "node rejoined and every replica in sync%n",
                    run.ioCount(), leader, finishedAfterKillMs);
        } finally {
            run.openAll();
        }
    }

    @Test
    void theSurvivingAnalyticsInstanceAnswersForEveryRunAndTheRestartChangesNothing() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String appId = "it-cluster-analytics-" + suffix;
        int[] ports = {LoopbackPorts.freePort(), LoopbackPorts.freePort()};
        List<ChildJvm> children = new ArrayList<>();
        List<GatedSimulation> runs = new ArrayList<>();
        try {
            ChildJvm first = startInstance(appId, 0, ports[0], children);
            ChildJvm second = startInstance(appId, 1, ports[1], children);
            ApiClient apiFirst = new ApiClient(first.awaitOutput(API_URL, Duration.ofMinutes(2)));
            new ApiClient(second.awaitOutput(API_URL, Duration.ofMinutes(2)));
            // one run on a partition of each instance, found by asking both instances who owns a candidate id
            String[] owned = await("a run id owned by each instance")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(
                            () -> {
                                String[] found = new String[2];
                                for (int i = 0; i < 40 && (found[0] == null || found[1] == null); i++) {
                                    String id = "it-owned-" + suffix + "-" + i;
                                    boolean firstForwards = forwarded(ports[0], id);
                                    boolean secondForwards = forwarded(ports[1], id);
                                    if (firstForwards != secondForwards) {
                                        found[firstForwards ? 1 : 0] = found[firstForwards ? 1 : 0] == null
                                                ? id
                                                : found[firstForwards ? 1 : 0];
                                    }
                                }
                                return found;
                            },
                            f -> f[0] != null && f[1] != null);
            for (String runId : owned) {
                runs.add(new GatedSimulation(
                                stack.bootstrapServers(), stack.schemaRegistryUrl(), runId, WORKLOAD, VARIABLES, 12)
                        .start());
            }
            for (GatedSimulation run : runs) {
                run.awaitGate(0, Duration.ofMinutes(3));
                await("windows of run " + run.runId())
                        .atMost(Duration.ofMinutes(2))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> apiFirst.windowCount(run.runId()) > 0);
            }
            children.get(1).kill();
            long killedNs = System.nanoTime();
            runs.forEach(r -> r.open(0));
            for (GatedSimulation run : runs) {
                assertThat(run.awaitExit(Duration.ofMinutes(3)))
                        .as(run.output())
                        .isZero();
            }
            // the survivor answers for the dead instance's run itself (not forwarded, not from a standby)
            await("the survivor answering for " + owned[1])
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .until(() -> answersItself(ports[0], owned[1]));
            long takeoverMs = (System.nanoTime() - killedNs) / 1_000_000;
            Map<String, JsonNode> summaries = new HashMap<>();
            for (String runId : owned) {
                JsonNode live = await("COMPLETED summary of run " + runId)
                        .atMost(Duration.ofMinutes(3))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(
                                () -> apiFirst.json("/api/runs/" + runId + "/summary")
                                        .filter(s -> s.path("status").asText().equals("COMPLETED")),
                                Optional::isPresent)
                        .get();
                assertThat(withoutContext(live))
                        .as("summary of %s on the survivor = its offline analysis", runId)
                        .isEqualTo(withoutContext(offlineSummary(runId)));
                summaries.put(runId, live);
            }

            ChildJvm restarted = startInstance(appId, 1, ports[1], children);
            ApiClient apiRestarted = new ApiClient(restarted.awaitOutput(API_URL, Duration.ofMinutes(2)));
            for (String runId : owned) {
                JsonNode again = SameViews.assertSame(runId, apiFirst, apiRestarted, Duration.ofMinutes(2));
                assertThat(again).as("summary of %s after the restart", runId).isEqualTo(summaries.get(runId));
            }
            System.out.printf(
                    "ClusterFaultsIT: analytics instance killed mid-run; the survivor answered for its run"
                            + " %d ms later (session timeout 6 s)%n",
                    takeoverMs);
        } finally {
            runs.forEach(GatedSimulation::openAll);
            ChildJvm.closeAll(children);
        }
    }

    private ChildJvm startInstance(String appId, int n, int port, List<ChildJvm> children) {
        ChildJvm child = ChildJvm.streams(
                tmp.resolve("streams-" + n + "-" + children.size() + ".log"),
                stack,
                appId,
                tmp.resolve("state-" + n),
                port,
                "8m",
                List.of(
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

    /** Whether the instance on {@code port} forwards a request for the run to another instance. */
    private boolean forwarded(int port, String runId) throws Exception {
        HttpResponse<Void> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/runs/" + runId))
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        return r.headers().firstValue("X-Ssdpulse-Forwarded-By").isPresent();
    }

    private boolean answersItself(int port, String runId) throws Exception {
        HttpResponse<Void> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/runs/" + runId + "/summary"))
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        return r.statusCode() == 200
                && r.headers().firstValue("X-Ssdpulse-Forwarded-By").isEmpty()
                && r.headers().firstValue("X-Ssdpulse-Served-From").isEmpty();
    }

    private static ObjectNode withoutContext(JsonNode summary) {
        return OfflineSummaries.withoutContext(summary);
    }

    /** The broker leading the partition of the I/O topic that holds the run's records. */
    private static int leaderOfRunPartition(String bootstrapServers, String runId) throws Exception {
        int partition =
                Utils.toPositive(Utils.murmur2(runId.getBytes(StandardCharsets.UTF_8))) % Topics.DEFAULT_PARTITIONS;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            TopicPartitionInfo info = admin.describeTopics(List.of(Topics.IO.name()))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(Topics.IO.name())
                    .partitions()
                    .get(partition);
            return info.leader().id();
        }
    }

    /** The same workload and seed on the same drive, analysed in-process: the summary JSON of `simulate --offline`. */
    private static JsonNode offlineSummary(String runId) {
        return OfflineSummaries.of(runId, "tiny-test", new WorkloadPresets().load(WORKLOAD, VARIABLES));
    }
}
