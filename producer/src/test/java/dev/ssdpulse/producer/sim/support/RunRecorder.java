package dev.ssdpulse.producer.sim.support;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SmartSampleListener;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test sink: per-window MB/s (by completion time), latency sums, SMART samples, and a running hash of
 * every event for determinism checks.
 */
public final class RunRecorder implements IoCompletionSink, SmartSampleListener {
    private final long windowNs;
    private long[] windowBytes = new long[64];
    public long ios;
    public long reads;
    public long writes;
    public long readLatencySumNs;
    public long writeLatencySumNs;
    public long maxLatencyNs;
    public long hash = 1125899906842597L;
    public final List<SimSmartCounters> samples = new ArrayList<>();
    public long lastCompletionNs;

    public RunRecorder(long windowNs) {
        this.windowNs = windowNs;
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
        ios++;
        long doneNs = submitTimeNs + latencyNs;
        lastCompletionNs = doneNs;
        int w = (int) (doneNs / windowNs);
        if (w >= windowBytes.length) {
            windowBytes = Arrays.copyOf(windowBytes, Math.max(w + 1, windowBytes.length * 2));
        }
        windowBytes[w] += sizeBytes;
        if (op == IoOpCode.READ) {
            reads++;
            readLatencySumNs += latencyNs;
        } else {
            writes++;
            writeLatencySumNs += latencyNs;
        }
        maxLatencyNs = Math.max(maxLatencyNs, latencyNs);
        hash = mix(hash, worker);
        hash = mix(hash, phaseIndex);
        hash = mix(hash, op);
        hash = mix(hash, offsetBytes);
        hash = mix(hash, sizeBytes);
        hash = mix(hash, submitTimeNs);
        hash = mix(hash, latencyNs);
        hash = mix(hash, queueDepth);
    }

    @Override
    public void onSample(SimSmartCounters sample) {
        samples.add(sample);
        hash = mix(hash, sample.hashCode());
    }

    private static long mix(long h, long v) {
        return (h ^ v) * 0x9E3779B97F4A7C15L + 31;
    }

    /** MB/s (10^6 B/s) in each window. */
    public double[] mbPerSecond(int windows) {
        double[] out = new double[windows];
        for (int i = 0; i < windows && i < windowBytes.length; i++) {
            out[i] = windowBytes[i] / (windowNs / 1e9) / 1e6;
        }
        return out;
    }

    public double meanMbPerSecond(int fromWindow, int toWindowExclusive) {
        double sum = 0;
        for (int i = fromWindow; i < toWindowExclusive; i++) {
            sum += i < windowBytes.length ? windowBytes[i] : 0;
        }
        return sum / ((toWindowExclusive - fromWindow) * (windowNs / 1e9)) / 1e6;
    }

    public SimSmartCounters first() {
        return samples.get(0);
    }

    public SimSmartCounters last() {
        return samples.get(samples.size() - 1);
    }
}
