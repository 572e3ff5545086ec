package dev.ssdpulse.streams.analysis;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.steadystate.SniaSteadyStateDetector;
import dev.ssdpulse.streams.window.RunWindowAggregator;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link RunAnalysis} computes, the same in every runtime (Kafka Streams, offline, replay): the same
 * settings and the same events give the same results.
 *
 * @param windowSizeNs        tumbling window length, ns
 * @param graceNs             how late (behind the run's latest completion) an I/O may arrive and still count in
 *                            its window, ns
 * @param bins                fixed latency bins of every histogram output
 * @param sniaRoundNs         SNIA PTS round length, ns (a multiple of the window size)
 * @param fioCriteria         fio-style criteria, judged per direction and over all directions together
 * @param latencyEveryWindows a whole-run RunLatency is emitted every this many closed windows of a run
 * @param scatterThresholdNs  the latency scatter keeps every I/O with latency at or above this, ns
 * @param scatterSamplesPerWindow the latency scatter's uniform sample of the I/Os below the threshold, per window
 */
public record AnalysisSettings(
        long windowSizeNs,
        long graceNs,
        LatencyBins bins,
        long sniaRoundNs,
        List<FioCriterion> fioCriteria,
        int latencyEveryWindows,
        long scatterThresholdNs,
        int scatterSamplesPerWindow) {
    public static final long DEFAULT_GRACE_NS = 2_000_000_000L;
    public static final int DEFAULT_LATENCY_EVERY_WINDOWS = 10;
    public static final List<FioCriterion> DEFAULT_FIO_CRITERIA = List.of(FioCriterion.parse("iops_slope:0.3%:60"));

    /** The default latency scatter (10 ms, 200 samples per window). */
    public AnalysisSettings(
            long windowSizeNs,
            long graceNs,
            LatencyBins bins,
            long sniaRoundNs,
            List<FioCriterion> fioCriteria,
            int latencyEveryWindows) {
        this(
                windowSizeNs,
                graceNs,
                bins,
                sniaRoundNs,
                fioCriteria,
                latencyEveryWindows,
                LatencyScatterSampler.DEFAULT_THRESHOLD_NS,
                LatencyScatterSampler.DEFAULT_SAMPLES_PER_WINDOW);
    }

    public AnalysisSettings {
        Objects.requireNonNull(bins, "bins");
        fioCriteria = List.copyOf(fioCriteria);
        if (windowSizeNs <= 0) {
            throw new IllegalArgumentException("windowSizeNs must be > 0, was " + windowSizeNs);
        }
        if (graceNs < 0) {
            throw new IllegalArgumentException("graceNs must be >= 0, was " + graceNs);
        }
        if (sniaRoundNs <= 0 || sniaRoundNs % windowSizeNs != 0) {
            throw new IllegalArgumentException("sniaRoundNs (" + sniaRoundNs
                    + ") must be a positive multiple of windowSizeNs (" + windowSizeNs + ")");
        }
        for (FioCriterion c : fioCriteria) {
            if (c.durationNs() % windowSizeNs != 0 || c.rampNs() % windowSizeNs != 0) {
                throw new IllegalArgumentException("fio criterion " + c + ": duration and ramp must be multiples"
                        + " of the window size " + windowSizeNs + " ns (one sample per window)");
            }
        }
        if (latencyEveryWindows < 1) {
            throw new IllegalArgumentException("latencyEveryWindows must be >= 1, was " + latencyEveryWindows);
        }
        if (scatterThresholdNs < 0) {
            throw new IllegalArgumentException("scatterThresholdNs must be >= 0, was " + scatterThresholdNs);
        }
        if (scatterSamplesPerWindow < 0) {
            throw new IllegalArgumentException("scatterSamplesPerWindow must be >= 0, was " + scatterSamplesPerWindow);
        }
    }

    /**
     * 1-s windows, 2-s grace, IOMeter bins, 60-s SNIA rounds, fio iops_slope:0.3%:60, run latency every 10 windows,
     * latency scatter of every I/O >= 10 ms plus 200 samples per window.
     */
    public static AnalysisSettings defaults() {
        return new AnalysisSettings(
                RunWindowAggregator.DEFAULT_WINDOW_SIZE_NS,
                DEFAULT_GRACE_NS,
                LatencyBins.iometer(),
                SniaSteadyStateDetector.DEFAULT_ROUND_NS,
                DEFAULT_FIO_CRITERIA,
                DEFAULT_LATENCY_EVERY_WINDOWS);
    }

    public AnalysisSettings withWindow(long sizeNs, long newGraceNs) {
        return new AnalysisSettings(
                sizeNs,
                newGraceNs,
                bins,
                sniaRoundNs,
                fioCriteria,
                latencyEveryWindows,
                scatterThresholdNs,
                scatterSamplesPerWindow);
    }

    public AnalysisSettings withSteadyState(long roundNs, List<FioCriterion> criteria) {
        return new AnalysisSettings(
                windowSizeNs,
                graceNs,
                bins,
                roundNs,
                criteria,
                latencyEveryWindows,
                scatterThresholdNs,
                scatterSamplesPerWindow);
    }

    public AnalysisSettings withScatter(long thresholdNs, int samplesPerWindow) {
        return new AnalysisSettings(
                windowSizeNs,
                graceNs,
                bins,
                sniaRoundNs,
                fioCriteria,
                latencyEveryWindows,
                thresholdNs,
                samplesPerWindow);
    }

    public AnalysisSettings withLatencyBins(LatencyBins newBins) {
        return new AnalysisSettings(
                windowSizeNs,
                graceNs,
                newBins,
                sniaRoundNs,
                fioCriteria,
                latencyEveryWindows,
                scatterThresholdNs,
                scatterSamplesPerWindow);
    }
}
