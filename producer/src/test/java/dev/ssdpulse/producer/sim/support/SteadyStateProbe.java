package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.run.SimulationObserver;
import dev.ssdpulse.producer.sim.stats.HistogramModes;
import dev.ssdpulse.producer.sim.stats.LogHistogram;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a steady-state run looks like second by second, for the last phase of a workload: completions per
 * one-second window (by completion time, from the phase start), a log-binned latency histogram (20 bins per
 * decade from 1 us) and its modes, the worst latency, WA. Seed 003's figures are read from these: IOPS over
 * time (two non-zero states, no silent seconds) and the latency layers.
 */
public final class SteadyStateProbe implements SimulationObserver {
    public static final int BINS_PER_DECADE = 20;
    private static final long SECOND_NS = 1_000_000_000L;

    /** The window of the per-window counts: one second, or a shorter one for a drive shrunk in time. */
    private final long windowNs;

    public SteadyStateProbe() {
        this(SECOND_NS);
    }

    public SteadyStateProbe(long windowNs) {
        this.windowNs = windowNs;
    }

    private long phaseStartNs;
    private long[] perSecond = new long[1024];
    private LogHistogram histogram = newHistogram();
    private long maxLatencyNs;
    private long ios;
    private SimSmartCounters phaseStart;
    private SimSmartCounters last;

    private static LogHistogram newHistogram() {
        return new LogHistogram(1_000, 9, BINS_PER_DECADE);
    }

    @Override
    public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
        phaseStartNs = timeNs;
        phaseStart = last;
        Arrays.fill(perSecond, 0);
        histogram = newHistogram();
        maxLatencyNs = 0;
        ios = 0;
    }

    @Override
    public void onSmartSample(SimSmartCounters counters) {
        last = counters;
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        int s = (int) Math.max(0, (submitTimeNs + latencyNs - phaseStartNs) / windowNs);
        if (s >= perSecond.length) {
            perSecond = Arrays.copyOf(perSecond, Math.max(s + 1, perSecond.length * 2));
        }
        perSecond[s]++;
        histogram.add(latencyNs);
        maxLatencyNs = Math.max(maxLatencyNs, latencyNs);
        ios++;
    }

    /** Completions per whole window of the last phase (the last, cut-short window left out). */
    public long[] iopsPerSecond() {
        int seconds = 0;
        for (int i = 0; i < perSecond.length; i++) {
            if (perSecond[i] > 0) {
                seconds = i;
            }
        }
        return Arrays.copyOf(perSecond, seconds);
    }

    /** Windows from {@code fromWindow} on with no completion at all. */
    public long silentWindows(int fromWindow) {
        long[] iops = iopsPerSecond();
        return Arrays.stream(iops, Math.min(fromWindow, iops.length), iops.length)
                .filter(n -> n == 0)
                .count();
    }

    public LogHistogram histogram() {
        return histogram;
    }

    public long maxLatencyNs() {
        return maxLatencyNs;
    }

    public long ios() {
        return ios;
    }

    public double writeAmplification() {
        return phaseStart == null ? Double.NaN : last.writeAmplificationSince(phaseStart);
    }

    /** A few lines: IOPS states, silent seconds, latency modes and histogram. */
    public String describe(HistogramModes finder) {
        long[] iops = iopsPerSecond();
        long peak = Arrays.stream(iops).max().orElse(0);
        double mean = Arrays.stream(iops).average().orElse(0);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%,d I/Os in %d windows of %.3f s: mean %.0f per window, peak %d; silent windows after the first"
                        + " minute %d; >= 80 %% of peak %d, <= 20 %% %d; max latency %.1f ms; WA %.2f%n",
                ios,
                iops.length,
                windowNs / 1e9,
                mean,
                peak,
                silentWindows((int) (60 * SECOND_NS / windowNs)),
                Arrays.stream(iops).filter(n -> n >= peak * 0.8).count(),
                Arrays.stream(iops).filter(n -> n <= peak * 0.2).count(),
                maxLatencyNs / 1e6,
                writeAmplification()));
        var modes = finder.modes(histogram.counts());
        sb.append("latency modes (").append(modes.size()).append("):");
        for (var m : modes) {
            sb.append(String.format(
                    Locale.ROOT,
                    " %.3g ms (%.2f %%)",
                    histogram.centreNs(m.bin()) / 1e6,
                    100.0 * m.count() / histogram.total()));
        }
        sb.append(System.lineSeparator()).append("histogram (bin centre ms: share %):");
        long[] counts = histogram.counts();
        for (int b = 0; b < counts.length; b++) {
            if (counts[b] * 10_000 >= histogram.total()) {
                sb.append(String.format(
                        Locale.ROOT, " %.3g:%.2f", histogram.centreNs(b) / 1e6, 100.0 * counts[b] / histogram.total()));
            }
        }
        sb.append(System.lineSeparator()).append("per window, first 90: ");
        sb.append(Arrays.toString(Arrays.copyOf(iops, Math.min(90, iops.length))));
        sb.append(System.lineSeparator()).append("per window, last 60: ");
        sb.append(Arrays.toString(Arrays.copyOfRange(iops, Math.max(0, iops.length - 60), iops.length)));
        return sb.toString();
    }
}
