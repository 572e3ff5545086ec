package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.group.GroupAnalysis;
import dev.ssdpulse.streams.http.metrics.PrometheusTextMerge;
import dev.ssdpulse.streams.http.metrics.RunMetricsCollector;
import dev.ssdpulse.streams.report.AvroJson;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.views.RunViews;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read-only HTTP API, Prometheus /metrics and the dashboard of one analytics instance, on Javalin (Jetty).
 * Endpoints: streams/src/main/resources/dashboard/API.md (also served at /API.md); {@link #routes} must match
 * its table (HttpApiRoutesTest).
 *
 * <p>Threads: requests run on a pool of 8 (plus Jetty's own acceptor and selector threads); SSE streams are
 * polled by a 2-thread scheduler and hold no request thread (async), so slow or many live clients never block
 * other requests.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    /** Set on forwarded requests so a stale owner never bounces a request back (one hop at most). */
    static final String FORWARDED_HEADER = "X-Ssdpulse-Forwarded-By";
    /** Set on answers from a standby replica of the run's views (the owner could not answer). */
    static final String SERVED_FROM_HEADER = "X-Ssdpulse-Served-From";
    /** The views a request is answered from, when not this instance's active ones. */
    private static final String VIEWS_ATTRIBUTE = "ssdpulse.views";

    private static final int REQUEST_THREADS = 8;
    /** Jetty runs its acceptor and selectors (up to 5 on a large machine) on the request pool. */
    private static final int JETTY_OWN_THREADS = 6;

    private static final String JSON_TYPE = "application/json; charset=utf-8";
    private static final String CSV_TYPE = "text/csv; charset=utf-8";
    private static final Pattern BAD_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");

    private final RunViews views;
    private final HttpApiConfig config;
    private final ObjectMapper json = new ObjectMapper();
    private final ScheduledExecutorService ssePool;
    private final Semaphore sseSlots;
    /** A forwarded SSE stream holds a request thread while it relays: at most half of them may. */
    private final Semaphore forwardedStreamSlots = new Semaphore(REQUEST_THREADS / 2);
    /** Completed when a stream ends (client gone, or close()); Javalin then finishes the async request. */
    private final Set<CompletableFuture<Void>> openStreams = ConcurrentHashMap.newKeySet();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter metricsWriter = PrometheusTextFormatWriter.create();
    private final HttpClient forwardClient;
    /** Null when no token is configured. */
    private final BearerToken bearerToken;

    private final Javalin app;

    /** Binds and starts serving. */
    public HttpApiServer(RunViews views, HttpApiConfig config) throws IOException {
        this.views = views;
        this.config = config;
        this.sseSlots = new Semaphore(config.maxSseClients());
        this.bearerToken = config.bearerToken() == null ? null : new BearerToken(config.bearerToken());
        this.registry.register(new RunMetricsCollector(views));
        this.ssePool = Executors.newScheduledThreadPool(2, daemonThreads("ssdpulse-sse-"));
        this.forwardClient =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        QueuedThreadPool requestPool = new QueuedThreadPool(REQUEST_THREADS + JETTY_OWN_THREADS, 2);
        requestPool.setName("ssdpulse-http");
        requestPool.setDaemon(true);
        this.app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.showOldJavalinVersionWarning = false;
            // responses were never compressed; SSE and relayed streams must reach the client as written
            c.http.compressionStrategy = CompressionStrategy.NONE;
            c.jetty.host = config.bindAddress();
            c.jetty.port = config.port();
            c.jetty.threadPool = requestPool;
            c.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
            routes(c.routes);
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            ssePool.shutdownNow();
            throw new IOException(
                    "cannot serve HTTP on " + config.bindAddress() + ":" + config.port() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Serves an analytics application's views. The advertised host (for routing) is the config's, else the
     * application's {@code application.server} property, which must then be this server's host:port.
     */
    public static HttpApiServer start(AnalyticsApp app, HttpApiConfig config) throws IOException {
        String advertised = config.advertisedHost() != null
                ? config.advertisedHost()
                : app.config().extraProperties().get("application.server");
        return new HttpApiServer(app.views(), config.withAdvertisedHost(advertised));
    }

    /** The whole API: every route, its guards and its error answers. */
    private void routes(RoutesConfig r) {
        r.before(this::readOnlyAndAuthorized);
        get(r, "/api/runs", this::runList);
        get(r, "/api/dead-letters", this::deadLetters);
        get(r, "/api/runs/{id}", run((ctx, id) -> sendJson(ctx, ApiJson.runDetail(id, viewsOf(ctx, id)))));
        get(r, "/api/runs/{id}/summary", run((ctx, id) -> {
            RunViews v = viewsOf(ctx, id);
            sendJson(ctx, summaryJson(id, summaryOr404(v, id), v));
        }));
        get(
                r,
                "/api/runs/{id}/summary.csv",
                run((ctx, id) -> send(
                        ctx,
                        CSV_TYPE,
                        CsvExport.summary(summaryOr404(viewsOf(ctx, id), id)).getBytes(StandardCharsets.UTF_8))));
        get(
                r,
                "/api/runs/{id}/series",
                run((ctx, id) -> sendJson(ctx, ApiJson.series(id, SeriesQuery.parse(params(ctx)), viewsOf(ctx, id)))));
        get(
                r,
                "/api/runs/{id}/series.csv",
                run((ctx, id) -> send(
                        ctx,
                        CSV_TYPE,
                        CsvExport.series(SeriesQuery.parse(params(ctx)), id, viewsOf(ctx, id))
                                .getBytes(StandardCharsets.UTF_8))));
        get(r, "/api/runs/{id}/scatter", run((ctx, id) -> {
            SeriesQuery q = SeriesQuery.parse(params(ctx));
            ScatterExport.Format format = ScatterExport.Format.parse(ctx.queryParam("format"));
            int opMask = q.ops().stream().mapToInt(op -> 1 << op).reduce(0, (a, b) -> a | b);
            byte[] body = ScatterExport.encode(id, viewsOf(ctx, id).scatter(id, q.fromNs(), q.toNs()), opMask, format);
            send(ctx, format == ScatterExport.Format.BINARY ? ScatterExport.BINARY_TYPE : JSON_TYPE, body);
        }));
        get(r, "/api/runs/{id}/steady-state", run((ctx, id) -> {
            ObjectNode n = json.createObjectNode().put("runId", id);
            ArrayNode a = n.putArray("verdicts");
            viewsOf(ctx, id).verdicts(id).forEach(v -> a.add(AvroJson.record(v)));
            sendJson(ctx, n);
        }));
        get(
                r,
                "/api/runs/{id}/wa",
                run((ctx, id) -> sendJson(ctx, ApiJson.wa(id, viewsOf(ctx, id).waSeries(id)))));
        get(r, "/api/runs/{id}/phases", run((ctx, id) -> sendJson(ctx, ApiJson.phases(id, viewsOf(ctx, id)))));
        get(r, "/api/runs/{id}/verification", run((ctx, id) -> {
            RunViews views = viewsOf(ctx, id);
            Optional<WriteVerification> verification = views.verification(id);
            if (verification.isPresent()) {
                sendJson(ctx, AvroJson.record(verification.get()));
            } else if (views.run(id).isPresent()) {
                // most runs never have one: no content, not an error a browser logs on every run page
                ctx.status(204);
            } else {
                throw new ApiException(404, "no run " + id);
            }
        }));
        get(
                r,
                "/api/runs/{id}/events",
                run((ctx, id) -> openEvents(ctx, id, SeriesQuery.parse(params(ctx)), viewsOf(ctx, id))));
        get(r, "/api/runs/{id}/result-sets", run((ctx, id) -> sendJson(ctx, ApiJson.resultSets(id, views))));
        get(r, "/api/groups", this::groupList);
        get(r, "/api/groups/{name}", ctx -> {
            String name = ctx.pathParam("name");
            String groupId = GroupAnalysis.idOf(name);
            Optional<String> owner = remoteOwner(ctx, groupId);
            if (owner.isPresent()) {
                try {
                    forward(ctx, owner.get());
                    return;
                } catch (OwnerUnreachableException e) {
                    throw new ApiException(502, e.getMessage());
                }
            }
            RunGroup group = views.group(groupId).orElseThrow(() -> unknown(groupId, "group '" + name + "'"));
            sendJson(ctx, ApiJson.group(group));
        });
        get(r, "/metrics", ctx -> {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            metricsWriter.write(buf, registry.scrape());
            String scope = ctx.queryParam("scope");
            if (scope == null || scope.equals("instance")) {
                send(ctx, metricsWriter.getContentType(), buf.toByteArray());
            } else if (scope.equals("cluster")) {
                // every run's gauges in one scrape (one target for every instance's runs); the instance's own
                // families (JVM, Streams, dead letters) stay this instance's
                String merged = PrometheusTextMerge.merge(
                        buf.toString(StandardCharsets.UTF_8),
                        otherInstancesBodies(ctx, "/metrics").stream()
                                .map(b -> new String(b, StandardCharsets.UTF_8))
                                .toList(),
                        name -> name.startsWith("ssdpulse_run_"));
                send(ctx, metricsWriter.getContentType(), merged.getBytes(StandardCharsets.UTF_8));
            } else {
                throw new ApiException(400, "parameter 'scope': '" + scope + "' is not one of instance, cluster");
            }
        });
        get(r, "/", ctx -> staticFile(ctx, "/"));
        get(r, "/{file}", ctx -> staticFile(ctx, ctx.path()));

        r.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
        r.exception(InvalidStateStoreException.class, (e, ctx) -> {
            ctx.header("Retry-After", "1");
            error(ctx, 503, "views not queryable yet (rebalancing or restoring state); retry shortly");
        });
        // Javalin's own answers (no route for the path): same JSON body as ours
        r.exception(
                HttpResponseException.class,
                (e, ctx) -> error(ctx, e.getStatus(), e.getStatus() == 404 ? noSuchPath(ctx.path()) : e.getMessage()));
        r.exception(Exception.class, (e, ctx) -> {
            LOG.warn("request {} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal error (" + e.getClass().getSimpleName() + "); see the server log");
        });
    }

    /** For tests that read the routes (HttpApiRoutesTest). */
    Javalin javalin() {
        return app;
    }

    /** HEAD runs the GET handler (Jetty drops the body): Javalin alone would answer 200 without running it. */
    private static void get(RoutesConfig r, String path, Handler handler) {
        r.get(path, handler);
        r.addHttpHandler(HandlerType.HEAD, path, handler);
    }

    private interface RunEndpoint {
        void answer(Context ctx, String runId) throws Exception;
    }

    /**
     * A per-run endpoint: forwarded to the run's owner when another instance owns it, 404 for unknown runs. When the
     * owner cannot answer (unreachable, or this instance's stores are rebalancing) and this instance keeps a
     * standby replica of the run, the replica answers, and the {@value #SERVED_FROM_HEADER} header says so.
     */
    private Handler run(RunEndpoint endpoint) {
        return ctx -> {
            String runId = ctx.pathParam("id");
            Optional<String> owner = remoteOwner(ctx, runId);
            if (owner.isPresent()) {
                try {
                    forward(ctx, owner.get());
                } catch (OwnerUnreachableException e) {
                    answerFromStandby(
                            ctx,
                            runId,
                            endpoint,
                            "the owner " + owner.get() + " is unreachable",
                            new ApiException(502, e.getMessage()));
                }
                return;
            }
            try {
                answer(ctx, runId, endpoint, views);
            } catch (InvalidStateStoreException e) {
                answerFromStandby(ctx, runId, endpoint, "the owner's stores are rebalancing or restoring", e);
            }
        };
    }

    private void answer(Context ctx, String runId, RunEndpoint endpoint, RunViews from) throws Exception {
        if (!from.knows(runId)) {
            throw unknown(runId, "run '" + runId + "'");
        }
        endpoint.answer(ctx, runId);
    }

    /**
     * What this instance answers for a run or group it does not have: where another instance of the application owns
     * it and this one cannot forward (no application.server), the setting to add, not a plain "unknown".
     */
    private ApiException unknown(String key, String what) {
        if (views.ownedElsewhere(key)) {
            String why = config.advertisedHost() == null
                    ? "this instance has no address for the others (application.server), so it cannot forward"
                    : "the instance owning it gave no address (application.server), so it cannot be forwarded to";
            return new ApiException(
                    502,
                    what + " belongs to another instance of this analytics application, and " + why + ": start"
                            + " every instance with -X application.server=HOST:PORT, the address of its own HTTP API"
                            + " that the others reach (ssdpulse streams derives it when --http-bind is an address of"
                            + " its own, such as the default 127.0.0.1)");
        }
        return ApiException.notFound("unknown " + what);
    }

    private void answerFromStandby(
            Context ctx, String runId, RunEndpoint endpoint, String why, RuntimeException otherwise) throws Exception {
        Optional<RunViews> standby = config.advertisedHost() == null
                ? Optional.empty()
                : views.standbyReplicaOf(runId, config.advertisedHost());
        if (standby.isEmpty()) {
            throw otherwise;
        }
        ctx.attribute(VIEWS_ATTRIBUTE, standby.get());
        ctx.header(
                SERVED_FROM_HEADER,
                "standby replica on " + config.advertisedHost() + " (" + why
                        + "): may lag the owner by what it processed since its last commit");
        answer(ctx, runId, endpoint, standby.get());
    }

    /** The owning instance did not answer at all (no connection): nothing of the response was written. */
    private static final class OwnerUnreachableException extends RuntimeException {
        OwnerUnreachableException(String message) {
            super(message);
        }
    }

    /** http://host:port/ of the bound socket (port resolved when 0 was asked). */
    public URI url() {
        String host =
                config.bindAddress().equals("0.0.0.0") || config.bindAddress().equals("::")
                        ? "127.0.0.1"
                        : config.bindAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/");
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        List.copyOf(openStreams).forEach(f -> f.complete(null));
        ssePool.shutdownNow();
        app.stop();
    }

    /**
     * Runs before every request, routed or not: the API is read-only, the path must decode and /api/*, /metrics
     * need the token.
     */
    private void readOnlyAndAuthorized(Context ctx) {
        String method = ctx.req().getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            ctx.header("Allow", "GET, HEAD");
            throw new ApiException(405, "method " + method + " not allowed: the API is read-only (GET, HEAD)");
        }
        if (BAD_ESCAPE.matcher(ctx.path()).find()) {
            // Jetty passes it on (in a ;parameter) and Javalin's path-parameter decoding would throw: a 500
            throw new ApiException(400, "malformed request: a '%' in the path starts no %XX escape");
        }
        ctx.header("X-Content-Type-Options", "nosniff");
        String path = ctx.path();
        if (bearerToken == null || !(path.startsWith("/api/") || path.equals("/api") || path.equals("/metrics"))) {
            return;
        }
        String header = ctx.header("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? header.substring(7).trim()
                : ctx.queryParam("access_token");
        if (!bearerToken.matches(given)) {
            ctx.header("WWW-Authenticate", "Bearer");
            throw new ApiException(
                    401,
                    given == null ? "authentication required: Authorization: Bearer <token>" : "invalid bearer token");
        }
    }

    private static String noSuchPath(String path) {
        return (path.startsWith("/api/") ? "no such API path: " : "no such path: ") + path;
    }

    private void runList(Context ctx) throws IOException {
        Map<String, JsonNode> byId = new TreeMap<>();
        Set<String> ids = new TreeSet<>(views.runs().keySet());
        ids.addAll(views.statuses().keySet());
        ids.removeIf(GroupAnalysis::isGroupId); // listed by /api/groups
        for (String id : ids) {
            byId.put(id, ApiJson.runListItem(id, views));
        }
        for (JsonNode other : fromOtherInstances(ctx, "/api/runs")) {
            for (JsonNode run : other) {
                byId.putIfAbsent(run.path("runId").asText(), run);
            }
        }
        ArrayNode list = json.createArrayNode();
        byId.values().forEach(list::add);
        sendJson(ctx, list);
    }

    private void groupList(Context ctx) throws IOException {
        Map<String, JsonNode> byId = new TreeMap<>();
        views.groups().forEach((id, group) -> byId.put(id, ApiJson.group(group)));
        for (JsonNode other : fromOtherInstances(ctx, "/api/groups")) {
            for (JsonNode group : other) {
                byId.putIfAbsent(group.path("groupId").asText(), group);
            }
        }
        ArrayNode list = json.createArrayNode();
        byId.values().forEach(list::add);
        sendJson(ctx, list);
    }

    private void deadLetters(Context ctx) throws IOException {
        Map<String, Long> counts = new TreeMap<>(views.deadLetterCounts());
        for (JsonNode other : fromOtherInstances(ctx, "/api/dead-letters")) {
            other.path("countsBySourceTopic")
                    .fields()
                    .forEachRemaining(e -> counts.merge(e.getKey(), e.getValue().asLong(), Long::sum));
        }
        ObjectNode n = json.createObjectNode();
        ObjectNode c = n.putObject("countsBySourceTopic");
        counts.forEach(c::put);
        sendJson(ctx, n);
    }

    private static void staticFile(Context ctx, String path) throws IOException {
        StaticResources.Resource r =
                StaticResources.lookup(path).orElseThrow(() -> ApiException.notFound(noSuchPath(path)));
        send(ctx, r.contentType(), r.bytes());
    }

    /** The query's parameters; one given twice keeps its first value. */
    private static Map<String, String> params(Context ctx) {
        Map<String, String> out = new LinkedHashMap<>();
        ctx.queryParamMap().forEach((k, v) -> {
            if (!v.isEmpty()) {
                out.put(k, v.get(0));
            }
        });
        return out;
    }

    /**
     * The views to answer from: the run's own, or those of the result set named by ?resultSet= ("live" or absent =
     * the run's own results).
     */
    private RunViews viewsOf(Context ctx, String runId) {
        RunViews standby = ctx.attribute(VIEWS_ATTRIBUTE);
        RunViews views = standby != null ? standby : this.views;
        String name = ctx.queryParam("resultSet");
        if (name == null || name.isEmpty() || name.equals(ResultSetNames.LIVE)) {
            return views;
        }
        try {
            ResultSetNames.validate(name);
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
        return views.summary(runId)
                .orElseThrow(() -> ApiException.notFound("run '" + runId + "' has no summary yet (status "
                        + views.status(runId).orElse("UNKNOWN") + ")"));
    }

    private JsonNode summaryJson(String runId, RunSummary s, RunViews views) {
        Optional<RunStarted> run = views.run(runId);
        return SummaryJson.of(
                s,
                run.map(r -> ApiJson.deviceText(r.getDevice())).orElse(null),
                run.map(r -> r.getWorkload().getName().toString()).orElse(null));
    }

    /**
     * Javalin's own SSE handler is not used: it answers nothing unless the client sends "Accept:
     * text/event-stream" and cannot be polled from our scheduler. This is its async pattern: the request thread
     * returns at once, the stream ends when the scheduler completes the future.
     */
    private void openEvents(Context ctx, String runId, SeriesQuery query, RunViews views) throws IOException {
        if (!sseSlots.tryAcquire()) {
            throw new ApiException(503, "too many live streams (" + config.maxSseClients() + "); retry later");
        }
        ctx.status(200);
        ctx.res().setContentType("text/event-stream; charset=utf-8");
        ctx.header("Cache-Control", "no-cache");
        if (ctx.method() == HandlerType.HEAD) {
            sseSlots.release();
            return;
        }
        OutputStream out = ctx.res().getOutputStream();
        ctx.res().flushBuffer();
        CompletableFuture<Void> done = new CompletableFuture<>();
        openStreams.add(done);
        done.whenComplete((ok, failed) -> {
            openStreams.remove(done);
            sseSlots.release();
        });
        ctx.future(() -> {
            SseStream stream = new SseStream(runId, query, views, json, out);
            Runnable poll = () -> {
                try {
                    stream.poll();
                } catch (IOException e) {
                    done.complete(null);
                } catch (RuntimeException e) {
                    LOG.warn("SSE stream of run {} failed", runId, e);
                    done.complete(null);
                }
            };
            // a change the analytics announce is sent at once (one poll at a time, later ones coalesced); the
            // interval's poll catches what is not announced (a standby replica's views)
            AtomicBoolean pushPending = new AtomicBoolean();
            AutoCloseable listening = views.onChange(runId, () -> {
                if (pushPending.compareAndSet(false, true)) {
                    try {
                        ssePool.execute(() -> {
                            pushPending.set(false);
                            poll.run();
                        });
                    } catch (RejectedExecutionException e) {
                        pushPending.set(false); // shutting down
                    }
                }
            });
            ScheduledFuture<?> task = ssePool.scheduleWithFixedDelay(
                    poll, 0, config.ssePollInterval().toMillis(), TimeUnit.MILLISECONDS);
            return done.whenComplete((ok, failed) -> {
                task.cancel(false);
                try {
                    listening.close();
                } catch (Exception e) {
                    LOG.debug("closing the change listener of run {}: {}", runId, e.toString());
                }
            });
        });
    }

    /**
     * The answers of the other instances to a list request (each instance lists only the runs it owns). An
     * instance that does not answer is named in the X-Ssdpulse-Missing-Instances header instead of failing
     * the whole list.
     */
    private List<JsonNode> fromOtherInstances(Context ctx, String path) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (byte[] body : otherInstancesBodies(ctx, path)) {
            out.add(json.readTree(body));
        }
        return out;
    }

    /** {@link #fromOtherInstances} as the bodies the instances sent. */
    private List<byte[]> otherInstancesBodies(Context ctx, String path) {
        List<byte[]> out = new ArrayList<>();
        if (config.advertisedHost() == null || ctx.header(FORWARDED_HEADER) != null) {
            return out;
        }
        List<String> missing = new ArrayList<>();
        for (String instance : views.instances()) {
            if (instance.equalsIgnoreCase(config.advertisedHost())) {
                continue;
            }
            HttpRequest req = forwarded(ctx, URI.create("http://" + instance + path))
                    .timeout(Duration.ofSeconds(5))
                    .build();
            try {
                HttpResponse<byte[]> r = forwardClient.send(req, HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    out.add(r.body());
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
            ctx.header("X-Ssdpulse-Missing-Instances", String.join(",", missing));
        }
        return out;
    }

    /** The owner's host:port when another instance owns the run and this request was not forwarded already. */
    private Optional<String> remoteOwner(Context ctx, String runId) {
        if (config.advertisedHost() == null || ctx.header(FORWARDED_HEADER) != null) {
            return Optional.empty();
        }
        return views.ownerOf(runId).filter(owner -> !owner.equalsIgnoreCase(config.advertisedHost()));
    }

    /** Relays the request to the owning instance, streaming its answer back (SSE included). */
    private void forward(Context ctx, String owner) throws IOException {
        if (!ctx.path().endsWith("/events")) {
            relay(ctx, owner);
            return;
        }
        if (!forwardedStreamSlots.tryAcquire()) {
            throw new ApiException(503, "too many live streams relayed to other instances; retry later");
        }
        try {
            relay(ctx, owner);
        } finally {
            forwardedStreamSlots.release();
        }
    }

    private void relay(Context ctx, String owner) throws IOException {
        String query = ctx.queryString();
        URI uri = URI.create("http://" + owner + ctx.path() + (query == null ? "" : "?" + query));
        HttpRequest req = forwarded(ctx, uri)
                .method(ctx.req().getMethod(), HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<InputStream> resp;
        try {
            resp = forwardClient.send(req, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new OwnerUnreachableException(
                    "the instance owning this run (" + owner + ") is unreachable: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted while forwarding to " + owner);
        }
        ctx.status(resp.statusCode());
        resp.headers().firstValue("Content-Type").ifPresent(t -> ctx.res().setContentType(t));
        ctx.header(FORWARDED_HEADER, owner);
        try (InputStream in = resp.body()) {
            OutputStream out = ctx.res().getOutputStream();
            ctx.res().flushBuffer();
            byte[] buf = new byte[8192];
            int n;
            while (ctx.method() != HandlerType.HEAD && (n = in.read(buf)) >= 0) {
                out.write(buf, 0, n);
                out.flush();
            }
        }
    }

    /** A request to another instance on behalf of this one: marked forwarded, with the client's credentials. */
    private HttpRequest.Builder forwarded(Context ctx, URI uri) {
        HttpRequest.Builder req = HttpRequest.newBuilder(uri).header(FORWARDED_HEADER, config.advertisedHost());
        Optional.ofNullable(ctx.header("Authorization")).ifPresent(auth -> req.header("Authorization", auth));
        return req;
    }

    private void sendJson(Context ctx, JsonNode body) throws IOException {
        send(ctx, JSON_TYPE, json.writeValueAsBytes(body));
    }

    private void error(Context ctx, int status, String message) {
        ObjectNode n = json.createObjectNode().put("error", message).put("status", status);
        ctx.status(status);
        try {
            sendJson(ctx, n);
        } catch (IOException | RuntimeException e) {
            LOG.debug("could not send error {} to client: {}", status, e.toString());
        }
    }

    private static void send(Context ctx, String contentType, byte[] body) throws IOException {
        ctx.res().setContentType(contentType);
        ctx.res().setContentLength(body.length);
        ctx.result(body);
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
