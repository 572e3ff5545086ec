package dev.ssdpulse.platform.registry;

import dev.ssdpulse.schemas.registry.SchemaRegistryException;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A schema registry speaking Confluent Schema Registry's REST API ({@link RegistryApi}) on 127.0.0.1 (or a chosen
 * address), on Javalin (Jetty). State lives in a {@link RegistryLog}: normally the compacted `_schemas`
 * topic of a Kafka cluster ({@link #startOnKafka}), so ids and versions survive a restart.
 *
 * <p>Single writer: the instance started last on a `_schemas` topic fences the earlier ones, which then
 * refuse writes with a clear error (reads go on); unlike Confluent's registry there is no leader
 * election and no forwarding of writes between instances ({@link KafkaRegistryLog}).
 */
public final class EmbeddedSchemaRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedSchemaRegistry.class);
    private static final int HTTP_THREADS = 4;
    /** Jetty runs its acceptor and selectors (up to 5 on a large machine) on the request pool. */
    private static final int JETTY_OWN_THREADS = 6;
    /** Javalin refuses bodies over 1 MB by default; the JDK server took any size. Ample for any Avro schema. */
    private static final long MAX_REQUEST_BYTES = 20L << 20;

    private final RegistryLog registryLog;
    private final SchemaRegistry registry;
    private final InetAddress bindAddress;
    private final Javalin app;
    private final boolean tls;

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
        this(registryLog, bindAddress, port, Optional.empty());
    }

    /**
     * As {@link #EmbeddedSchemaRegistry(RegistryLog, InetAddress, int)}, with HTTPS and basic auth when
     * {@code security} is given (then there is no plain HTTP listener at all).
     */
    public EmbeddedSchemaRegistry(
            RegistryLog registryLog, InetAddress bindAddress, int port, Optional<RegistrySecurity> security) {
        this.registryLog = registryLog;
        this.tls = security.isPresent();
        this.registry = new SchemaRegistry(registryLog);
        this.bindAddress = bindAddress;
        RegistryApi api = new RegistryApi(registry);
        QueuedThreadPool threads = new QueuedThreadPool(HTTP_THREADS + JETTY_OWN_THREADS, 2);
        threads.setName("ssdpulse-schema-registry-http");
        threads.setDaemon(true);
        app = Javalin.create(c -> {
            c.startup.showJavalinBanner = false;
            c.startup.showOldJavalinVersionWarning = false;
            c.http.compressionStrategy = CompressionStrategy.NONE;
            c.http.maxRequestSize = MAX_REQUEST_BYTES;
            // a 405 for a known path with another method, as Confluent's registry answers
            c.http.prefer405over404 = true;
            c.router.treatMultipleSlashesAsSingleSlash = true;
            c.jetty.host = bindAddress.getHostAddress();
            c.jetty.port = port;
            c.jetty.threadPool = threads;
            // Javalin's LEGACY compliance lets a bad %-escape through to its path decoding, which throws (a 500):
            // Jetty refuses it (400) instead
            c.jetty.modifyHttpConfiguration(http -> http.setUriCompliance(UriCompliance.LEGACY.without(
                    "LEGACY_WITHOUT_BAD_PERCENT", UriCompliance.Violation.BAD_PERCENT_ENCODING)));
            security.ifPresent(s -> {
                c.jetty.addConnector((server, httpConfig) ->
                        httpsConnector(server, httpConfig, s, bindAddress.getHostAddress(), port));
                c.routes.before(ctx -> requireUser(ctx, s));
            });
            api.routes(c.routes);
        });
        try {
            app.start();
        } catch (RuntimeException e) {
            throw new UncheckedIOException(
                    "cannot bind the schema registry to " + bindAddress.getHostAddress() + ":" + port,
                    e.getCause() instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
        log.info(
                "Schema registry serving {} (state: {})",
                url(),
                registryLog.getClass().getSimpleName());
    }

    private static ServerConnector httpsConnector(
            Server server, HttpConfiguration httpConfig, RegistrySecurity s, String host, int port) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(s.keystore().toAbsolutePath().toString());
        ssl.setKeyStorePassword(s.storePassword());
        ssl.setKeyManagerPassword(s.storePassword());
        ssl.setKeyStoreType("PKCS12");
        HttpConfiguration https = new HttpConfiguration(httpConfig);
        SecureRequestCustomizer customizer = new SecureRequestCustomizer();
        // clients reach it by IP address (127.0.0.1), which TLS sends no SNI name for
        customizer.setSniHostCheck(false);
        https.addCustomizer(customizer);
        ServerConnector connector = new ServerConnector(
                server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(https));
        connector.setHost(host);
        connector.setPort(port);
        return connector;
    }

    /** 401 without a known user and password, 403 for a write by a user who may only read; JSON as Confluent's. */
    private static void requireUser(Context ctx, RegistrySecurity s) {
        Optional<String> user = s.authenticate(ctx.header("Authorization"));
        if (user.isEmpty()) {
            ctx.header("WWW-Authenticate", "Basic realm=\"ssdpulse schema registry\"");
            throw new SchemaRegistryException(
                    401,
                    SchemaRegistryException.UNAUTHORIZED,
                    ctx.header("Authorization") == null
                            ? "Unauthorized: this registry requires HTTP basic auth "
                                    + "(basic.auth.credentials.source=USER_INFO, basic.auth.user.info=USER:PASSWORD)"
                            : "Unauthorized: unknown user or wrong password");
        }
        if (RegistrySecurity.isWrite(ctx.method().name(), ctx.path())
                && !s.writers().contains(user.get())) {
            throw new SchemaRegistryException(
                    403,
                    SchemaRegistryException.FORBIDDEN,
                    "Forbidden: user '" + user.get() + "' may read the registry but not "
                            + ctx.method().name() + " " + ctx.path());
        }
    }

    /**
     * A secured registry on a secured cluster: its `_schemas` log is written and read with {@code kafkaSecurity}
     * (a user allowed to), it serves HTTPS with basic auth only.
     */
    public static EmbeddedSchemaRegistry startOnKafka(
            String bootstrapServers, Map<String, Object> kafkaSecurity, int port, RegistrySecurity security) {
        KafkaRegistryLog kafkaLog =
                new KafkaRegistryLog(bootstrapServers, KafkaRegistryLog.DEFAULT_TOPIC, kafkaSecurity);
        try {
            return new EmbeddedSchemaRegistry(kafkaLog, InetAddress.getLoopbackAddress(), port, Optional.of(security));
        } catch (RuntimeException e) {
            kafkaLog.close();
            throw e;
        }
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
    public static EmbeddedSchemaRegistry startOnKafka(
            String bootstrapServers, String topic, InetAddress bindAddress, int port) {
        return startOnKafka(bootstrapServers, topic, bindAddress, port, Map.of());
    }

    /**
     * As {@link #startOnKafka(String, String, InetAddress, int)} on a secured cluster: {@code kafkaSecurity} (SASL,
     * TLS client settings) logs the `_schemas` log's clients in; the HTTP side stays plain and open.
     */
    public static EmbeddedSchemaRegistry startOnKafka(
            String bootstrapServers,
            String topic,
            InetAddress bindAddress,
            int port,
            Map<String, Object> kafkaSecurity) {
        KafkaRegistryLog kafkaLog = new KafkaRegistryLog(bootstrapServers, topic, kafkaSecurity);
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

    /** "http://127.0.0.1:port", or https (also when bound to every address: loopback is one of them). */
    public String url() {
        String host = bindAddress.isAnyLocalAddress() || bindAddress.isLoopbackAddress()
                ? "127.0.0.1"
                : bindAddress.getHostAddress();
        return (tls ? "https://" : "http://") + host + ":" + port();
    }

    public int port() {
        return app.port();
    }

    /** The registry behind the HTTP API, for in-process callers. */
    public SchemaRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        app.stop();
        registryLog.close();
    }
}
