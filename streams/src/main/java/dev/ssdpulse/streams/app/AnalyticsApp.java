package dev.ssdpulse.streams.app;

import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SerdeConfig;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.topology.AnalyticsSerdes;
import dev.ssdpulse.streams.topology.AnalyticsTopology;
import dev.ssdpulse.streams.topology.RegistryUnavailableException;
import dev.ssdpulse.streams.topology.TopologyMode;
import dev.ssdpulse.streams.topology.ViewChanges;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The analytics Kafka Streams application: {@link AnalyticsTopology} with {@link #streamsProperties}.
 * {@code start()} then {@code awaitRunning()}, query through {@link #views()}, {@code close()}.
 */
public final class AnalyticsApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AnalyticsApp.class);
    private final AnalyticsConfig config;
    private final SchemaRegistryClient registry;
    private final KafkaStreams streams;
    private final AnalyticsViews views;
    private final ViewChanges changes = new ViewChanges();

    public AnalyticsApp(AnalyticsConfig config) {
        this(config, TopologyMode.live());
    }

    /** A run-once application ({@link RunReplay}) or the live one. */
    AnalyticsApp(AnalyticsConfig config, TopologyMode mode) {
        this.config = config;
        this.registry = HttpSchemaRegistryClient.fromConfig(registryConfigs(config));
        Topology topology = AnalyticsTopology.build(
                config.applicationId(),
                config.analysisSettings(),
                config.heartbeatTimeout(),
                new AnalyticsSerdes(registry, registryConfigs(config)),
                mode,
                mode.isLive() ? changes : ViewChanges.none());
        this.streams = new KafkaStreams(topology, streamsProperties(config));
        this.streams.setUncaughtExceptionHandler(AnalyticsApp::onUncaughtException);
        this.views = new AnalyticsViews(streams, changes, () -> ioPartitionCount(config));
    }

    /**
     * A schema-registry outage replaces the stream thread (it resumes from the last commit, and retries until the
     * registry answers again) instead of stopping a long-running analytics service; anything else is a bug or a
     * broken environment and stops the client, as Kafka Streams does by default.
     */
    static StreamThreadExceptionResponse onUncaughtException(Throwable error) {
        for (Throwable c = error; c != null; c = c.getCause()) {
            if (c instanceof RegistryUnavailableException) {
                LOG.warn("stream thread stopped by a schema-registry outage; replacing it: {}", c.getMessage());
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            }
        }
        LOG.error("stream thread failed; shutting the analytics down", error);
        return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    }

    /**
     * Kafka Streams properties for a config: application id, bootstrap, state dir, threads, guarantee, and
     * tuning for 512-I/O batch records (lz4, larger producer batches, 8 MB fetches per partition that wait for 512 KiB
     * or 50 ms, a 500-ms commit interval under exactly_once_v2, 10 MB record cache so repeated puts to the series and
     * summary stores merge before the changelog). {@code extraProperties} are applied last.
     */
    public static Properties streamsProperties(AnalyticsConfig config) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.threads());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.guarantee().streamsValue());
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 10L * 1024 * 1024);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 10);
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 256 * 1024);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 2000);
        // a 512-I/O record is ~5-8 KB: the 1 MB default per partition starved the stream thread (measured
        // 0.45 -> 0.77 M I/O/s end to end on the reference machine)
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG), 8 * 1024 * 1024);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_BYTES_CONFIG), 64 * 1024 * 1024);
        // fewer, fuller fetches: at 1-2 M I/O/s the stream thread otherwise fetched a few records at a time, and
        // the broker's per-request work was its largest cost (broker CPU per I/O 346 -> 184 ns, end to end
        // 0.93 -> 1.48 M I/O/s, measured back to back); a slow run waits at most 50 ms for its data
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), 512 * 1024);
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), 50);
        if (config.guarantee() == AnalyticsConfig.Guarantee.EXACTLY_ONCE_V2) {
            // Kafka's exactly-once default is 100 ms; each commit is a producer flush plus a transaction with
            // markers on every changelog and output partition touched. 500 ms halves the commit overhead (broker
            // CPU per I/O -17 %, end to end +11 % measured) and delays results for read_committed consumers by
            // at most 0.5 s; views (interactive queries) are not delayed. Override with commit.interval.ms.
            p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 500);
        }
        // with several instances each keeps a warm copy of another's stores: a takeover restores little, and the
        // API answers for a run from the copy (saying so) while its owner is unreachable or rebalancing; with one
        // instance there is nowhere to place a standby and nothing changes
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(SerdeConfig.SCHEMA_REGISTRY_URL, config.schemaRegistryUrl());
        p.putAll(config.extraProperties());
        return p;
    }

    static Map<String, Object> registryConfigs(AnalyticsConfig config) {
        Map<String, Object> m = new HashMap<>();
        m.put(SerdeConfig.SCHEMA_REGISTRY_URL, config.schemaRegistryUrl());
        for (Map.Entry<String, String> e : config.extraProperties().entrySet()) {
            if (e.getKey().startsWith("schema.registry.") || e.getKey().startsWith("basic.auth.")) {
                m.put(e.getKey(), e.getValue());
            }
        }
        return m;
    }

    /** The partition count of ssdpulse.io.v1 in the cluster; 0 when the cluster does not answer (asked again). */
    private static int ioPartitionCount(AnalyticsConfig config) {
        try (Admin admin = Admin.create(adminProps(config))) {
            return admin.describeTopics(List.of(Topics.IO.name()))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(Topics.IO.name())
                    .partitions()
                    .size();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("partition count of {} not known yet: {}", Topics.IO.name(), e.getMessage());
            return 0;
        }
    }

    /** Admin and replay-reader settings: the bootstrap servers and every security setting, unchanged. */
    static Map<String, Object> adminProps(AnalyticsConfig config) {
        Map<String, Object> m = new HashMap<>();
        m.put("bootstrap.servers", config.bootstrapServers());
        config.extraProperties().forEach((k, v) -> {
            if (k.startsWith("security.") || k.startsWith("sasl.") || k.startsWith("ssl.")) {
                m.put(k, v);
            }
        });
        return m;
    }

    public void start() {
        streams.start();
    }

    /** Waits until the application is RUNNING (all tasks assigned and restored). */
    public void awaitRunning(Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (streams.state() == KafkaStreams.State.ERROR
                    || streams.state() == KafkaStreams.State.NOT_RUNNING
                    || streams.state() == KafkaStreams.State.PENDING_ERROR) {
                throw new IllegalStateException(
                        "analytics application " + config.applicationId() + " is " + streams.state());
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("analytics application " + config.applicationId() + " not RUNNING after "
                        + timeout + " (state " + streams.state() + ")");
            }
            Thread.sleep(50);
        }
    }

    public AnalyticsViews views() {
        return views;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public AnalyticsConfig config() {
        return config;
    }

    @Override
    public void close() {
        // leave the group on a clean close: a restarted instance (or the survivors) get the partitions at once
        // instead of after the session timeout (45 s by default; measured ~40 s lost in AnalyticsOutageIT)
        streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                .withTimeout(Duration.ofSeconds(30)));
        registry.close();
    }
}
