package dev.ssdpulse.streams.http;

import java.time.Duration;
import java.util.Objects;

/**
 * @param bindAddress     address to listen on (default 127.0.0.1: the API is not exposed unless asked)
 * @param port            TCP port, 0 = any free port (see {@link HttpApiServer#url()})
 * @param bearerToken     when non-null, /api/* and /metrics need "Authorization: Bearer <token>" (or
 *                        ?access_token= for EventSource, which cannot set headers)
 * @param advertisedHost  this instance's "host:port" as set in Kafka Streams' application.server; a run owned
 *                        by another host:port is forwarded there. Null = never forward.
 * @param ssePollInterval how often an SSE stream polls the views for new windows
 * @param maxSseClients   concurrent SSE streams; more are refused with 503
 */
public record HttpApiConfig(
        String bindAddress,
        int port,
        String bearerToken,
        String advertisedHost,
        Duration ssePollInterval,
        int maxSseClients) {
    public HttpApiConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(ssePollInterval, "ssePollInterval");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (bearerToken != null && bearerToken.isBlank()) {
            throw new IllegalArgumentException("bearerToken must not be blank (use null for no authentication)");
        }
        if (maxSseClients < 1) {
            throw new IllegalArgumentException("maxSseClients must be >= 1, was " + maxSseClients);
        }
    }

    /** 127.0.0.1:port, no token, no forwarding, SSE polled every 500 ms, at most 64 SSE clients. */
    public static HttpApiConfig localhost(int port) {
        return new HttpApiConfig("127.0.0.1", port, null, null, Duration.ofMillis(500), 64);
    }

    public HttpApiConfig withBindAddress(String address) {
        return new HttpApiConfig(address, port, bearerToken, advertisedHost, ssePollInterval, maxSseClients);
    }

    public HttpApiConfig withBearerToken(String token) {
        return new HttpApiConfig(bindAddress, port, token, advertisedHost, ssePollInterval, maxSseClients);
    }

    public HttpApiConfig withAdvertisedHost(String hostPort) {
        return new HttpApiConfig(bindAddress, port, bearerToken, hostPort, ssePollInterval, maxSseClients);
    }

    public HttpApiConfig withSsePollInterval(Duration interval) {
        return new HttpApiConfig(bindAddress, port, bearerToken, advertisedHost, interval, maxSseClients);
    }
}
