package dev.ssdpulse.cli.options;

import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.ClusterStateDirectory;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** Analysis settings of the Streams application, shared by {@code streams}, {@code replay} and {@code demo}. */
public final class AnalyticsOptions {

    @Option(
            names = "--application-id",
            paramLabel = "ID",
            defaultValue = AnalyticsConfig.DEFAULT_APPLICATION_ID,
            description = "Kafka Streams application id (default: ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            defaultValue = "${sys:user.home}/.ssdpulse/streams-state",
            description = "Where the Kafka Streams state goes: DIR/<Kafka cluster id>, a directory of its own for each"
                    + " cluster (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(
            names = "--threads",
            paramLabel = "N",
            defaultValue = "1",
            description = "Stream threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(
            names = "--window",
            paramLabel = "DURATION",
            defaultValue = "1s",
            description = "Window length of the per-window metrics (default: ${DEFAULT-VALUE}).")
    Duration window;

    @Option(
            names = "--grace",
            paramLabel = "DURATION",
            defaultValue = "2s",
            description = "How late an I/O may arrive and still count in its window; later ones are counted as late "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(
            names = "--snia-round",
            paramLabel = "DURATION",
            defaultValue = "60s",
            description = "SNIA PTS steady-state round length, a multiple of --window (default: ${DEFAULT-VALUE}).")
    Duration sniaRound;

    @Option(
            names = "--fio-steady-state",
            paramLabel = "MODE:LIMIT[%]:DURATION[:RAMP]",
            description = "fio-style steady-state criterion, repeatable (default: iops_slope:0.3%%:60).")
    List<String> fioCriteria = new ArrayList<>();

    @Option(
            names = "--heartbeat-timeout",
            paramLabel = "DURATION",
            defaultValue = "60s",
            description = "A run silent for this long is marked INCOMPLETE (default: ${DEFAULT-VALUE}).")
    Duration heartbeatTimeout;

    @Option(
            names = "--guarantee",
            paramLabel = "exactly_once_v2|at_least_once",
            defaultValue = "exactly_once_v2",
            description = "Processing guarantee (default: ${DEFAULT-VALUE}); see README for the trade-off.")
    String guarantee;

    @Option(
            names = "--scatter-threshold",
            paramLabel = "DURATION",
            defaultValue = "10ms",
            description = "The latency scatter keeps every I/O at or above this latency (default: ${DEFAULT-VALUE}).")
    Duration scatterThreshold;

    @Option(
            names = "--scatter-samples",
            paramLabel = "N",
            defaultValue = "200",
            description =
                    "The latency scatter's uniform sample of the other I/Os, per window (default: ${DEFAULT-VALUE}).")
    int scatterSamples;

    /** The state directory of the cluster with this id: its own under --state-dir, claimed for it. */
    public Path stateDirFor(String clusterId) {
        return ClusterStateDirectory.of(stateDir, clusterId);
    }

    /** The settings, with --state-dir as state directory (for one cluster: {@link #stateDirFor}). */
    public AnalyticsConfig toConfig(KafkaOptions kafka) {
        List<FioCriterion> criteria = fioCriteria.isEmpty()
                ? AnalysisSettings.DEFAULT_FIO_CRITERIA
                : fioCriteria.stream().map(FioCriterion::parse).toList();
        Map<String, String> extra = new HashMap<>();
        kafka.clientProperties().forEach((k, v) -> {
            if (!k.equals("bootstrap.servers")) {
                extra.put(k, String.valueOf(v));
            }
        });
        AnalysisSettings analysis = AnalysisSettings.defaults()
                .withWindow(window.toNanos(), grace.toNanos())
                .withSteadyState(sniaRound.toNanos(), criteria)
                .withScatter(scatterThreshold.toNanos(), scatterSamples);
        return new AnalyticsConfig(
                applicationId,
                kafka.bootstrapServers(),
                kafka.schemaRegistryUrl(),
                stateDir,
                threads,
                analysis,
                heartbeatTimeout,
                AnalyticsConfig.Guarantee.parse(guarantee),
                extra);
    }
}
