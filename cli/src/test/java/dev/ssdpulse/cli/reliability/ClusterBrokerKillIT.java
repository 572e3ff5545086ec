package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.cli.run.OfflineRunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.EmbeddedKafkaCluster;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a three-broker cluster (replication factor 3, min.insync.replicas 2), the broker leading a streamed run's
 * partition is killed with SIGKILL in the middle of the run: leadership moves, the idempotent producer's retries
 * land once, `runs verify` finds every I/O exactly once, and the analytics, running through it, give the same
 * summary as the offline analysis of the same seed. The killed broker then rejoins and catches up.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ClusterBrokerKillIT {
    private static final String WORKLOAD = "seed003-qd1-random-write-5000s";
    private static final Map<String, String> VARIABLES = Map.of("durationS", "20");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void aRunSurvivesTheKillOfItsPartitionLeaderAndEqualsItsOfflineAnalysis() throws Exception {
        String runId = "it-cluster-kill-" + UUID.randomUUID().toString().substring(0, 8);
        try (LocalStack stack = LocalStack.start(BrokerSettings.defaults().withHeapMb(384), 3, 0)) {
            EmbeddedKafkaCluster cluster = stack.cluster();
            stack.createTopics(TopicCreation.catalogue(Topics.DEFAULT_PARTITIONS, cluster.replicationFactor(),
                    cluster.minInSyncReplicas()));
            AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(),
                    tmp.resolve("state")).withApplicationId("it-cluster-kill-app");
            GatedSimulation run = new GatedSimulation(stack.bootstrapServers(), stack.schemaRegistryUrl(), runId,
                    WORKLOAD, VARIABLES, 12);
            try (InProcessAnalytics analytics = InProcessAnalytics.start(config)) {
                run.start();
                run.awaitGate(0, Duration.ofMinutes(3));
                await("windows of run " + runId).atMost(Duration.ofMinutes(2))
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
                assertThat(leaderOfRunPartition(stack.bootstrapServers(), runId)).as("leadership moved")
                        .isNotEqualTo(leader);

                StringWriter out = new StringWriter();
                var cli = Main.commandLine();
                cli.setOut(new PrintWriter(out, true));
                cli.setErr(new PrintWriter(out, true));
                int verify = cli.execute("runs", "verify", "--run", runId, "--timeout", "2m",
                        "--bootstrap-servers", stack.bootstrapServers(),
                        "--schema-registry-url", stack.schemaRegistryUrl());
                assertThat(verify).as(out.toString()).isZero();
                assertThat(out.toString()).contains(String.format("%,d I/O events", run.ioCount()))
                        .contains("0 gap(s), 0 duplicate batch(es)");

                JsonNode live = await("COMPLETED summary of run " + runId).atMost(Duration.ofMinutes(3))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> analytics.api().json("/api/runs/" + runId + "/summary")
                                .filter(s -> s.path("status").asText().equals("COMPLETED")), Optional::isPresent)
                        .get();
                JsonNode offline = offlineSummary(runId);
                ObjectNode liveWithoutContext = ((ObjectNode) live.deepCopy());
                liveWithoutContext.remove(List.of("device", "workload"));
                ObjectNode offlineWithoutContext = ((ObjectNode) offline.deepCopy());
                offlineWithoutContext.remove(List.of("device", "workload"));
                assertThat(liveWithoutContext).as("the live summary equals the offline analysis of the same seed")
                        .isEqualTo(offlineWithoutContext);

                cluster.startNode(leader);
                cluster.awaitAllReplicasInSync(Duration.ofMinutes(2));
                System.out.printf("ClusterBrokerKillIT: %d I/Os; leader %d killed, run finished %d ms later; "
                        + "node rejoined and every replica in sync%n", run.ioCount(), leader, finishedAfterKillMs);
            } finally {
                run.openAll();
            }
        }
    }

    /** The broker leading the partition of the I/O topic that holds the run's records. */
    private static int leaderOfRunPartition(String bootstrapServers, String runId) throws Exception {
        int partition = Utils.toPositive(Utils.murmur2(runId.getBytes(StandardCharsets.UTF_8)))
                % Topics.DEFAULT_PARTITIONS;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            TopicPartitionInfo info = admin.describeTopics(List.of(Topics.IO.name())).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(Topics.IO.name()).partitions().get(partition);
            return info.leader().id();
        }
    }

    /** The same workload and seed on the same drive, analysed in-process: the summary JSON of `simulate --offline`. */
    private static JsonNode offlineSummary(String runId) throws Exception {
        WorkloadSpec spec = new WorkloadPresets().load(WORKLOAD, VARIABLES);
        SimulatedDrive drive = new SimulatedDrive(new SsdPresets().resolve("tiny-test"), spec.seed());
        StringWriter json = new StringWriter();
        new SimulatedRunDriver(drive, spec, 1_000_000_000L, 0, null, () -> false).run(new OfflineRunOutput(runId,
                1_000_000_000L, 60_000_000_000L, "json", null, "tiny-test", WORKLOAD, new PrintWriter(json, true)));
        return JSON.readTree(json.toString());
    }
}
