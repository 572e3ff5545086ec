package dev.ssdpulse.streams.app;

import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the analytics application needs. Build with {@link #defaults} and the {@code with...} methods.
 *
 * @param applicationId     Kafka Streams application id (consumer group, internal topic prefix)
 * @param bootstrapServers  Kafka bootstrap servers
 * @param schemaRegistryUrl Confluent-API schema registry URL
 * @param stateDir          Kafka Streams state directory
 * @param threads           stream threads
 * @param analysisSettings  what the run analysis computes (windows, bins, steady-state criteria), the same
 *                          settings the offline path and replay take
 * @param heartbeatTimeout  a run with no event for this long (wall clock) is marked INCOMPLETE
 * @param guarantee         exactly_once_v2 (default) or at_least_once
 * @param extraProperties   passed to Kafka Streams and its clients verbatim (SASL, TLS, tuning); they win
 */
public record AnalyticsConfig(
        String applicationId,
        String bootstrapServers,
        String schemaRegistryUrl,
        Path stateDir,
        int threads,
        AnalysisSettings analysisSettings,
        Duration heartbeatTimeout,
        Guarantee guarantee,
        Map<String, String> extraProperties) {

    public static final String DEFAULT_APPLICATION_ID = "ssdpulse-analytics";
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(60);

    /**
     * Trade-off: exactly_once_v2 makes every output and state change atomic with the input offsets (a crash
     * never double-counts an I/O batch or re-emits a window), at the cost of transaction commits every
     * commit.interval.ms (500 ms here, Kafka's default 100 ms) and read_committed consumers downstream. at_least_once
     * commits less often and is somewhat faster, but after a crash the batches since the last commit are processed
     * again: duplicate batches are detected by (worker, batchSequence) and skipped, yet windows closed in that span
     * may be emitted twice to the output topics (identical values; consumers keyed by window see no change).
     */
    public enum Guarantee {
        EXACTLY_ONCE_V2("exactly_once_v2"),
        AT_LEAST_ONCE("at_least_once");

        private final String streamsValue;

        Guarantee(String streamsValue) {
            this.streamsValue = streamsValue;
        }

        public String streamsValue() {
            return streamsValue;
        }

        public static Guarantee parse(String text) {
            for (Guarantee g : values()) {
                if (g.streamsValue.equalsIgnoreCase(text.trim()) || g.name().equalsIgnoreCase(text.trim())) {
                    return g;
                }
            }
            throw new IllegalArgumentException(
                    "processing guarantee '" + text + "' is not exactly_once_v2 or at_least_once");
        }
    }

    public AnalyticsConfig {
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(analysisSettings, "analysisSettings");
        Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
        Objects.requireNonNull(guarantee, "guarantee");
        extraProperties = Map.copyOf(extraProperties);
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
        if (heartbeatTimeout.isNegative() || heartbeatTimeout.isZero()) {
            throw new IllegalArgumentException("heartbeatTimeout must be > 0, was " + heartbeatTimeout);
        }
    }

    /** {@link AnalysisSettings#defaults()}, 60-s heartbeat timeout, EOS v2, 1 thread. */
    public static AnalyticsConfig defaults(String bootstrapServers, String schemaRegistryUrl, Path stateDir) {
        return new AnalyticsConfig(
                DEFAULT_APPLICATION_ID,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                1,
                AnalysisSettings.defaults(),
                DEFAULT_HEARTBEAT_TIMEOUT,
                Guarantee.EXACTLY_ONCE_V2,
                Map.of());
    }

    public AnalyticsConfig withApplicationId(String id) {
        return new AnalyticsConfig(
                id,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                threads,
                analysisSettings,
                heartbeatTimeout,
                guarantee,
                extraProperties);
    }

    public AnalyticsConfig withStateDir(Path dir) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                dir,
                threads,
                analysisSettings,
                heartbeatTimeout,
                guarantee,
                extraProperties);
    }

    public AnalyticsConfig withThreads(int n) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                n,
                analysisSettings,
                heartbeatTimeout,
                guarantee,
                extraProperties);
    }

    public AnalyticsConfig withAnalysisSettings(AnalysisSettings settings) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                threads,
                settings,
                heartbeatTimeout,
                guarantee,
                extraProperties);
    }

    public AnalyticsConfig withWindow(long sizeNs, long graceNs) {
        return withAnalysisSettings(analysisSettings.withWindow(sizeNs, graceNs));
    }

    public AnalyticsConfig withSteadyState(long roundNs, List<FioCriterion> criteria) {
        return withAnalysisSettings(analysisSettings.withSteadyState(roundNs, criteria));
    }

    public AnalyticsConfig withLatencyBins(LatencyBins bins) {
        return withAnalysisSettings(analysisSettings.withLatencyBins(bins));
    }

    public AnalyticsConfig withScatter(long thresholdNs, int samplesPerWindow) {
        return withAnalysisSettings(analysisSettings.withScatter(thresholdNs, samplesPerWindow));
    }

    public AnalyticsConfig withHeartbeatTimeout(Duration timeout) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                threads,
                analysisSettings,
                timeout,
                guarantee,
                extraProperties);
    }

    public AnalyticsConfig withGuarantee(Guarantee g) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                threads,
                analysisSettings,
                heartbeatTimeout,
                g,
                extraProperties);
    }

    public AnalyticsConfig withExtraProperties(Map<String, String> extra) {
        return new AnalyticsConfig(
                applicationId,
                bootstrapServers,
                schemaRegistryUrl,
                stateDir,
                threads,
                analysisSettings,
                heartbeatTimeout,
                guarantee,
                extra);
    }
}
