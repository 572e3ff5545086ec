package dev.ssdpulse.platform.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A schema registry speaking Confluent Schema Registry's REST API on 127.0.0.1 (or a chosen address), on the JDK's
 * built-in HTTP server. State lives in a {@link RegistryLog}: normally the compacted `_schemas`
 * topic of a Kafka cluster ({@link #startOnKafka}), so ids and versions survive a restart.
 *
 * <p>Single writer: the instance started last on a `_schemas` topic fences the earlier ones, which then
 * refuse writes with a clear error (reads go on); unlike Confluent's registry there is no leader
 * election and no forwarding of writes between instances ({@link KafkaRegistryLog}).
 */
public final class EmbeddedSchemaRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedSchemaRegistry.class);
    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int HTTP_THREADS = 4;

    private final RegistryLog registryLog;
    private final SchemaRegistry registry;
    private final HttpServer server;
    private final ExecutorService executor;

    /**
     * Replays the log and starts serving.
     *
     * @param port 0 for a free port
     */
    public EmbeddedSchemaRegistry(RegistryLog registryLog, int port) {
        this(registryLog, InetAddress.getLoopbackAddress(), port);
    }

    /**
     * As {@link #EmbeddedSchemaRegistry(RegistryLog, int)} on another address than loopback (0.0.0.0 in a
     * container, where clients come from other hosts).
     */
    public EmbeddedSchemaRegistry(RegistryLog registryLog, InetAddress bindAddress, int port) {
        this.registryLog = registryLog;
        this.registry = new SchemaRegistry(registryLog);
        RegistryApi api = new RegistryApi(registry);
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, port), 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the schema registry to " + bindAddress.getHostAddress() + ":"
                    + port, e);
        }
        AtomicInteger threadCount = new AtomicInteger();
        executor = Executors.newFixedThreadPool(HTTP_THREADS, r -> {
            Thread t = new Thread(r, "ssdpulse-schema-registry-http-" + threadCount.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> serve(api, exchange));
        server.start();
        log.info("Schema registry serving {} (state: {})", url(), registryLog.getClass().getSimpleName());
    }

    /** A registry storing its state in the `_schemas` topic of the given cluster (created if missing). */
    public static EmbeddedSchemaRegistry startOnKafka(String bootstrapServers, int port) {
        return startOnKafka(bootstrapServers, KafkaRegistryLog.DEFAULT_TOPIC, port);
    }

    /** As {@link #startOnKafka(String, int)} with another topic than `_schemas`. */
    public static EmbeddedSchemaRegistry startOnKafka(String bootstrapServers, String topic, int port) {
        return startOnKafka(bootstrapServers, topic, InetAddress.getLoopbackAddress(), port);
    }

    /** As {@link #startOnKafka(String, String, int)}, serving on the given address. */
    public static EmbeddedSchemaRegistry startOnKafka(String bootstrapServers, String topic, InetAddress bindAddress,
                                                      int port) {
        KafkaRegistryLog kafkaLog = new KafkaRegistryLog(bootstrapServers, topic);
        try {
            return new EmbeddedSchemaRegistry(kafkaLog, bindAddress, port);
        } catch (RuntimeException e) {
            kafkaLog.close();
            throw e;
        }
    }

    /** A registry whose state lives only in this process (for tests without a broker). */
    public static EmbeddedSchemaRegistry inMemory() {
        return new EmbeddedSchemaRegistry(new InMemoryRegistryLog(), 0);
    }

    private static void serve(RegistryApi api, HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            RegistryApi.Response response = api.handle(exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(), body);
            byte[] out = JSON.writeValueAsBytes(response.body());
            exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
            exchange.sendResponseHeaders(response.status(), out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        }
    }

    /** "http://127.0.0.1:port" (also when bound to every address: loopback is one of them). */
    public String url() {
        InetAddress bound = server.getAddress().getAddress();
        String host = bound.isAnyLocalAddress() || bound.isLoopbackAddress() ? "127.0.0.1" : bound.getHostAddress();
        return "http://" + host + ":" + server.getAddress().getPort();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The registry behind the HTTP API, for in-process callers. */
    public SchemaRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        registryLog.close();
    }
}
