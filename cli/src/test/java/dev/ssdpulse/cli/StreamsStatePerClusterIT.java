package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.platform.KafkaReachability;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.ClusterStateDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams state belongs to the Kafka cluster it was made against: two clusters one after another (the shared test
 * stack, then a new one, as after a new `stack --ephemeral`) with the same --state-dir. The second cluster's
 * analytics start on a directory of their own and show none of the first cluster's runs, as `report` does; the first
 * cluster's directory is refused against the second, naming both cluster ids.
 */
@ExtendWith(KafkaTestEnvironment.class)
class StreamsStatePerClusterIT {
    @TempDir
    Path temp;

    private record Result(int exit, String out, String err) {}

    private static Result run(String bootstrap, String registry, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--bootstrap-servers", bootstrap, "--schema-registry-url", registry));
        int exit = cli.execute(all.toArray(String[]::new));
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void aNewClusterNeverSeesTheRunsOfTheLastOne(TestStack first) throws Exception {
        Path base = temp.resolve("streams-state");
        String appId = "state-per-cluster-it-" + UUID.randomUUID();
        String runId = "it-state-" + UUID.randomUUID().toString().substring(0, 8);
        Path workload = temp.resolve("w.yaml");
        Files.writeString(workload, """
                name: short
                seed: 1
                phases:
                  - name: test
                    kind: TEST
                    accessSpecs:
                      - {transferSize: 4KiB, percentRead: 50, percentRandom: 100}
                    queueDepth: 4
                    duration: 2s
                """);
        Result sim = run(
                first.bootstrapServers(),
                first.schemaRegistryUrl(),
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                workload.toString(),
                "--run-id",
                runId,
                "--quiet");
        assertThat(sim.exit()).as(sim.err()).isZero();

        String firstId = KafkaReachability.clusterId(
                Map.of("bootstrap.servers", first.bootstrapServers()), Duration.ofSeconds(10));
        Path firstDir = ClusterStateDirectory.of(base, firstId);
        try (AnalyticsApp app =
                new AnalyticsApp(AnalyticsConfig.defaults(first.bootstrapServers(), first.schemaRegistryUrl(), firstDir)
                        .withApplicationId(appId))) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(60))
                    .ignoreExceptions()
                    .until(() -> app.views().run(runId).isPresent());
        }

        try (LocalStack second = LocalStack.start(temp.resolve("second-stack"))) {
            String secondId = KafkaReachability.clusterId(
                    Map.of("bootstrap.servers", second.bootstrapServers()), Duration.ofSeconds(10));
            assertThat(secondId).isNotEqualTo(firstId);

            // `streams` on the new cluster with the same --state-dir, its dashboard asked while it runs
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            var cli = Main.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(err, true));
            CompletableFuture<Integer> streams = CompletableFuture.supplyAsync(() -> cli.execute(
                    "streams",
                    "--state-dir",
                    base.toString(),
                    "--application-id",
                    appId,
                    "--http-port",
                    "0",
                    "--exit-after",
                    "6s",
                    "--bootstrap-servers",
                    second.bootstrapServers(),
                    "--schema-registry-url",
                    second.schemaRegistryUrl()));
            Matcher url = await("the dashboard's address")
                    .atMost(Duration.ofSeconds(90))
                    .until(
                            () -> Pattern.compile("dashboard and API: (http://\\S+)")
                                    .matcher(out.toString()),
                            Matcher::find);
            String runs = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url.group(1) + "api/runs"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(runs).as("the dashboard's runs").doesNotContain(runId);
            assertThat(streams.get(90, TimeUnit.SECONDS)).as(err.toString()).isZero();
            Path secondDir = base.resolve(secondId);
            assertThat(out.toString()).contains("state in " + secondDir + " (Kafka cluster " + secondId + ")");
            assertThat(secondDir.resolve(ClusterStateDirectory.MARKER_FILE)).hasContent(secondId);
            assertThat(firstDir.resolve(ClusterStateDirectory.MARKER_FILE)).hasContent(firstId);

            Result report = run(second.bootstrapServers(), second.schemaRegistryUrl(), "report", "--run", runId);
            assertThat(report.exit()).as("report agrees: " + report.out()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(report.err()).contains("no run '" + runId + "'");

            assertThatThrownBy(() -> ClusterStateDirectory.claim(firstDir, secondId))
                    .hasMessageContaining("made against Kafka cluster " + firstId + ", but " + secondId);
        }
    }
}
