package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /api/runs/{id}/scatter: JSON and binary columns of the same points, time and op filters, errors. */
class HttpApiScatterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000L;
    private final HttpClient client = HttpClient.newHttpClient();
    private final InMemoryRunViews views = new InMemoryRunViews();
    private HttpApiServer server;

    @BeforeEach
    void start() throws Exception {
        views.runs.put("r1", TestRecords.runStarted("r1", "first", 480_103_981_056L, 1_700_000_000_000_000_000L));
        views.statuses.put("r1", "RUNNING");
        // 3 windows of 300 I/Os, every 50th a 25-ms write outlier; 20 samples of the rest per window
        LatencyScatterSampler sampler = new LatencyScatterSampler("r1", S, 10 * MS, 20);
        for (int i = 0; i < 900; i++) {
            boolean outlier = i % 50 == 7;
            sampler.add(outlier ? 1 : 0, i * S / 300 + 17, outlier ? 25 * MS + i : 80_000 + i);
        }
        List<LatencyScatter> windows = new ArrayList<>();
        sampler.flushAll(w -> windows.add(AvroMappers.latencyScatter("r1", w)));
        views.scatters.put("r1", windows);
        server = new HttpApiServer(views, HttpApiConfig.localhost(0));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return client.send(
                HttpRequest.newBuilder(server.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void answersColumnsWithEveryOutlierAndTheWindowCounts() throws Exception {
        HttpResponse<byte[]> r = get("/api/runs/r1/scatter");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        JsonNode s = JSON.readTree(r.body());
        assertThat(s.get("thresholdNs").asLong()).isEqualTo(10 * MS);
        assertThat(s.get("windows").get("startNs")).extracting(JsonNode::asLong).containsExactly(0L, S, 2 * S);
        assertThat(s.get("windows").get("ioCount")).extracting(JsonNode::asLong).containsExactly(300L, 300L, 300L);
        assertThat(s.get("windows").get("atOrAboveThreshold"))
                .extracting(JsonNode::asLong)
                .containsExactly(6L, 6L, 6L);
        assertThat(s.get("windows").get("shown")).extracting(JsonNode::asInt).containsExactly(26, 26, 26);
        JsonNode points = s.get("points");
        assertThat(points.get("timeNs")).hasSize(78);
        assertThat(points.get("latencyNs")).hasSize(78);
        List<Long> outlierTimes = new ArrayList<>();
        for (int k = 0; k < 78; k++) {
            if (points.get("latencyNs").get(k).asLong() >= 10 * MS) {
                assertThat(points.get("op").get(k).asInt()).isEqualTo(1);
                outlierTimes.add(points.get("timeNs").get(k).asLong());
            }
        }
        List<Long> expected = new ArrayList<>();
        for (int i = 7; i < 900; i += 50) {
            expected.add(i * S / 300 + 17);
        }
        assertThat(outlierTimes).containsExactlyElementsOf(expected);
    }

    @Test
    void filtersByTimeAndOp() throws Exception {
        JsonNode s =
                JSON.readTree(get("/api/runs/r1/scatter?from=1&to=1.5&op=WRITE").body());
        assertThat(s.get("windows").get("startNs")).extracting(JsonNode::asLong).containsExactly(S);
        assertThat(s.get("windows").get("shown")).extracting(JsonNode::asInt).containsExactly(6);
        assertThat(s.get("points").get("op")).extracting(JsonNode::asInt).containsOnly(1);
    }

    @Test
    void theBinaryFormHoldsTheSamePointsAsTypedColumns() throws Exception {
        JsonNode json = JSON.readTree(get("/api/runs/r1/scatter").body());
        HttpResponse<byte[]> r = get("/api/runs/r1/scatter?format=binary");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).isEqualTo("application/octet-stream");
        ByteBuffer b = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(magic);
        assertThat(new String(magic, StandardCharsets.US_ASCII)).isEqualTo("SSDSCAT1");
        int windows = b.getInt();
        int points = b.getInt();
        assertThat(windows).isEqualTo(3);
        assertThat(points).isEqualTo(78);
        assertThat(b.getDouble()).isEqualTo(10 * MS);
        assertThat(b.getDouble()).isEqualTo(0);
        int timeAt = 24 + 6 * 8 * windows;
        assertThat(r.body()).hasSize(timeAt + 17 * points);
        for (int k = 0; k < points; k++) {
            assertThat((long) b.getDouble(timeAt + 8 * k))
                    .isEqualTo(json.get("points").get("timeNs").get(k).asLong());
            assertThat((long) b.getDouble(timeAt + 8 * points + 8 * k))
                    .isEqualTo(json.get("points").get("latencyNs").get(k).asLong());
            assertThat((int) b.get(timeAt + 16 * points + k))
                    .isEqualTo(json.get("points").get("op").get(k).asInt());
        }
    }

    @Test
    void refusesAnUnknownFormatAndAnswers404ForAnUnknownRun() throws Exception {
        HttpResponse<byte[]> bad = get("/api/runs/r1/scatter?format=png");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(new String(bad.body(), StandardCharsets.UTF_8)).contains("format");
        assertThat(get("/api/runs/nope/scatter").statusCode()).isEqualTo(404);
        JsonNode empty = JSON.readTree(get("/api/runs/r1/scatter?from=100").body());
        assertThat(empty.get("points").get("timeNs")).isEmpty();
        assertThat(empty.get("thresholdNs").isNull()).isTrue();
    }
}
