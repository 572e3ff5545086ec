package dev.ssdpulse.streams.latency;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The per-I/O latency scatter of one run ("latency trend" in seed 003): per tumbling window (keyed by completion
 * time, all ops together), every I/O with latency at or above a threshold kept exactly, plus a uniform sample of
 * fixed size of the I/Os below it, with the window's exact counts so a view can say what fraction it shows.
 *
 * <p><b>Why a fixed sample per window.</b> A 5,000-s QD32 run holds ~12 M I/Os: too many to ship to a browser,
 * while its latency layers and GC-on/GC-off states are visible in a few hundred points per second. 200 per 1-s
 * window bounds such a run at 1 M sampled points plus its outliers, which a canvas draws in well under a second.
 *
 * <p><b>Determinism.</b> The sample is a bottom-k sample: each I/O gets a 64-bit priority hashed from its content
 * (completion time, latency, op) and a seed from the run id and the window index, and the k smallest priorities
 * are kept. That is a uniform sample without replacement, and it depends only on the multiset of the window's
 * I/Os, not on their arrival order or batching: the Streams topology, the offline path and a replay agree byte for
 * byte, as with the window aggregates. Ties are broken by content, so equal priorities cannot depend on order
 * either. Outliers use the same structure with a cap ({@link #MAX_OUTLIERS_PER_WINDOW}): exact below it, a
 * uniform sample of the outliers above it, so a pathological window cannot make a record too large for Kafka.
 *
 * <p><b>Closing.</b> The caller decides which I/Os count (those its window aggregator accepted, i.e. not late)
 * and closes windows on the same watermark, so scatter windows and metric windows hold the same I/Os.
 *
 * <p>Not thread-safe: one instance per run.
 */
public final class LatencyScatterSampler {
    public static final long DEFAULT_THRESHOLD_NS = 10_000_000L;
    public static final int DEFAULT_SAMPLES_PER_WINDOW = 200;
    /** ~10 B per point in Avro: a window record stays far below Kafka's 1-MB default message size. */
    public static final int MAX_OUTLIERS_PER_WINDOW = 20_000;

    private static final int STATE_VERSION = 1;

    /**
     * A closed window's scatter: columns of the kept I/Os in (completion, latency, op) order.
     *
     * @param keptAtOrAboveThresholdCount points with latency >= threshold in the columns (all of them up to the cap)
     */
    public record Window(
            long windowStartNs,
            long windowSizeNs,
            long thresholdNs,
            long ioCount,
            long atOrAboveThresholdCount,
            long keptAtOrAboveThresholdCount,
            long[] completionOffsetsNs,
            long[] latenciesNs,
            byte[] ops) {
        public int pointCount() {
            return latenciesNs.length;
        }
    }

    private final long runSeed;
    private final long windowSizeNs;
    private final long thresholdNs;
    private final int samplesPerWindow;
    private final int maxOutliersPerWindow;
    /** Open windows by ascending index: few (grace / size + 1). */
    private final List<OpenWindow> open = new ArrayList<>(4);

    private OpenWindow current;

    /**
     * @param runId            seeds the sample (with the window index)
     * @param windowSizeNs     window length, ns (the analysis' window)
     * @param thresholdNs      I/Os with latency >= this are kept exactly
     * @param samplesPerWindow uniform sample size of the I/Os below the threshold, per window (>= 0)
     */
    public LatencyScatterSampler(String runId, long windowSizeNs, long thresholdNs, int samplesPerWindow) {
        this(seedOf(runId), windowSizeNs, thresholdNs, samplesPerWindow, MAX_OUTLIERS_PER_WINDOW);
    }

    LatencyScatterSampler(
            long runSeed, long windowSizeNs, long thresholdNs, int samplesPerWindow, int maxOutliersPerWindow) {
        if (windowSizeNs <= 0) {
            throw new IllegalArgumentException("windowSizeNs must be > 0, was " + windowSizeNs);
        }
        if (thresholdNs < 0) {
            throw new IllegalArgumentException("thresholdNs must be >= 0, was " + thresholdNs);
        }
        if (samplesPerWindow < 0 || maxOutliersPerWindow < 0) {
            throw new IllegalArgumentException(
                    "sample sizes must be >= 0, were " + samplesPerWindow + " and " + maxOutliersPerWindow);
        }
        this.runSeed = runSeed;
        this.windowSizeNs = windowSizeNs;
        this.thresholdNs = thresholdNs;
        this.samplesPerWindow = samplesPerWindow;
        this.maxOutliersPerWindow = maxOutliersPerWindow;
    }

    /** One accepted I/O; its window must not have been closed. */
    public void add(int op, long completionTimeNs, long latencyNs) {
        long index = Math.floorDiv(completionTimeNs, windowSizeNs);
        OpenWindow w = current;
        if (w == null || w.index != index) {
            w = findOrOpen(index);
            current = w;
        }
        w.ioCount++;
        // without a branch: on a device whose first outlier comes in a later phase, an "if (outlier)" the JIT had
        // compiled as never taken deoptimised the device runner's whole compiled I/O loop
        int outlier = atOrAbove(latencyNs, thresholdNs);
        w.atOrAbove += outlier;
        w.bySide[outlier].offer(
                priority(w.seed, completionTimeNs, latencyNs, op), completionTimeNs, latencyNs, (byte) op);
    }

    /** End of the earliest open window, Long.MAX_VALUE when none: a cheap "anything to close?" test. */
    public long nextCloseEndNs() {
        return open.isEmpty() ? Long.MAX_VALUE : endOf(open.get(0).index);
    }

    /** Emits every open window with end <= limitNs, in start order. */
    public void closeUpTo(long limitNs, Consumer<Window> out) {
        while (!open.isEmpty() && endOf(open.get(0).index) <= limitNs) {
            OpenWindow w = open.remove(0);
            if (w == current) {
                current = null;
            }
            out.accept(w.toWindow());
        }
    }

    /** Emits every open window (the run ended). */
    public void flushAll(Consumer<Window> out) {
        closeUpTo(Long.MAX_VALUE, out);
    }

    public long thresholdNs() {
        return thresholdNs;
    }

    private long endOf(long index) {
        return (index + 1) * windowSizeNs;
    }

    private OpenWindow findOrOpen(long index) {
        int position = open.size();
        while (position > 0 && open.get(position - 1).index >= index) {
            position--;
        }
        if (position < open.size() && open.get(position).index == index) {
            return open.get(position);
        }
        OpenWindow created = new OpenWindow(index, mix(runSeed ^ mix(index)), samplesPerWindow, maxOutliersPerWindow);
        open.add(position, created);
        return created;
    }

    /** FNV-1a over the UTF-8 run id, mixed: stable across JVMs and languages (unlike a HashMap's hash). */
    static long seedOf(String runId) {
        long h = 0xcbf29ce484222325L;
        for (byte b : runId.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return mix(h);
    }

    /** 1 when {@code a >= b}, else 0, for any two longs, without a branch (Hacker's Delight 2-12, signed a < b). */
    static int atOrAbove(long a, long b) {
        long difference = a - b;
        return 1 - (int) ((difference ^ ((a ^ b) & (difference ^ a))) >>> 63);
    }

    static long priority(long windowSeed, long completionTimeNs, long latencyNs, int op) {
        return mix(mix(mix(windowSeed ^ completionTimeNs) ^ latencyNs) ^ op);
    }

    /** SplitMix64's finalizer: every input bit affects every output bit. */
    private static long mix(long z) {
        z += 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private final class OpenWindow {
        final long index;
        final long seed;
        long ioCount;
        long atOrAbove;
        final BottomK outliers;
        final BottomK samples;
        /** {samples, outliers}: indexed by "at or above the threshold" (0 or 1). */
        final BottomK[] bySide;

        OpenWindow(long index, long seed, int sampleCapacity, int outlierCapacity) {
            this.index = index;
            this.seed = seed;
            this.samples = new BottomK(sampleCapacity);
            this.outliers = new BottomK(outlierCapacity);
            this.bySide = new BottomK[] {samples, outliers};
        }

        Window toWindow() {
            long startNs = index * windowSizeNs;
            int n = outliers.size + samples.size;
            long[] completion = new long[n];
            long[] latency = new long[n];
            byte[] ops = new byte[n];
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                BottomK from = i < outliers.size ? outliers : samples;
                int j = i < outliers.size ? i : i - outliers.size;
                completion[i] = from.completionNs[j];
                latency[i] = from.latencyNs[j];
                ops[i] = from.op[j];
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> {
                int c = Long.compare(completion[a], completion[b]);
                if (c == 0) {
                    c = Long.compare(latency[a], latency[b]);
                }
                return c != 0 ? c : Byte.compare(ops[a], ops[b]);
            });
            long[] offsets = new long[n];
            long[] latencies = new long[n];
            byte[] sortedOps = new byte[n];
            for (int i = 0; i < n; i++) {
                int k = order[i];
                offsets[i] = completion[k] - startNs;
                latencies[i] = latency[k];
                sortedOps[i] = ops[k];
            }
            return new Window(
                    startNs,
                    windowSizeNs,
                    thresholdNs,
                    ioCount,
                    atOrAbove,
                    outliers.size,
                    offsets,
                    latencies,
                    sortedOps);
        }
    }

    /**
     * The k entries of smallest (priority, completion, latency, op), as a max-heap in parallel primitive arrays:
     * an I/O that does not make the sample (almost all of them) costs one comparison with the root.
     */
    private static final class BottomK {
        final int capacity;
        int size;
        long[] priority = new long[0];
        long[] completionNs = new long[0];
        long[] latencyNs = new long[0];
        byte[] op = new byte[0];

        BottomK(int capacity) {
            this.capacity = capacity;
        }

        void offer(long p, long c, long l, byte o) {
            if (size < capacity) {
                if (size == priority.length) {
                    grow();
                }
                set(size, p, c, l, o);
                siftUp(size++);
            } else if (capacity > 0 && compare(0, p, c, l, o) > 0) {
                set(0, p, c, l, o);
                siftDown(0);
            }
        }

        private void grow() {
            // grows with use: most windows of a run hold few outliers, and the state encodes only what is held
            int n = Math.min(capacity, Math.max(16, priority.length * 2));
            priority = Arrays.copyOf(priority, n);
            completionNs = Arrays.copyOf(completionNs, n);
            latencyNs = Arrays.copyOf(latencyNs, n);
            op = Arrays.copyOf(op, n);
        }

        private void set(int i, long p, long c, long l, byte o) {
            priority[i] = p;
            completionNs[i] = c;
            latencyNs[i] = l;
            op[i] = o;
        }

        private int compare(int i, long p, long c, long l, byte o) {
            int r = Long.compareUnsigned(priority[i], p);
            if (r == 0) {
                r = Long.compare(completionNs[i], c);
            }
            if (r == 0) {
                r = Long.compare(latencyNs[i], l);
            }
            return r != 0 ? r : Byte.compare(op[i], o);
        }

        private int compare(int i, int j) {
            return compare(i, priority[j], completionNs[j], latencyNs[j], op[j]);
        }

        private void swap(int i, int j) {
            long p = priority[i];
            long c = completionNs[i];
            long l = latencyNs[i];
            byte o = op[i];
            set(i, priority[j], completionNs[j], latencyNs[j], op[j]);
            set(j, p, c, l, o);
        }

        private void siftUp(int i) {
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (compare(parent, i) >= 0) {
                    return;
                }
                swap(parent, i);
                i = parent;
            }
        }

        private void siftDown(int i) {
            while (true) {
                int left = 2 * i + 1;
                if (left >= size) {
                    return;
                }
                int larger = left + 1 < size && compare(left + 1, left) > 0 ? left + 1 : left;
                if (compare(larger, i) <= 0) {
                    return;
                }
                swap(larger, i);
                i = larger;
            }
        }

        void encodeInto(BinaryWriter out, long windowStartNs) {
            out.writeUnsignedVarLong(size);
            for (int i = 0; i < size; i++) {
                out.writeVarLong(completionNs[i] - windowStartNs)
                        .writeUnsignedVarLong(latencyNs[i])
                        .writeByte(op[i]);
            }
        }

        /** Priorities are recomputed from the content: the state holds only what the output needs. */
        void decodeFrom(BinaryReader in, long windowStartNs, long seed) {
            int n = in.readCount("scatter entries", capacity);
            for (int i = 0; i < n; i++) {
                long c = windowStartNs + in.readVarLong("completion offset");
                long l = in.readUnsignedVarLong("latency");
                byte o = (byte) IoOpCode.check(in.readByte("op"));
                offer(priority(seed, c, l, o), c, l, o);
            }
        }
    }

    /** The open windows and the configuration they were created with, for the run's state store. */
    public void encodeInto(BinaryWriter out) {
        out.writeByte(STATE_VERSION);
        out.writeLong(runSeed)
                .writeUnsignedVarLong(windowSizeNs)
                .writeUnsignedVarLong(thresholdNs)
                .writeUnsignedVarLong(samplesPerWindow)
                .writeUnsignedVarLong(maxOutliersPerWindow);
        out.writeUnsignedVarLong(open.size());
        for (OpenWindow w : open) {
            long startNs = w.index * windowSizeNs;
            out.writeVarLong(w.index).writeUnsignedVarLong(w.ioCount).writeUnsignedVarLong(w.atOrAbove);
            w.outliers.encodeInto(out, startNs);
            w.samples.encodeInto(out, startNs);
        }
    }

    public static LatencyScatterSampler decodeFrom(BinaryReader in) {
        int version = in.readByte("scatter state version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException(
                    "latency scatter state has format " + version + ", expected " + STATE_VERSION);
        }
        long seed = in.readLong("run seed");
        long size = in.readUnsignedVarLong("window size");
        long threshold = in.readUnsignedVarLong("threshold");
        int samples = in.readCount("samples per window", Integer.MAX_VALUE);
        int maxOutliers = in.readCount("max outliers per window", Integer.MAX_VALUE);
        LatencyScatterSampler s = new LatencyScatterSampler(seed, size, threshold, samples, maxOutliers);
        int n = in.readCount("open scatter windows", 1 << 20);
        for (int i = 0; i < n; i++) {
            OpenWindow w = s.findOrOpen(in.readVarLong("window index"));
            w.ioCount = in.readUnsignedVarLong("io count");
            w.atOrAbove = in.readUnsignedVarLong("at or above threshold");
            long startNs = w.index * size;
            w.outliers.decodeFrom(in, startNs, w.seed);
            w.samples.decodeFrom(in, startNs, w.seed);
        }
        return s;
    }
}
