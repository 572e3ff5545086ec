package dev.ssdpulse.schemas.registry;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy in front of a real registry that records every request, so tests see what a client sends on the
 * wire (path encoding, headers, body) and how many calls it makes; an answer can be forced per path to play a
 * failing registry or a proxy's HTML error page, which the real registry never gives.
 */
public final class RecordingProxy implements AutoCloseable {
    /** One received request; path is raw (percent-encoded as sent). */
    public record Request(String method, String path, String contentType, String authorization, String body) {}

    private record Answer(int status, String body) {}

    private final String target;
    private final HttpClient client = HttpClient.newHttpClient();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, Answer> forced = new ConcurrentHashMap<>();
    private final Javalin app;

    public RecordingProxy(String targetUrl) {
        this.target = targetUrl;
        this.app = Javalin.create(c -> {
                    c.startup.showJavalinBanner = false;
                    c.jetty.host = "127.0.0.1";
                    c.jetty.port = 0;
                    for (HandlerType method :
                            List.of(HandlerType.GET, HandlerType.POST, HandlerType.PUT, HandlerType.DELETE)) {
                        c.routes.addHttpHandler(method, "/*", this::relay);
                    }
                })
                .start();
    }

    public String url() {
        return "http://127.0.0.1:" + app.port();
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public int requestCount() {
        return requests.size();
    }

    public void force(String path, int status, String body) {
        forced.put(path, new Answer(status, body));
    }

    private void relay(Context ctx) throws IOException, InterruptedException {
        String body = ctx.body();
        requests.add(new Request(
                ctx.req().getMethod(), ctx.path(), ctx.header("Content-Type"), ctx.header("Authorization"), body));
        Answer answer = forced.get(ctx.path());
        if (answer != null) {
            ctx.status(answer.status()).result(answer.body());
            return;
        }
        String query = ctx.queryString();
        HttpRequest.Builder req = HttpRequest.newBuilder(
                        URI.create(target + ctx.path() + (query == null ? "" : "?" + query)))
                .method(ctx.req().getMethod(), HttpRequest.BodyPublishers.ofString(body));
        if (ctx.header("Content-Type") != null) {
            req.header("Content-Type", ctx.header("Content-Type"));
        }
        HttpResponse<byte[]> resp = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
        ctx.status(resp.statusCode());
        resp.headers().firstValue("Content-Type").ifPresent(ctx::contentType);
        ctx.result(resp.body());
    }

    @Override
    public void close() {
        app.stop();
    }
}
