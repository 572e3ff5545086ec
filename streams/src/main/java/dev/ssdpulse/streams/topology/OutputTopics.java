package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.topics.Topics;
import java.util.List;

/** Where the topology writes; the catalogue names live, other names for a replay. */
public record OutputTopics(
        String metrics,
        String latency,
        String waf,
        String steadyState,
        String runSummary,
        String deadLetter,
        String latencyScatter) {

    public static OutputTopics catalogue() {
        return new OutputTopics(
                Topics.METRICS_1S.name(),
                Topics.LATENCY.name(),
                Topics.WAF.name(),
                Topics.STEADY_STATE.name(),
                Topics.RUN_SUMMARY.name(),
                Topics.DEAD_LETTER.name(),
                Topics.LATENCY_SCATTER.name());
    }

    /** The catalogue names with a prefix, e.g. "ssdpulse.replay.ID." + "ssdpulse.metrics-1s.v1". */
    public static OutputTopics prefixed(String prefix) {
        OutputTopics c = catalogue();
        return new OutputTopics(
                prefix + c.metrics,
                prefix + c.latency,
                prefix + c.waf,
                prefix + c.steadyState,
                prefix + c.runSummary,
                prefix + c.deadLetter,
                prefix + c.latencyScatter);
    }

    public List<String> all() {
        return List.of(metrics, latency, waf, steadyState, runSummary, deadLetter, latencyScatter);
    }

    /** This output topic's catalogue name, matched by role (not by position); null for a name not in this set. */
    public String catalogueName(String topic) {
        OutputTopics c = catalogue();
        if (topic.equals(metrics)) {
            return c.metrics;
        } else if (topic.equals(latency)) {
            return c.latency;
        } else if (topic.equals(waf)) {
            return c.waf;
        } else if (topic.equals(steadyState)) {
            return c.steadyState;
        } else if (topic.equals(runSummary)) {
            return c.runSummary;
        } else if (topic.equals(deadLetter)) {
            return c.deadLetter;
        } else if (topic.equals(latencyScatter)) {
            return c.latencyScatter;
        }
        return null;
    }
}
