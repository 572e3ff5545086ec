package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.cli.Main;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several {@code ssdpulse streams} started as a user would, without {@code -X application.server}: the two bound to
 * this host only (the default 127.0.0.1) derive their address from their API's bind address and port, print it, and
 * forward to each other; the one bound to every address (0.0.0.0) cannot, says so, and every request the instances
 * cannot route because of it is answered with the setting to add, never with a plain "unknown run".
 */
@ExtendWith(KafkaTestEnvironment.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class InstancesFindEachOtherIT {
    private static final Pattern API_URL = Pattern.compile("dashboard and API: (http://\\S+)");
    private final HttpClient client = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    private record Answer(int status, String body, boolean forwarded) {}

    private Answer get(String base, String path) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(URI.create(base).resolve(path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(
                r.statusCode(),
                r.body(),
                r.headers().firstValue("X-Ssdpulse-Forwarded-By").isPresent());
    }

    /** Run ids on every partition of the run topics, so every instance owns some. */
    private static List<String> runIdsOnEveryPartition(String prefix) {
        Map<Integer, String> byPartition = new LinkedHashMap<>();
        while (byPartition.size() < Topics.DEFAULT_PARTITIONS) {
            String id = prefix + UUID.randomUUID().toString().substring(0, 6);
            int partition =
                    Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % Topics.DEFAULT_PARTITIONS;
            byPartition.putIfAbsent(partition, id);
        }
        return new ArrayList<>(byPartition.values());
    }

    @Test
    void instancesOnLoopbackFindEachOtherAndOneThatCannotNamesTheSetting(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        List<String> runIds = runIdsOnEveryPartition("find-" + suffix + "-");
        for (String runId : runIds) {
            StringWriter out = new StringWriter();
            var cli = Main.commandLine();
            cli.setOut(new PrintWriter(out, true));
            cli.setErr(new PrintWriter(out, true));
            int exit = cli.execute(
                    "simulate",
                    "--ssd",
                    "tiny-test",
                    "--workload",
                    "seed003-mixed-80-20",
                    "--set",
                    "durationS=2",
                    "--set",
                    "preconditionPercent=5",
                    "--run-id",
                    runId,
                    "--quiet",
                    "--bootstrap-servers",
                    stack.bootstrapServers(),
                    "--schema-registry-url",
                    stack.schemaRegistryUrl());
            assertThat(exit).as(out.toString()).isZero();
        }
        String applicationId = "find-each-other-" + suffix;
        List<ChildJvm> instances = new ArrayList<>();
        List<String> bases = new ArrayList<>();
        int[] ports = {LoopbackPorts.freePort(), LoopbackPorts.freePort(), LoopbackPorts.freePort()};
        try {
            for (int i = 0; i < 3; i++) {
                List<String> args = new ArrayList<>(List.of(
                        "streams",
                        "--bootstrap-servers",
                        stack.bootstrapServers(),
                        "--schema-registry-url",
                        stack.schemaRegistryUrl(),
                        "--application-id",
                        applicationId,
                        "--state-dir",
                        tmp.resolve("state-" + i).toString(),
                        "--http-port",
                        Integer.toString(ports[i]),
                        "--exit-after",
                        "5m"));
                if (i == 2) {
                    args.addAll(List.of("--http-bind", "0.0.0.0"));
                }
                instances.add(ChildJvm.start(tmp.resolve("streams-" + i + ".log"), args));
            }
            for (int i = 0; i < 3; i++) {
                bases.add(instances.get(i).awaitOutput(API_URL, Duration.ofMinutes(3)));
            }
            for (int i = 0; i < 2; i++) {
                assertThat(instances.get(i).output())
                        .contains("advertised to other instances as 127.0.0.1:" + ports[i]
                                + " (application.server, derived from --http-bind and --http-port)");
            }
            assertThat(instances.get(2).output())
                    .contains("advertised to other instances: none; the HTTP API listens on every address");

            // once the partitions are spread: the two loopback instances answer for their runs and each other's;
            // a run of the third is answered with the setting to add, by every instance
            await("every run answered by its owner, forwarded or refused with the setting to add")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .untilAsserted(() -> {
                        int forwarded = 0;
                        int refused = 0;
                        for (String runId : runIds) {
                            List<Answer> answers = new ArrayList<>();
                            for (String base : bases) {
                                answers.add(get(base, "/api/runs/" + runId + "/summary"));
                            }
                            for (int i = 0; i < answers.size(); i++) {
                                Answer a = answers.get(i);
                                assertThat(a.status())
                                        .as("instance %d (%s): %s", i, bases.get(i), a.body())
                                        .isIn(200, 502);
                                if (a.status() == 502) {
                                    assertThat(a.body()).contains("application.server=HOST:PORT");
                                    refused++;
                                }
                                forwarded += a.forwarded() ? 1 : 0;
                            }
                            // a run the loopback instances own is answered by both of them
                            boolean ownedByThird = answers.get(0).status() == 502;
                            if (!ownedByThird) {
                                assertThat(answers.get(1).status()).isEqualTo(200);
                                assertThat(answers.get(0).body())
                                        .isEqualTo(answers.get(1).body());
                            }
                        }
                        assertThat(forwarded)
                                .as("requests forwarded between the loopback instances")
                                .isPositive();
                        assertThat(refused)
                                .as("requests for the third instance's runs")
                                .isPositive();
                    });
        } finally {
            ChildJvm.closeAll(instances);
        }
    }
}
