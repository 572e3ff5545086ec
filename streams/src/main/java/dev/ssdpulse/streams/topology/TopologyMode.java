package dev.ssdpulse.streams.topology;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the analytics topology is built for.
 *
 * <ul>
 *   <li>{@link Kind#LIVE}: every run, outputs to the catalogue topics, stores changelogged (a restart resumes
 *       from them), and the result-set and run-deletion branches the HTTP views need.</li>
 *   <li>{@link Kind#REPLAY} and {@link Kind#REANALYSIS}: the chosen runs only (filtered by key before decoding),
 *       outputs to topics of their own, stores without changelog (the state lives only as long as the run-once
 *       application; a failed replay is started again), no result-set branch. A re-analysis is a replay under
 *       other settings whose outputs then become a result set; the kind names its application id.</li>
 * </ul>
 *
 * @param outputs   where the topology writes
 * @param runFilter keeps the records of the runs to process
 */
public record TopologyMode(Kind kind, OutputTopics outputs, Predicate<String> runFilter) {
    public enum Kind {
        LIVE,
        REPLAY,
        REANALYSIS;

        /** Application-id suffix of a run-once application of this kind. */
        public String idSuffix() {
            return "-" + name().toLowerCase(Locale.ROOT) + "-";
        }
    }

    public TopologyMode {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(outputs, "outputs");
        Objects.requireNonNull(runFilter, "runFilter");
    }

    public static TopologyMode live() {
        return new TopologyMode(Kind.LIVE, OutputTopics.catalogue(), runId -> true);
    }

    /** A run-once mode over the given runs, writing to the catalogue names prefixed with outputPrefix. */
    public static TopologyMode runOnce(Kind kind, String outputPrefix, Set<String> runIds) {
        if (kind == Kind.LIVE) {
            throw new IllegalArgumentException("the live mode is not run-once");
        }
        Set<String> wanted = Set.copyOf(runIds);
        return new TopologyMode(kind, OutputTopics.prefixed(outputPrefix), wanted::contains);
    }

    public boolean isLive() {
        return kind == Kind.LIVE;
    }
}
