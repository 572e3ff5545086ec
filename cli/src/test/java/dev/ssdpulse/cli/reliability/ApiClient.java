package dev.ssdpulse.cli.reliability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** GETs against one ssdpulse HTTP API (streams/src/main/resources/dashboard/API.md). */
final class ApiClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    /** @param baseUrl "http://127.0.0.1:port/" or without the trailing slash */
    ApiClient(String baseUrl) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    String baseUrl() {
        return baseUrl;
    }

    /** The body of a 200 answer, empty for any other status (404 before a run is known, 503 while restoring). */
    Optional<String> get(String path) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(baseUrl + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    Optional<JsonNode> json(String path) {
        return get(path).map(ApiClient::parse);
    }

    /** The run's status from {@code /api/runs/{id}}, empty while the run is unknown. */
    Optional<String> status(String runId) {
        return json("/api/runs/" + runId).map(n -> n.path("status").asText());
    }

    /** Closed windows of the run, all ops, from {@code /api/runs/{id}/series}. */
    int windowCount(String runId) {
        return json("/api/runs/" + runId + "/series")
                .map(ApiClient::windowCount)
                .orElse(0);
    }

    /** Latest window start (s of run time) over all ops, or -1 without windows. */
    double lastWindowStartS(String runId) {
        double last = -1;
        JsonNode series = json("/api/runs/" + runId + "/series").orElse(null);
        if (series == null) {
            return last;
        }
        for (JsonNode points : series.path("ops")) {
            for (JsonNode p : points) {
                last = Math.max(last, p.path("t").asDouble());
            }
        }
        return last;
    }

    static int windowCount(JsonNode series) {
        int n = 0;
        for (JsonNode points : series.path("ops")) {
            n += points.size();
        }
        return n;
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + text, e);
        }
    }
}
