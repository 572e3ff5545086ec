package dev.ssdpulse.streams.offline;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.avro.PhaseLabel;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.steadystate.TrackedVariable;
import dev.ssdpulse.streams.summary.RunSummaryAccumulator;
import dev.ssdpulse.streams.waf.SmartCounters;
import dev.ssdpulse.streams.waf.WaInterval;
import dev.ssdpulse.streams.waf.WriteAmplificationAccumulator;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import dev.ssdpulse.streams.window.WindowResult;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The analytics of one run without Kafka: the same accumulators the Streams topology composes (event-time
 * windows, run and phase summaries, write amplification, SNIA steady state), fed directly by a producer in
 * the same JVM — the simulator's {@code --offline} mode and the fio importer's. Feed I/Os in any order
 * within the grace; call {@link #finish} once.
 *
 * <p>Steady state is tracked per op on TEST phases with the SNIA PTS criterion (IOPS per round). Not
 * thread-safe: one instance per run.
 */
public final class OfflineRunAnalysis {
    private final String runId;
    private final long windowSizeNs;
    private final long sniaRoundNs;
    private final RunSummaryAccumulator summary;
    private final RunWindowAggregator windows;
    private final WriteAmplificationAccumulator writeAmplification = new WriteAmplificationAccumulator();
    private final List<WindowResult> closedWindows = new ArrayList<>();
    private final List<WaInterval> waIntervals = new ArrayList<>();
    private final Map<Integer, PhaseLabel> phaseLabels = new HashMap<>();
    private final Map<Integer, Long> phaseStartNs = new TreeMap<>();
    private final Map<Integer, SmartCounters> smartAtPhaseStart = new TreeMap<>();
    private final Map<Long, SniaSteadyStateDetector> steadyState = new LinkedHashMap<>();
    private final Map<Long, SteadyStateVerdict> latestVerdicts = new LinkedHashMap<>();
    private SmartCounters lastSmart;
    private final boolean keepWindows;
    private SmartSource smartSource = SmartSource.NONE;

    /**
     * @param windowSizeNs window length (1 s by default in the topology)
     * @param graceNs      how late an I/O may complete relative to the latest one and still count in its window
     * @param keepWindows  keep every closed window for {@link #windows()} (a series export); costs memory
     */
    public OfflineRunAnalysis(String runId, long windowSizeNs, long graceNs, LatencyBins bins, long sniaRoundNs,
                              boolean keepWindows) {
        this.runId = runId;
        this.windowSizeNs = windowSizeNs;
        this.sniaRoundNs = sniaRoundNs;
        this.keepWindows = keepWindows;
        this.summary = new RunSummaryAccumulator(bins);
        // Offline state is never encoded: no raw-I/O tail needed (tail limit 0).
        this.windows = new RunWindowAggregator(windowSizeNs, graceNs, bins, 0, this::onWindowClosed);
    }

    public String runId() {
        return runId;
    }

    /** A phase starts; labels the phase in the summary and starts its steady-state tracking. */
    public void phaseStarted(int phaseIndex, String name, PhaseKind kind, long timeNs) {
        phaseLabels.put(phaseIndex, new PhaseLabel(name, kind));
        phaseStartNs.put(phaseIndex, timeNs);
        if (lastSmart != null) {
            smartAtPhaseStart.put(phaseIndex, lastSmart);
        }
    }

    /** One completed I/O; {@code op} is the IoOp ordinal. */
    public void io(int op, int phaseIndex, long submitTimeNs, long latencyNs, long sizeBytes, int status) {
        long completionNs = submitTimeNs + latencyNs;
        if (!windows.add(op, phaseIndex, completionNs, sizeBytes, latencyNs, status)) {
            // Late for its window: still counted in the totals, as the topology does.
            summary.add(op, phaseIndex, completionNs, sizeBytes, latencyNs, status);
        }
    }

    public void smart(SmartCounters counters, SmartSource source) {
        smartSource = source;
        if (lastSmart == null) {
            // Phases that started before the first sample start at it.
            for (Integer phase : phaseStartNs.keySet()) {
                smartAtPhaseStart.putIfAbsent(phase, counters);
            }
        }
        lastSmart = counters;
        writeAmplification.accept(counters).ifPresent(waIntervals::add);
    }

    private void onWindowClosed(WindowResult window) {
        summary.addWindow(window);
        if (keepWindows) {
            closedWindows.add(window);
        }
        PhaseLabel label = phaseLabels.get(window.phaseIndex());
        if (label == null || label.kind() != PhaseKind.TEST) {
            return;
        }
        long key = ((long) window.phaseIndex() << 8) | window.op();
        SniaSteadyStateDetector detector = steadyState.computeIfAbsent(key, k -> {
            long phaseStart = phaseStartNs.getOrDefault(window.phaseIndex(), window.windowStartNs());
            // Round 1 starts on the window grid at or after the phase start, so no window straddles a round.
            long start = Math.floorDiv(phaseStart + windowSizeNs - 1, windowSizeNs) * windowSizeNs;
            return new SniaSteadyStateDetector(start, sniaRoundNs, TrackedVariable.IOPS,
                    SniaSteadyStateDetector.DEFAULT_WINDOW_ROUNDS, SniaSteadyStateDetector.DEFAULT_RANGE_LIMIT_PERCENT,
                    SniaSteadyStateDetector.DEFAULT_EXCURSION_LIMIT_PERCENT, SniaSteadyStateDetector.DEFAULT_MAX_ROUNDS);
        });
        for (SteadyStateResult result : detector.acceptWindow(window.windowStartNs(), window.windowSizeNs(),
                window.ioCount(), window.bytes())) {
            latestVerdicts.put(key, AvroMappers.steadyStateVerdict(runId, window.op(), window.phaseIndex(), result));
        }
    }

    /** Closes every window and returns the run's summary. */
    public RunSummary finish(RunStatus status, String reason, long durationNs, long ioCountExpected) {
        windows.flushAll();
        for (Map.Entry<Long, SniaSteadyStateDetector> e : steadyState.entrySet()) {
            int phase = (int) (e.getKey() >> 8);
            int op = (int) (e.getKey() & 0xff);
            e.getValue().finish(durationNs).ifPresent(r ->
                    latestVerdicts.put(e.getKey(), AvroMappers.steadyStateVerdict(runId, op, phase, r)));
        }
        WriteAmplification wa = writeAmplification.lastInterval() == null ? null
                : AvroMappers.writeAmplification(runId, smartSource, writeAmplification.lastInterval());
        return AvroMappers.runSummary(runId, status, reason, summary.summarize(durationNs), phaseLabels::get, wa,
                new ArrayList<>(latestVerdicts.values()), ioCountExpected, windows.lateIoCount(), 0);
    }

    /** Closed windows in order (only with keepWindows). */
    public List<WindowResult> windows() {
        return closedWindows;
    }

    public List<WaInterval> writeAmplificationIntervals() {
        return waIntervals;
    }

    /**
     * WA of each phase: NAND / host bytes between the SMART sample at the phase start and the one at the
     * next phase's start (or the last sample); null where the host wrote nothing or no samples exist.
     */
    public Map<Integer, Double> writeAmplificationByPhase() {
        Map<Integer, Double> out = new TreeMap<>();
        List<Integer> phases = new ArrayList<>(smartAtPhaseStart.keySet());
        for (int i = 0; i < phases.size(); i++) {
            SmartCounters from = smartAtPhaseStart.get(phases.get(i));
            SmartCounters to = i + 1 < phases.size() ? smartAtPhaseStart.get(phases.get(i + 1)) : lastSmart;
            if (from == null || to == null || from.hostBytesWritten() == null || to.hostBytesWritten() == null
                    || from.nandTotal() == null || to.nandTotal() == null) {
                continue;
            }
            long host = to.hostBytesWritten() - from.hostBytesWritten();
            long nand = to.nandTotal() - from.nandTotal();
            out.put(phases.get(i), host > 0 ? (double) nand / host : null);
        }
        return out;
    }
}
