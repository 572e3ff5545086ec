package dev.ssdpulse.platform.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A bare java.net.http client for registry tests, independent of the schemas module's client. */
final class RegistryHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    RegistryHttp(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    record Reply(int status, JsonNode body, String contentType) {
        int errorCode() {
            return body.path("error_code").asInt();
        }
    }

    Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
    }

    Reply delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE());
    }

    Reply post(String path, String jsonBody) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    Reply put(String path, String jsonBody) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    /** {"schema": "<schema as a JSON string>"} */
    static String schemaBody(String schema) {
        return JSON.createObjectNode().put("schema", schema).toString();
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> r =
                    client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
            return new Reply(
                    r.statusCode(), body, r.headers().firstValue("Content-Type").orElse(""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
