package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real analytics instances with one application id share the partitions, each with its HTTP API advertised
 * as {@code application.server}: either instance lists every run and serves every run's summary, series and
 * verdicts, answering for the runs it owns and forwarding the others to their owner; when one instance leaves, the
 * other answers for its runs from standby replicas (saying so), then takes its partitions over and answers for
 * every run itself, with the same results.
 */
@ExtendWith(KafkaTestEnvironment.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TwoAnalyticsInstancesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client = HttpClient.newHttpClient();

    @TempDir
    Path temp;

    private record Answer(int status, JsonNode body, boolean forwarded, boolean servedFromStandby) {}

    private Answer get(HttpApiServer server, String path) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(server.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(
                r.statusCode(),
                r.statusCode() == 200 ? JSON.readTree(r.body()) : null,
                r.headers().firstValue(HttpApiServer.FORWARDED_HEADER).isPresent(),
                r.headers().firstValue(HttpApiServer.SERVED_FROM_HEADER).isPresent());
    }

    private String metrics(HttpApiServer server, String query) throws Exception {
        HttpResponse<String> r = client.send(
                HttpRequest.newBuilder(server.url().resolve("/metrics" + query)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("/metrics%s", query).isEqualTo(200);
        return r.body();
    }

    /** Run ids whose records land on every partition of the run topics, so both instances own some of them. */
    private static List<String> runIdsOnEveryPartition() {
        Map<Integer, String> byPartition = new LinkedHashMap<>();
        while (byPartition.size() < Topics.DEFAULT_PARTITIONS) {
            String id = "two-" + UUID.randomUUID().toString().substring(0, 8);
            int partition =
                    Utils.toPositive(Utils.murmur2(id.getBytes(StandardCharsets.UTF_8))) % Topics.DEFAULT_PARTITIONS;
            byPartition.putIfAbsent(partition, id);
        }
        return new ArrayList<>(byPartition.values());
    }

    @Test
    void eitherInstanceAnswersForEveryRunAndTheSurvivorTakesOver(TestStack stack) throws Exception {
        String applicationId = "two-instances-it-" + UUID.randomUUID();
        List<String> runIds = runIdsOnEveryPartition();
        TopicCreation.createCatalogueIfMissing(stack.bootstrapServers(), (short) 1);
        for (int i = 0; i < runIds.size(); i++) {
            TestRunPublisher.publish(stack, runIds.get(i), "run " + i, 12, 150, 31 + i);
        }
        int[] ports = {LoopbackPorts.freePort(), LoopbackPorts.freePort()};
        List<AnalyticsApp> apps = new ArrayList<>();
        List<HttpApiServer> servers = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                AnalyticsConfig config = AnalyticsConfig.defaults(
                                stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state-" + i))
                        .withApplicationId(applicationId)
                        .withExtraProperties(Map.of("application.server", "127.0.0.1:" + ports[i]));
                AnalyticsApp app = new AnalyticsApp(config);
                app.start();
                apps.add(app);
            }
            for (int i = 0; i < 2; i++) {
                apps.get(i).awaitRunning(Duration.ofSeconds(90));
                servers.add(HttpApiServer.start(
                        apps.get(i), HttpApiConfig.localhost(ports[i]).withAdvertisedHost("127.0.0.1:" + ports[i])));
            }
            // both instances list all six runs once each has its share of the partitions and every summary is in
            for (HttpApiServer server : servers) {
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(500))
                        .ignoreExceptions()
                        .until(() -> {
                            Answer list = get(server, "/api/runs");
                            Set<String> completed = new HashSet<>();
                            list.body().forEach(r -> {
                                if (r.path("status").asText().equals("COMPLETED")) {
                                    completed.add(r.get("runId").asText());
                                }
                            });
                            return list.status() == 200 && completed.containsAll(runIds);
                        });
            }
            Map<String, JsonNode> summaries = new HashMap<>();
            int[] forwarded = new int[2];
            for (String id : runIds) {
                for (int i = 0; i < 2; i++) {
                    Answer summary = get(servers.get(i), "/api/runs/" + id + "/summary");
                    assertThat(summary.status())
                            .as("summary of %s from instance %d", id, i)
                            .isEqualTo(200);
                    forwarded[i] += summary.forwarded() ? 1 : 0;
                    JsonNode before = summaries.putIfAbsent(id, summary.body());
                    if (before != null) {
                        assertThat(summary.body())
                                .as("the same summary of %s from either instance", id)
                                .isEqualTo(before);
                    }
                    Answer series = get(servers.get(i), "/api/runs/" + id + "/series?op=WRITE");
                    assertThat(series.status()).isEqualTo(200);
                    assertThat(series.body().get("ops"))
                            .as("series of %s from instance %d", id, i)
                            .isNotEmpty();
                    assertThat(get(servers.get(i), "/api/runs/" + id + "/steady-state")
                                    .status())
                            .isEqualTo(200);
                }
                assertThat(summaries.get(id).get("ioCount").asLong()).isPositive();
            }
            // the live event stream of a run, asked of the instance that does not own it, is relayed from the owner
            for (String id : runIds) {
                int other = get(servers.get(0), "/api/runs/" + id + "/summary").forwarded() ? 0 : 1;
                assertThat(sseEvents(servers.get(other), id))
                        .as("events of %s through instance %d", id, other)
                        .contains("window", "status", "summary");
            }
            assertThat(forwarded[0])
                    .as("instance 0 forwards the runs instance 1 owns")
                    .isPositive();
            assertThat(forwarded[1])
                    .as("instance 1 forwards the runs instance 0 owns")
                    .isPositive();
            assertThat(forwarded[0] + forwarded[1])
                    .as("every run answered by its owner once, forwarded once")
                    .isEqualTo(runIds.size());
            // /metrics: per instance by default (each its own runs, for a Prometheus scrape of every instance);
            // ?scope=cluster gives every run's gauges from either instance, each series once
            for (int i = 0; i < 2; i++) {
                String own = metrics(servers.get(i), "");
                String cluster = metrics(servers.get(i), "?scope=cluster");
                for (String id : runIds) {
                    String series = "ssdpulse_run_status{run_id=\"" + id + "\",status=\"COMPLETED\"} 1.0";
                    assertThat(cluster).as("cluster metrics of instance %d", i).containsOnlyOnce(series);
                    boolean owned =
                            !get(servers.get(i), "/api/runs/" + id + "/summary").forwarded();
                    assertThat(own.contains(series))
                            .as("instance %d's own metrics name %s", i, id)
                            .isEqualTo(owned);
                }
                assertThat(cluster).containsOnlyOnce("# TYPE ssdpulse_run_status gauge");
            }

            // the second instance's API goes away while its application keeps its partitions: the first answers for
            // the second's runs from its standby replicas, says so, and gives the same summaries
            List<String> ownedBySecond = runIds.stream()
                    .filter(id -> {
                        try {
                            return get(servers.get(0), "/api/runs/" + id + "/summary")
                                    .forwarded();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .toList();
            servers.remove(1).close();
            HttpApiServer first = servers.get(0);
            for (String id : ownedBySecond) {
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .ignoreExceptions()
                        .until(() -> get(first, "/api/runs/" + id + "/summary").status() == 200);
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(first.url().resolve("/api/runs/" + id + "/summary"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.headers().firstValue(HttpApiServer.SERVED_FROM_HEADER))
                        .as("answered by a standby of %s", id)
                        .hasValueSatisfying(v -> assertThat(v)
                                .startsWith("standby replica on 127.0.0.1:" + ports[0])
                                .contains("is unreachable"));
                assertThat(JSON.readTree(r.body())).isEqualTo(summaries.get(id));
            }

            // the second instance leaves: the first takes its partitions over (from its standbys, topped up from
            // the changelogs) and answers for every run itself, with the same summaries
            apps.remove(1).close();
            HttpApiServer survivor = servers.get(0);
            await().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> runIds.stream().allMatch(id -> {
                        try {
                            Answer a = get(survivor, "/api/runs/" + id + "/summary");
                            return a.status() == 200 && !a.forwarded() && !a.servedFromStandby();
                        } catch (Exception e) {
                            return false;
                        }
                    }));
            for (String id : runIds) {
                Answer after = get(survivor, "/api/runs/" + id + "/summary");
                assertThat(after.body())
                        .as("summary of %s after the takeover", id)
                        .isEqualTo(summaries.get(id));
            }
        } finally {
            servers.forEach(HttpApiServer::close);
            apps.forEach(AnalyticsApp::close);
        }
    }

    /** The event names of a run's SSE stream up to its summary. */
    private Set<String> sseEvents(HttpApiServer server, String runId) throws Exception {
        HttpResponse<InputStream> r = client.send(
                HttpRequest.newBuilder(server.url().resolve("/api/runs/" + runId + "/events"))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        Set<String> seen = new HashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String line;
            while (!seen.contains("summary") && (line = in.readLine()) != null) {
                if (line.startsWith("event: ")) {
                    seen.add(line.substring(7));
                }
            }
        }
        return seen;
    }
}
