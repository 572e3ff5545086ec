package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.testing.TestJvmOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docker/compose.yml as a user starts it (with compose.local.yml, since no image registry is reachable here):
 * podman-compose brings up three Kafka brokers, the schema registry and two analytics instances from the ssdpulse
 * image; a simulated run is streamed into it from the host through the distribution's bin/ssdpulse; both analytics
 * instances serve its summary (one of them forwarding to the owner); the topics have three replicas and
 * min.insync.replicas 2; the cluster is taken down and nothing of it is left. Needs podman-compose and the image
 * (docker/build-images.sh): .ci/run provides both and makes their absence a failure
 * (-Dssdpulse.test.containerBackend=testcontainers); elsewhere the test is skipped without them.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ComposeClusterIT {
    private static final Path SOURCE_ROOT =
            Path.of(System.getProperty("ssdpulse.sourceRoot")).normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theComposeClusterRunsARunAndBothAnalyticsInstancesServeIt() throws Exception {
        String image = System.getProperty("ssdpulse.test.image");
        boolean required = "testcontainers".equals(System.getProperty("ssdpulse.test.containerBackend"));
        boolean available =
                exitCode("podman-compose", "version") == 0 && exitCode("podman", "image", "exists", image) == 0;
        if (required) {
            assertThat(available)
                    .as("podman-compose and the image " + image + " (docker/build-images.sh)")
                    .isTrue();
        } else {
            assumeThat(available).as("podman-compose and the image " + image).isTrue();
        }

        String project = "ssdpulse-it-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> ports = new HashMap<>();
        for (String variable : List.of(
                "KAFKA_1_PORT", "KAFKA_2_PORT", "KAFKA_3_PORT", "REGISTRY_PORT", "STREAMS_1_PORT", "STREAMS_2_PORT")) {
            ports.put(variable, Integer.toString(freePort()));
        }
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(ports);
        env.put("SSDPULSE_VERSION", UnpackedDistribution.version());
        List<String> compose = new ArrayList<>(
                List.of("podman-compose", "-p", project, "-f", "docker/compose.yml", "-f", "docker/compose.local.yml"));
        List<String> jvmOptions = TestJvmOptions.forChildJvms();
        if (!jvmOptions.isEmpty()) {
            // the containers' JVMs live for this test only: the build's options for such JVMs (C1 only)
            env.put("SSDPULSE_TEST_JVM_OPTIONS", String.join(" ", jvmOptions));
            compose.addAll(List.of(
                    "-f",
                    Path.of(ComposeClusterIT.class
                                    .getResource("/compose.test-jvm.yml")
                                    .toURI())
                            .toString()));
        }
        String bootstrap = "localhost:" + ports.get("KAFKA_1_PORT") + ",localhost:" + ports.get("KAFKA_2_PORT")
                + ",localhost:" + ports.get("KAFKA_3_PORT");
        String registry = "http://localhost:" + ports.get("REGISTRY_PORT");
        List<String> apis = List.of(
                "http://localhost:" + ports.get("STREAMS_1_PORT"), "http://localhost:" + ports.get("STREAMS_2_PORT"));
        try {
            try (Script up = Script.start(SOURCE_ROOT, env, concat(compose, "up", "-d"))) {
                assertThat(up.awaitExit(300)).as(up.stdout() + up.stderr()).isZero();
            }
            HttpClient http = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            await().atMost(Duration.ofMinutes(4))
                    .pollInterval(Duration.ofSeconds(2))
                    .ignoreExceptions()
                    .until(() -> status(http, registry + "/subjects") == 200
                            && status(http, apis.get(0) + "/api/runs") == 200
                            && status(http, apis.get(1) + "/api/runs") == 200);

            UnpackedDistribution dist = UnpackedDistribution.get();
            String runId = "compose-it";
            try (Script simulate = dist.run(
                    "simulate",
                    "--ssd",
                    "tiny-test",
                    "--workload",
                    "seed001-tweakers-continuous",
                    "--duration",
                    "5s",
                    "--set",
                    "targetSize=100MB",
                    "--run-id",
                    runId,
                    "--quiet",
                    "--bootstrap-servers",
                    bootstrap,
                    "--schema-registry-url",
                    registry)) {
                assertThat(simulate.awaitExit(180))
                        .as(simulate.stdout() + simulate.stderr())
                        .isZero();
                assertThat(simulate.stdout())
                        .contains("run " + runId + ": COMPLETED")
                        .contains(", 0 not published");
            }

            // either instance answers (its own run, or forwarded to the owner); a summary published at RunFinished
            // gains its WA when the last SMART sample is processed after it, so equality is awaited, not sampled once
            List<JsonNode> summaries = new ArrayList<>();
            await("the same COMPLETED summary from either instance")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .until(() -> {
                        summaries.clear();
                        for (String api : apis) {
                            HttpResponse<String> r = http.send(
                                    HttpRequest.newBuilder(URI.create(api + "/api/runs/" + runId + "/summary"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                            summaries.add(r.statusCode() == 200 ? JSON.readTree(r.body()) : null);
                        }
                        return summaries.get(0) != null
                                && summaries.get(0).equals(summaries.get(1))
                                && summaries.get(0).path("status").asText().equals("COMPLETED")
                                && !summaries
                                        .get(0)
                                        .path("writeAmplification")
                                        .path("cumulative")
                                        .isNull();
                    });
            assertThat(summaries.get(0).path("ioCount").asLong())
                    .isPositive()
                    .isEqualTo(summaries.get(0).path("ioCountExpected").asLong());

            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                TopicDescription io = admin.describeTopics(List.of("ssdpulse.io.v1"))
                        .allTopicNames()
                        .get()
                        .get("ssdpulse.io.v1");
                assertThat(io.partitions())
                        .allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
                Config config = admin.describeConfigs(
                                List.of(new ConfigResource(ConfigResource.Type.TOPIC, "ssdpulse.io.v1")))
                        .all()
                        .get()
                        .values()
                        .iterator()
                        .next();
                assertThat(config.get("min.insync.replicas").value()).isEqualTo("2");
                assertThat(admin.describeCluster().nodes().get()).hasSize(3);
            }
        } finally {
            try (Script down = Script.start(SOURCE_ROOT, env, concat(compose, "down", "-v"))) {
                assertThat(down.awaitExit(300))
                        .as(down.stdout() + down.stderr())
                        .isZero();
            }
            Process left = new ProcessBuilder(
                            "podman", "ps", "-aq", "--filter", "label=io.podman.compose.project=" + project)
                    .redirectErrorStream(true)
                    .start();
            assertThat(new String(left.getInputStream().readAllBytes()).trim())
                    .as("containers left running")
                    .isEmpty();
        }
    }

    private static int status(HttpClient http, String url) throws IOException, InterruptedException {
        return http.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    private static List<String> concat(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all;
    }

    private static int exitCode(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
