package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.http.metrics.RunMetricsCollector;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only HTTP API, Prometheus /metrics and the dashboard of one analytics instance, on the JDK's
 * HttpServer. Endpoints: streams/src/main/resources/dashboard/API.md (also served at /API.md).
 *
 * <p>Threads: requests run on a fixed pool of 8; SSE streams are polled by a 2-thread scheduler (a request
 * thread only opens the stream), so slow or many live clients never block other requests.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    /** Set on forwarded requests so a stale owner never bounces a request back (one hop at most). */
    static final String FORWARDED_HEADER = "X-Ssdpulse-Forwarded-By";
    private static final int REQUEST_THREADS = 8;

    private final RunViews views;
    private final HttpApiConfig config;
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final ExecutorService requestPool;
    private final ScheduledExecutorService ssePool;
    private final Semaphore sseSlots;
    /** A forwarded SSE stream holds a request thread while it relays: at most half of them may. */
    private final Semaphore forwardedStreamSlots = new Semaphore(REQUEST_THREADS / 2);
    private final Set<ScheduledFuture<?>> sseTasks = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter metricsWriter = PrometheusTextFormatWriter.create();
    private final HttpClient forwardClient;
    /** Null when no token is configured. */
    private final BearerToken bearerToken;

    /** Binds and starts serving. */
    public HttpApiServer(RunViews views, HttpApiConfig config) throws IOException {
        this.views = views;
        this.config = config;
        this.sseSlots = new Semaphore(config.maxSseClients());
        this.bearerToken = config.bearerToken() == null ? null : new BearerToken(config.bearerToken());
        this.registry.register(new RunMetricsCollector(views));
        this.requestPool = Executors.newFixedThreadPool(REQUEST_THREADS, daemonThreads("ssdpulse-http-"));
        this.ssePool = Executors.newScheduledThreadPool(2, daemonThreads("ssdpulse-sse-"));
        this.forwardClient = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.server = HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 0);
        server.setExecutor(requestPool);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Serves an analytics application's views. The advertised host (for routing) is the config's, else the
     * application's {@code application.server} property, which must then be this server's host:port.
     */
    public static HttpApiServer start(AnalyticsApp app, HttpApiConfig config) throws IOException {
        String advertised = config.advertisedHost() != null ? config.advertisedHost()
                : app.config().extraProperties().get("application.server");
        return new HttpApiServer(new StreamsRunViews(app.views(), app.streams()),
                config.withAdvertisedHost(advertised));
    }

    /** http://host:port/ of the bound socket (port resolved when 0 was asked). */
    public URI url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + a.getPort() + "/");
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        sseTasks.forEach(t -> t.cancel(false));
        ssePool.shutdownNow();
        server.stop(0);
        requestPool.shutdownNow();
    }

    private void handle(HttpExchange ex) {
        boolean keepOpen = false;
        try {
            String method = ex.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                throw new ApiException(405, "method " + method + " not allowed: the API is read-only (GET, HEAD)");
            }
            String path = ex.getRequestURI().getRawPath();
            Map<String, String> params = SeriesQuery.queryParams(ex.getRequestURI().getRawQuery());
            if (path.startsWith("/api/") || path.equals("/api") || path.equals("/metrics")) {
                authorize(ex, params);
            }
            if (path.equals("/metrics")) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                metricsWriter.write(buf, registry.scrape());
                send(ex, 200, metricsWriter.getContentType(), buf.toByteArray());
            } else if (path.startsWith("/api/")) {
                keepOpen = api(ex, path.substring("/api/".length()), params);
            } else {
                StaticResources.Resource r = StaticResources.lookup(path)
                        .orElseThrow(() -> ApiException.notFound("no such path: " + path));
                send(ex, 200, r.contentType(), r.bytes());
            }
        } catch (ApiException e) {
            error(ex, e.status(), e.getMessage());
        } catch (InvalidStateStoreException e) {
            ex.getResponseHeaders().set("Retry-After", "1");
            error(ex, 503, "views not queryable yet (rebalancing or restoring state); retry shortly");
        } catch (IOException e) {
            LOG.debug("client connection failed: {}", e.toString());
        } catch (RuntimeException e) {
            LOG.warn("request {} failed", ex.getRequestURI(), e);
            error(ex, 500, "internal error (" + e.getClass().getSimpleName() + "); see the server log");
        } finally {
            if (!keepOpen) {
                ex.close();
            }
        }
    }

    /** @return true when the exchange was handed to an SSE stream (must stay open) */
    private boolean api(HttpExchange ex, String rest, Map<String, String> params) throws IOException {
        String[] seg = rest.split("/", -1);
        if (seg.length == 1 && seg[0].equals("runs")) {
            Map<String, JsonNode> byId = new java.util.TreeMap<>();
            Set<String> ids = new TreeSet<>(views.runs().keySet());
            ids.addAll(views.statuses().keySet());
            for (String id : ids) {
                byId.put(id, ApiJson.runListItem(id, views));
            }
            for (JsonNode other : fromOtherInstances(ex, "/api/runs")) {
                for (JsonNode run : other) {
                    byId.putIfAbsent(run.path("runId").asText(), run);
                }
            }
            ArrayNode list = json.createArrayNode();
            byId.values().forEach(list::add);
            sendJson(ex, 200, list);
            return false;
        }
        if (seg.length == 1 && seg[0].equals("dead-letters")) {
            Map<String, Long> counts = new java.util.TreeMap<>(views.deadLetterCounts());
            for (JsonNode other : fromOtherInstances(ex, "/api/dead-letters")) {
                other.path("countsBySourceTopic").fields()
                        .forEachRemaining(e -> counts.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            }
            ObjectNode n = json.createObjectNode();
            ObjectNode c = n.putObject("countsBySourceTopic");
            counts.forEach(c::put);
            sendJson(ex, 200, n);
            return false;
        }
        if (seg.length < 2 || seg.length > 3 || !seg[0].equals("runs") || seg[1].isEmpty()) {
            throw ApiException.notFound("no such API path: /api/" + rest);
        }
        String runId = URLDecoder.decode(seg[1], StandardCharsets.UTF_8);
        String sub = seg.length == 3 ? seg[2] : "";
        if (!Set.of("", "summary", "summary.csv", "series", "series.csv", "steady-state", "wa", "phases", "events",
                "result-sets").contains(sub)) {
            throw ApiException.notFound("no such API path: /api/" + rest);
        }
        Optional<String> owner = remoteOwner(ex, runId);
        if (owner.isPresent()) {
            return forward(ex, owner.get());
        }
        if (!views.knows(runId)) {
            throw ApiException.notFound("unknown run '" + runId + "'");
        }
        if (sub.equals("result-sets")) {
            sendJson(ex, 200, ApiJson.resultSets(runId, views));
            return false;
        }
        RunViews views = resultSetViews(runId, params);
        switch (sub) {
            case "" -> sendJson(ex, 200, ApiJson.runDetail(runId, views));
            case "summary" -> sendJson(ex, 200, summaryJson(runId, summaryOr404(views, runId), views));
            case "summary.csv" -> send(ex, 200, "text/csv; charset=utf-8",
                    CsvExport.summary(summaryOr404(views, runId)).getBytes(StandardCharsets.UTF_8));
            case "series" -> sendJson(ex, 200, ApiJson.series(runId, SeriesQuery.parse(params), views));
            case "series.csv" -> send(ex, 200, "text/csv; charset=utf-8",
                    CsvExport.series(SeriesQuery.parse(params), runId, views).getBytes(StandardCharsets.UTF_8));
            case "steady-state" -> {
                ObjectNode n = json.createObjectNode().put("runId", runId);
                ArrayNode a = n.putArray("verdicts");
                views.verdicts(runId).forEach(v -> a.add(AvroJson.record(v)));
                sendJson(ex, 200, n);
            }
            case "wa" -> sendJson(ex, 200, ApiJson.wa(runId, views.waSeries(runId)));
            case "phases" -> sendJson(ex, 200, ApiJson.phases(runId, views));
            case "events" -> {
                return openEvents(ex, runId, SeriesQuery.parse(params), views);
            }
            default -> throw new IllegalStateException("unrouted " + sub);
        }
        return false;
    }

    /**
     * The views to answer from: the run's own, or those of the result set named by ?resultSet= ("live" or absent =
     * the run's own results).
     */
    private RunViews resultSetViews(String runId, Map<String, String> params) {
        String name = params.get("resultSet");
        if (name == null || name.isEmpty() || name.equals(dev.ssdpulse.streams.resultsets.ResultSetNames.LIVE)) {
            return views;
        }
        try {
            dev.ssdpulse.streams.resultsets.ResultSetNames.validate(name);
        } catch (IllegalArgumentException e) {
            throw ApiException.badParameter("resultSet", e.getMessage());
        }
        RunViews aliased = new ResultSetRunViews(views, runId, name);
        if (!aliased.knows(runId)) {
            throw ApiException.notFound("run '" + runId + "' has no result set '" + name + "'");
        }
        return aliased;
    }

    private RunSummary summaryOr404(RunViews views, String runId) {
        return views.summary(runId).orElseThrow(() -> ApiException.notFound("run '" + runId
                + "' has no summary yet (status " + views.status(runId).orElse("UNKNOWN") + ")"));
    }

    private JsonNode summaryJson(String runId, RunSummary s, RunViews views) {
        Optional<RunStarted> run = views.run(runId);
        return SummaryJson.of(s, run.map(r -> ApiJson.deviceText(r.getDevice())).orElse(null),
                run.map(r -> r.getWorkload().getName().toString()).orElse(null));
    }

    private boolean openEvents(HttpExchange ex, String runId, SeriesQuery query, RunViews views) throws IOException {
        if (!sseSlots.tryAcquire()) {
            throw new ApiException(503, "too many live streams (" + config.maxSseClients() + "); retry later");
        }
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        if (ex.getRequestMethod().equals("HEAD")) {
            sseSlots.release();
            ex.sendResponseHeaders(200, -1);
            return false;
        }
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        SseStream stream = new SseStream(runId, query, views, json, out);
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        AtomicInteger ended = new AtomicInteger();
        Runnable end = () -> {
            if (ended.getAndIncrement() == 0) {
                ScheduledFuture<?> f = self.get();
                if (f != null) {
                    f.cancel(false);
                    sseTasks.remove(f);
                }
                sseSlots.release();
                ex.close();
            }
        };
        ScheduledFuture<?> task = ssePool.scheduleWithFixedDelay(() -> {
            try {
                stream.poll();
            } catch (IOException e) {
                end.run();
            } catch (RuntimeException e) {
                LOG.warn("SSE stream of run {} failed", runId, e);
                end.run();
            }
        }, 0, config.ssePollInterval().toMillis(), TimeUnit.MILLISECONDS);
        self.set(task);
        sseTasks.add(task);
        return true;
    }

    /**
     * The answers of the other instances to a list request (each instance lists only the runs it owns). An
     * instance that does not answer is named in the X-Ssdpulse-Missing-Instances header instead of failing
     * the whole list.
     */
    private java.util.List<JsonNode> fromOtherInstances(HttpExchange ex, String path) {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        if (config.advertisedHost() == null || ex.getRequestHeaders().getFirst(FORWARDED_HEADER) != null) {
            return out;
        }
        java.util.List<String> missing = new java.util.ArrayList<>();
        for (String instance : views.instances()) {
            if (instance.equalsIgnoreCase(config.advertisedHost())) {
                continue;
            }
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://" + instance + path))
                    .timeout(Duration.ofSeconds(5)).header(FORWARDED_HEADER, config.advertisedHost());
            String auth = ex.getRequestHeaders().getFirst("Authorization");
            if (auth != null) {
                req.header("Authorization", auth);
            }
            try {
                HttpResponse<byte[]> r = forwardClient.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    out.add(json.readTree(r.body()));
                } else {
                    missing.add(instance);
                }
            } catch (IOException e) {
                missing.add(instance);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                missing.add(instance);
            }
        }
        if (!missing.isEmpty()) {
            ex.getResponseHeaders().set("X-Ssdpulse-Missing-Instances", String.join(",", missing));
        }
        return out;
    }

    /** The owner's host:port when another instance owns the run and this request was not forwarded already. */
    private Optional<String> remoteOwner(HttpExchange ex, String runId) {
        if (config.advertisedHost() == null || ex.getRequestHeaders().getFirst(FORWARDED_HEADER) != null) {
            return Optional.empty();
        }
        return views.ownerOf(runId).filter(owner -> !owner.equalsIgnoreCase(config.advertisedHost()));
    }

    /** Relays the request to the owning instance, streaming its answer back (SSE included). */
    private boolean forward(HttpExchange ex, String owner) throws IOException {
        if (!ex.getRequestURI().getRawPath().endsWith("/events")) {
            return relay(ex, owner);
        }
        if (!forwardedStreamSlots.tryAcquire()) {
            throw new ApiException(503, "too many live streams relayed to other instances; retry later");
        }
        try {
            return relay(ex, owner);
        } finally {
            forwardedStreamSlots.release();
        }
    }

    private boolean relay(HttpExchange ex, String owner) throws IOException {
        URI uri = URI.create("http://" + owner + ex.getRequestURI().getRawPath()
                + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery()));
        HttpRequest.Builder req = HttpRequest.newBuilder(uri).method(ex.getRequestMethod(),
                HttpRequest.BodyPublishers.noBody()).header(FORWARDED_HEADER, config.advertisedHost());
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            req.header("Authorization", auth);
        }
        HttpResponse<InputStream> resp;
        try {
            resp = forwardClient.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new ApiException(502, "the instance owning this run (" + owner + ") is unreachable: "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted while forwarding to " + owner);
        }
        resp.headers().firstValue("Content-Type").ifPresent(t -> ex.getResponseHeaders().set("Content-Type", t));
        ex.getResponseHeaders().set(FORWARDED_HEADER, owner);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(resp.statusCode(), head ? -1 : 0);
        try (InputStream in = resp.body(); OutputStream out = ex.getResponseBody()) {
            byte[] buf = new byte[8192];
            int n;
            while (!head && (n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        }
        return false;
    }

    private void authorize(HttpExchange ex, Map<String, String> params) {
        if (config.bearerToken() == null) {
            return;
        }
        String header = ex.getRequestHeaders().getFirst("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).trim()
                : params.get("access_token");
        if (!bearerToken.matches(given)) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            throw new ApiException(401, given == null ? "authentication required: Authorization: Bearer <token>"
                    : "invalid bearer token");
        }
    }

    private void sendJson(HttpExchange ex, int status, JsonNode body) throws IOException {
        send(ex, status, "application/json; charset=utf-8", json.writeValueAsBytes(body));
    }

    private void error(HttpExchange ex, int status, String message) {
        try {
            ObjectNode n = json.createObjectNode().put("error", message).put("status", status);
            sendJson(ex, status, n);
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not send error {} to client: {}", status, e.toString());
        }
    }

    private static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.getResponseHeaders().set("Content-Length", Integer.toString(body.length));
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
