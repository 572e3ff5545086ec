package dev.ssdpulse.streams.topology;

/** Names of every node and store of the analytics topology (a contract for views, tests and operators). */
public final class Names {
    public static final String IO_SOURCE = "ssdpulse-io-source";
    public static final String SMART_SOURCE = "ssdpulse-smart-source";
    public static final String RUNS_SOURCE = "ssdpulse-runs-source";
    public static final String IO_DECODE = "ssdpulse-io-decode";
    public static final String SMART_DECODE = "ssdpulse-smart-decode";
    public static final String RUNS_DECODE = "ssdpulse-runs-decode";
    public static final String RUN_PROCESSOR = "ssdpulse-run-aggregate";
    public static final String RUNS_PROCESSOR = "ssdpulse-runs-materialize";
    public static final String METRICS_SINK = "ssdpulse-metrics-sink";
    public static final String LATENCY_SINK = "ssdpulse-latency-sink";
    public static final String LATENCY_SCATTER_SINK = "ssdpulse-latency-scatter-sink";
    public static final String STEADY_STATE_SINK = "ssdpulse-steady-state-sink";
    public static final String SUMMARY_SINK = "ssdpulse-run-summary-sink";
    public static final String WAF_SINK = "ssdpulse-waf-sink";
    public static final String IO_DEAD_LETTER_SINK = "ssdpulse-io-dead-letter-sink";
    public static final String SMART_DEAD_LETTER_SINK = "ssdpulse-smart-dead-letter-sink";
    public static final String RUNS_DEAD_LETTER_SINK = "ssdpulse-runs-dead-letter-sink";

    /** runId -> encoded RunAnalysis (windows, summary, phases, detectors, WA, dedup); internal. */
    public static final String RUN_STATE_STORE = "ssdpulse-run-state-store";
    /** runId -> last event wall-clock ms of runs not finished; internal (heartbeat timeout). */
    public static final String RUN_ACTIVITY_STORE = "ssdpulse-run-activity-store";
    /** runId -> RUNNING / COMPLETED / ABORTED / FAILED / INCOMPLETE. */
    public static final String RUN_STATUS_STORE = "ssdpulse-run-status-store";
    /** runId -> latest RunSummary. */
    public static final String RUN_SUMMARY_STORE = "ssdpulse-run-summary-store";
    /** runId|op|orderedWindowStart -> WindowMetrics. */
    public static final String WINDOW_SERIES_STORE = "ssdpulse-window-series-store";
    /**
     * runId|op -> WindowMetrics of the newest window still open (provisional: its I/Os so far, no histogram);
     * in memory, no changelog: recomputed from the run state every {@code OPEN_WINDOW_EVERY}.
     */
    public static final String OPEN_WINDOW_STORE = "ssdpulse-open-window-store";
    /** runId|orderedWindowStart -> LatencyScatter (all ops of the window). */
    public static final String LATENCY_SCATTER_STORE = "ssdpulse-latency-scatter-store";
    /** runId|phase|op|slot -> latest SteadyStateVerdict. */
    public static final String STEADY_STATE_STORE = "ssdpulse-steady-state-store";
    /** runId|orderedToTime -> WriteAmplification. */
    public static final String WAF_SERIES_STORE = "ssdpulse-waf-series-store";
    /** runId -> RunStarted. */
    public static final String RUNS_STORE = "ssdpulse-runs-store";
    /** source topic -> number of records sent to the dead-letter topic, one store per decoder. */
    public static final String IO_DEAD_LETTER_COUNT_STORE = "ssdpulse-io-dead-letter-count-store";

    public static final String SMART_DEAD_LETTER_COUNT_STORE = "ssdpulse-smart-dead-letter-count-store";
    public static final String RUNS_DEAD_LETTER_COUNT_STORE = "ssdpulse-runs-dead-letter-count-store";

    public static final String RESULT_SETS_SOURCE = "ssdpulse-result-sets-source";
    public static final String RESULT_SETS_DECODE = "ssdpulse-result-sets-decode";
    public static final String RESULT_SETS_PROCESSOR = "ssdpulse-result-sets-materialize";
    public static final String RESULT_SETS_DEAD_LETTER_SINK = "ssdpulse-result-sets-dead-letter-sink";
    public static final String DELETIONS_SOURCE = "ssdpulse-run-deletions-source";
    public static final String DELETIONS_DECODE = "ssdpulse-run-deletions-decode";
    public static final String DELETIONS_PROCESSOR = "ssdpulse-run-deletions-apply";
    public static final String DELETIONS_DEAD_LETTER_SINK = "ssdpulse-run-deletions-dead-letter-sink";
    /** runId@name -> ResultSetStarted of each stored result set (its settings). */
    public static final String RESULT_SET_INFO_STORE = "ssdpulse-result-set-info-store";
    /** runId -> deletion time (epoch ms) of runs deleted by the user; their raw events are ignored. */
    public static final String DELETED_RUNS_STORE = "ssdpulse-deleted-runs-store";

    public static final String RESULT_SETS_DEAD_LETTER_COUNT_STORE = "ssdpulse-result-sets-dead-letter-count-store";
    public static final String DELETIONS_DEAD_LETTER_COUNT_STORE = "ssdpulse-run-deletions-dead-letter-count-store";

    public static final String VERIFICATIONS_SOURCE = "ssdpulse-write-verification-source";
    public static final String VERIFICATIONS_DECODE = "ssdpulse-write-verification-decode";
    public static final String VERIFICATIONS_PROCESSOR = "ssdpulse-write-verification-materialize";
    public static final String VERIFICATIONS_DEAD_LETTER_SINK = "ssdpulse-write-verification-dead-letter-sink";
    /** runId -> the latest WriteVerification of the run (ssdpulse verify after a power cut). */
    public static final String VERIFICATION_STORE = "ssdpulse-write-verification-store";

    public static final String VERIFICATIONS_DEAD_LETTER_COUNT_STORE =
            "ssdpulse-write-verification-dead-letter-count-store";

    /** runId -> GroupMembership of a run that is a member of a run group (from its heartbeats). */
    public static final String RUN_MEMBERSHIP_STORE = "ssdpulse-run-membership-store";

    public static final String GROUP_EVENTS_SINK = "ssdpulse-group-events-sink";
    public static final String GROUP_SOURCE = "ssdpulse-group-events-source";
    public static final String GROUP_DECODE = "ssdpulse-group-events-decode";
    public static final String GROUP_PROCESSOR = "ssdpulse-group-aggregate";
    public static final String GROUP_DEAD_LETTER_SINK = "ssdpulse-group-events-dead-letter-sink";
    public static final String GROUP_DEAD_LETTER_COUNT_STORE = "ssdpulse-group-events-dead-letter-count-store";
    /** group:NAME -> encoded GroupAnalysis (members, their watermarks, the merged RunAnalysis); internal. */
    public static final String GROUP_STATE_STORE = "ssdpulse-group-state-store";
    /** group:NAME -> RunGroup (members with host, status and share). */
    public static final String RUN_GROUP_STORE = "ssdpulse-run-group-store";

    /** Status of a run that has not finished. */
    public static final String STATUS_RUNNING = "RUNNING";

    private Names() {}
}
