package dev.ssdpulse.streams.app;

import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the analytics application needs. Build with {@link #defaults} and the {@code with...} methods.
 *
 * @param applicationId        Kafka Streams application id (consumer group, internal topic prefix)
 * @param bootstrapServers     Kafka bootstrap servers
 * @param schemaRegistryUrl    Confluent-API schema registry URL
 * @param stateDir             Kafka Streams state directory
 * @param threads              stream threads
 * @param windowSizeNs         window length, ns (default 1 s)
 * @param graceNs              how late (behind the run's latest completion) an I/O may arrive and still count in
 *                             its window, ns
 * @param sniaRoundNs          SNIA PTS round length, ns (a multiple of the window size; default 60 s)
 * @param fioCriteria          fio-style steady-state criteria evaluated for every TEST phase and op
 * @param heartbeatTimeout     a run with no event for this long (wall clock) is marked INCOMPLETE
 * @param guarantee            exactly_once_v2 (default) or at_least_once
 * @param latencyEveryWindows  a live whole-run RunLatency is emitted every this many closed windows of a run
 * @param extraProperties      passed to Kafka Streams and its clients verbatim (SASL, TLS, tuning); they win
 * @param latencyBins          fixed latency bins of every histogram output (IOMeter's by default)
 * @param scatterThresholdNs   the latency scatter keeps every I/O at or above this latency, ns (default 10 ms)
 * @param scatterSamplesPerWindow the latency scatter's uniform sample of the other I/Os, per window (default 200)
 */
public record AnalyticsConfig(String applicationId, String bootstrapServers, String schemaRegistryUrl, Path stateDir,
                              int threads, long windowSizeNs, long graceNs, long sniaRoundNs,
                              List<FioCriterion> fioCriteria, Duration heartbeatTimeout, Guarantee guarantee,
                              int latencyEveryWindows, Map<String, String> extraProperties,
                              LatencyBins latencyBins, long scatterThresholdNs, int scatterSamplesPerWindow) {

    public static final String DEFAULT_APPLICATION_ID = "ssdpulse-analytics";
    public static final long DEFAULT_GRACE_NS = AnalysisSettings.DEFAULT_GRACE_NS;
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_LATENCY_EVERY_WINDOWS = AnalysisSettings.DEFAULT_LATENCY_EVERY_WINDOWS;
    /** fio's documentation example: IOPS slope within 0.3 % of the mean over 60 s. */
    public static final List<FioCriterion> DEFAULT_FIO_CRITERIA = AnalysisSettings.DEFAULT_FIO_CRITERIA;

    /**
     * Trade-off: exactly_once_v2 makes every output and state change atomic with the input offsets (a crash
     * never double-counts an I/O batch or re-emits a window), at the cost of transaction commits every
     * commit.interval.ms (500 ms here, Kafka's default 100 ms) and read_committed consumers downstream. at_least_once commits less often
     * and is somewhat faster, but after a crash the batches since the last commit are processed again:
     * duplicate batches are detected by (worker, batchSequence) and skipped, yet windows closed in that span
     * may be emitted twice to the output topics (identical values; consumers keyed by window see no change).
     */
    public enum Guarantee {
        EXACTLY_ONCE_V2("exactly_once_v2"), AT_LEAST_ONCE("at_least_once");

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
            throw new IllegalArgumentException("processing guarantee '" + text
                    + "' is not exactly_once_v2 or at_least_once");
        }
    }

    /** IOMeter's latency bins. */
    public AnalyticsConfig(String applicationId, String bootstrapServers, String schemaRegistryUrl, Path stateDir,
                           int threads, long windowSizeNs, long graceNs, long sniaRoundNs,
                           List<FioCriterion> fioCriteria, Duration heartbeatTimeout, Guarantee guarantee,
                           int latencyEveryWindows, Map<String, String> extraProperties) {
        this(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads, windowSizeNs, graceNs, sniaRoundNs,
                fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, LatencyBins.iometer());
    }

    /** The default latency scatter (10 ms, 200 samples per window). */
    public AnalyticsConfig(String applicationId, String bootstrapServers, String schemaRegistryUrl, Path stateDir,
                           int threads, long windowSizeNs, long graceNs, long sniaRoundNs,
                           List<FioCriterion> fioCriteria, Duration heartbeatTimeout, Guarantee guarantee,
                           int latencyEveryWindows, Map<String, String> extraProperties, LatencyBins latencyBins) {
        this(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads, windowSizeNs, graceNs, sniaRoundNs,
                fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, latencyBins,
                LatencyScatterSampler.DEFAULT_THRESHOLD_NS, LatencyScatterSampler.DEFAULT_SAMPLES_PER_WINDOW);
    }

    public AnalyticsConfig {
        Objects.requireNonNull(latencyBins, "latencyBins");
        Objects.requireNonNull(applicationId, "applicationId");
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(schemaRegistryUrl, "schemaRegistryUrl");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
        Objects.requireNonNull(guarantee, "guarantee");
        fioCriteria = List.copyOf(fioCriteria);
        extraProperties = Map.copyOf(extraProperties);
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
        if (heartbeatTimeout.isNegative() || heartbeatTimeout.isZero()) {
            throw new IllegalArgumentException("heartbeatTimeout must be > 0, was " + heartbeatTimeout);
        }
        // validates the analysis fields (the record's fields are not assigned yet: the parameters are used)
        new AnalysisSettings(windowSizeNs, graceNs, latencyBins, sniaRoundNs, fioCriteria, latencyEveryWindows,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    /** 1-s windows, 2-s grace, 60-s SNIA rounds, fio iops_slope:0.3%:60, 60-s heartbeat timeout, EOS v2, 1 thread. */
    public static AnalyticsConfig defaults(String bootstrapServers, String schemaRegistryUrl, Path stateDir) {
        return new AnalyticsConfig(DEFAULT_APPLICATION_ID, bootstrapServers, schemaRegistryUrl, stateDir, 1,
                RunWindowAggregator.DEFAULT_WINDOW_SIZE_NS, DEFAULT_GRACE_NS, SniaSteadyStateDetector.DEFAULT_ROUND_NS,
                DEFAULT_FIO_CRITERIA, DEFAULT_HEARTBEAT_TIMEOUT, Guarantee.EXACTLY_ONCE_V2,
                DEFAULT_LATENCY_EVERY_WINDOWS, Map.of());
    }

    public AnalyticsConfig withApplicationId(String id) {
        return new AnalyticsConfig(id, bootstrapServers, schemaRegistryUrl, stateDir, threads, windowSizeNs, graceNs,
                sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withStateDir(Path dir) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, dir, threads, windowSizeNs,
                graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withThreads(int n) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, n, windowSizeNs,
                graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withWindow(long sizeNs, long grace) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads, sizeNs,
                grace, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows, extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withSteadyState(long roundNs, List<FioCriterion> criteria) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, roundNs, criteria, heartbeatTimeout, guarantee, latencyEveryWindows,
                extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withHeartbeatTimeout(Duration timeout) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, sniaRoundNs, fioCriteria, timeout, guarantee, latencyEveryWindows,
                extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withGuarantee(Guarantee g) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, g, latencyEveryWindows,
                extraProperties, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withExtraProperties(Map<String, String> extra) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows,
                extra, latencyBins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withLatencyBins(LatencyBins bins) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows,
                extraProperties, bins,
                scatterThresholdNs, scatterSamplesPerWindow);
    }

    public AnalyticsConfig withScatter(long thresholdNs, int samplesPerWindow) {
        return new AnalyticsConfig(applicationId, bootstrapServers, schemaRegistryUrl, stateDir, threads,
                windowSizeNs, graceNs, sniaRoundNs, fioCriteria, heartbeatTimeout, guarantee, latencyEveryWindows,
                extraProperties, latencyBins, thresholdNs, samplesPerWindow);
    }

    /** What the run analysis computes, from this configuration. */
    public AnalysisSettings analysisSettings() {
        return new AnalysisSettings(windowSizeNs, graceNs, latencyBins, sniaRoundNs, fioCriteria, latencyEveryWindows,
                scatterThresholdNs, scatterSamplesPerWindow);
    }
}
