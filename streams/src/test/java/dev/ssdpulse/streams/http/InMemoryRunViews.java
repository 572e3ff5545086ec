package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.streams.views.RunViews;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/** A small real RunViews over maps, for tests of parsing, routing and rendering without a broker. */
final class InMemoryRunViews implements RunViews {
    final Map<String, RunStarted> runs = new ConcurrentHashMap<>();
    final Map<String, String> statuses = new ConcurrentHashMap<>();
    final Map<String, RunSummary> summaries = new ConcurrentHashMap<>();
    final List<WindowMetrics> windows = new CopyOnWriteArrayList<>();
    final Map<String, List<SteadyStateVerdict>> verdicts = new ConcurrentHashMap<>();
    final Map<String, List<WriteAmplification>> wa = new ConcurrentHashMap<>();
    final Map<String, Long> deadLetters = new ConcurrentHashMap<>();
    final Map<String, List<LatencyScatter>> scatters = new ConcurrentHashMap<>();
    final Map<String, String> owners = new ConcurrentHashMap<>();
    final Set<String> instances = ConcurrentHashMap.newKeySet();
    final Map<String, List<ResultSetStarted>> resultSets = new ConcurrentHashMap<>();
    final Map<String, WriteVerification> verifications = new ConcurrentHashMap<>();
    /** Until this System.nanoTime(), when set: a run's own views throw as Streams' stores do while they restore. */
    private volatile long unavailableUntilNs;

    private volatile boolean unavailable;

    /** From now for {@code duration}, every question about one run (and so every /api/runs/{id}/... request) fails. */
    void unavailableFor(Duration duration) {
        unavailableUntilNs = System.nanoTime() + duration.toNanos();
        unavailable = true;
    }

    private void checkAvailable() {
        if (unavailable && System.nanoTime() - unavailableUntilNs < 0) {
            throw new InvalidStateStoreException("restoring (a test's fault)");
        }
    }

    @Override
    public Optional<WriteVerification> verification(String runId) {
        checkAvailable();
        return Optional.ofNullable(verifications.get(runId));
    }

    @Override
    public List<ResultSetStarted> resultSets(String runId) {
        return resultSets.getOrDefault(runId, List.of());
    }

    @Override
    public Set<String> instances() {
        return Set.copyOf(instances);
    }

    @Override
    public Map<String, RunStarted> runs() {
        return Map.copyOf(runs);
    }

    @Override
    public Optional<RunStarted> run(String runId) {
        checkAvailable();
        return Optional.ofNullable(runs.get(runId));
    }

    @Override
    public Optional<String> status(String runId) {
        checkAvailable();
        return Optional.ofNullable(statuses.get(runId));
    }

    @Override
    public Map<String, String> statuses() {
        return Map.copyOf(statuses);
    }

    @Override
    public Optional<RunSummary> summary(String runId) {
        return Optional.ofNullable(summaries.get(runId));
    }

    @Override
    public List<WindowMetrics> series(String runId, int op, long fromNs, long toNs) {
        List<WindowMetrics> out = new ArrayList<>();
        for (WindowMetrics w : windows) {
            if (w.getRunId().toString().equals(runId)
                    && w.getOp().ordinal() == op
                    && w.getWindowStartNs() >= fromNs
                    && w.getWindowStartNs() <= toNs) {
                out.add(w);
            }
        }
        out.sort(Comparator.comparingLong(WindowMetrics::getWindowStartNs));
        return out;
    }

    @Override
    public Optional<WindowMetrics> lastWindow(String runId, int op) {
        List<WindowMetrics> all = series(runId, op, 0, Long.MAX_VALUE);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
    }

    @Override
    public List<LatencyScatter> scatter(String runId, long fromNs, long toNs) {
        return scatters.getOrDefault(runId, List.of()).stream()
                .filter(s -> s.getWindowStartNs() >= fromNs && s.getWindowStartNs() <= toNs)
                .toList();
    }

    @Override
    public List<SteadyStateVerdict> verdicts(String runId) {
        return verdicts.getOrDefault(runId, List.of());
    }

    @Override
    public List<WriteAmplification> waSeries(String runId) {
        return wa.getOrDefault(runId, List.of());
    }

    @Override
    public Map<String, Long> deadLetterCounts() {
        return Map.copyOf(deadLetters);
    }

    @Override
    public Optional<String> ownerOf(String runId) {
        return Optional.ofNullable(owners.get(runId));
    }
}
