package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.topology.Names;
import dev.ssdpulse.streams.topology.StoreKeys;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * {@link RunViews} over a running analytics application: {@link AnalyticsViews} plus a reverse range scan of
 * the window store for the latest window (so /metrics and the run list need not read a whole 5,000-s series).
 */
public final class StreamsRunViews implements RunViews {
    private final AnalyticsViews views;
    private final KafkaStreams streams;

    public StreamsRunViews(AnalyticsViews views, KafkaStreams streams) {
        this.views = views;
        this.streams = streams;
    }

    @Override
    public Map<String, RunStarted> runs() {
        return views.runs();
    }

    @Override
    public Optional<RunStarted> run(String runId) {
        return views.run(runId);
    }

    @Override
    public Optional<String> status(String runId) {
        return views.status(runId);
    }

    @Override
    public Map<String, String> statuses() {
        return views.statuses();
    }

    @Override
    public Optional<RunSummary> summary(String runId) {
        return views.summary(runId);
    }

    @Override
    public List<WindowMetrics> series(String runId, int op, long fromNs, long toNs) {
        return views.series(runId, op, fromNs, toNs);
    }

    @Override
    public Optional<RunViews> standbyReplicaOf(String runId, String selfHostPort) {
        int colon = selfHostPort.lastIndexOf(':');
        HostInfo self = new HostInfo(selfHostPort.substring(0, colon), Integer.parseInt(selfHostPort.substring(colon + 1)));
        return views.hostsStandbyOf(runId, self)
                ? Optional.of(new StreamsRunViews(views.withStandbyReplicas(), streams)) : Optional.empty();
    }

    @Override
    public Optional<WindowMetrics> lastWindow(String runId, int op) {
        ReadOnlyKeyValueStore<String, WindowMetrics> store = views.store(Names.WINDOW_SERIES_STORE);
        try (KeyValueIterator<String, WindowMetrics> it = store.reverseRange(
                StoreKeys.window(runId, op, Long.MIN_VALUE), StoreKeys.window(runId, op, Long.MAX_VALUE))) {
            return it.hasNext() ? Optional.of(it.next().value) : Optional.empty();
        }
    }

    @Override
    public List<dev.ssdpulse.schemas.avro.LatencyScatter> scatter(String runId, long fromNs, long toNs) {
        return views.scatter(runId, fromNs, toNs);
    }

    @Override
    public List<SteadyStateVerdict> verdicts(String runId) {
        return views.verdicts(runId);
    }

    @Override
    public List<WriteAmplification> waSeries(String runId) {
        return views.waSeries(runId);
    }

    @Override
    public List<dev.ssdpulse.schemas.avro.ResultSetStarted> resultSets(String runId) {
        return views.resultSets(runId);
    }

    @Override
    public Map<String, Long> deadLetterCounts() {
        return views.deadLetterCounts();
    }

    @Override
    public java.util.Set<String> instances() {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (var client : streams.metadataForAllStreamsClients()) {
            HostInfo h = client.hostInfo();
            if (h != null && h.port() >= 0 && h.host() != null && !h.host().equals("unavailable")) {
                out.add(h.host() + ":" + h.port());
            }
        }
        return out;
    }

    @Override
    public Optional<String> ownerOf(String runId) {
        KeyQueryMetadata md = views.ownerOf(runId);
        if (md == null || md.equals(KeyQueryMetadata.NOT_AVAILABLE)) {
            return Optional.empty();
        }
        HostInfo host = md.activeHost();
        if (host == null || host.port() < 0 || host.host() == null || host.host().equals("unavailable")) {
            return Optional.empty();
        }
        return Optional.of(host.host() + ":" + host.port());
    }
}
