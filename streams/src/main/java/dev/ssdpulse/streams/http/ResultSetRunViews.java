package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.views.RunViews;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The views of one run as seen through one of its result sets: results (status, summary, series, verdicts, WA)
 * come from the alias key {@code RUN@NAME}; the run itself (RunStarted, routing) from the run id. Every endpoint
 * renders it unchanged, so {@code ?resultSet=NAME} works wherever a run's results are served.
 */
final class ResultSetRunViews implements RunViews {
    private final RunViews base;
    private final String runId;
    private final String alias;

    ResultSetRunViews(RunViews base, String runId, String resultSet) {
        this.base = base;
        this.runId = runId;
        this.alias = ResultSetNames.alias(runId, resultSet);
    }

    private String key(String id) {
        return id.equals(runId) ? alias : id;
    }

    @Override
    public Map<String, RunStarted> runs() {
        return base.runs();
    }

    @Override
    public Optional<RunStarted> run(String id) {
        return base.run(id);
    }

    @Override
    public Optional<String> status(String id) {
        return base.status(key(id));
    }

    @Override
    public Map<String, String> statuses() {
        return base.statuses();
    }

    /** The run's own: a verification checks the drive, not an analysis of the run. */
    @Override
    public Optional<WriteVerification> verification(String id) {
        return base.verification(id);
    }

    @Override
    public Optional<RunSummary> summary(String id) {
        return base.summary(key(id));
    }

    @Override
    public List<WindowMetrics> series(String id, int op, long fromNs, long toNs) {
        return base.series(key(id), op, fromNs, toNs);
    }

    /** Empty: a re-analysis does not store a scatter (it would repeat the run's own at the same threshold). */
    @Override
    public List<LatencyScatter> scatter(String id, long fromNs, long toNs) {
        return base.scatter(key(id), fromNs, toNs);
    }

    @Override
    public Optional<WindowMetrics> lastWindow(String id, int op) {
        return base.lastWindow(key(id), op);
    }

    @Override
    public List<SteadyStateVerdict> verdicts(String id) {
        return base.verdicts(key(id));
    }

    @Override
    public List<WriteAmplification> waSeries(String id) {
        return base.waSeries(key(id));
    }

    @Override
    public Map<String, Long> deadLetterCounts() {
        return base.deadLetterCounts();
    }

    @Override
    public Optional<String> ownerOf(String id) {
        return base.ownerOf(ResultSetNames.runIdOf(id));
    }

    @Override
    public Set<String> instances() {
        return base.instances();
    }

    @Override
    public boolean knows(String id) {
        return base.status(key(id)).isPresent();
    }

    @Override
    public List<ResultSetStarted> resultSets(String id) {
        return base.resultSets(id);
    }
}
