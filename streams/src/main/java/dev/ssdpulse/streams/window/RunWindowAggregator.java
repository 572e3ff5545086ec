package dev.ssdpulse.streams.window;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Tumbling event-time windows of one run, per op, keyed by I/O completion time: an I/O completing at t
 * belongs to window floor(t / windowSizeNs).
 *
 * <p><b>Closing.</b> The run's watermark is (max completion time seen) - grace, or further where the producer
 * said how far its I/Os are complete ({@link #advanceWatermark}). A window [start, end) closes as soon as
 * watermark >= end; closed windows go to the callback in order of start, then op code. An I/O
 * whose window has end <= watermark when it arrives is <i>late</i>: counted in {@link #lateIoCount(int)}
 * and not added to any window (the run summary still counts it in its totals). Because the watermark is
 * advanced per I/O, not per batch, the emitted windows do not depend on batching; and as long as no I/O is
 * late, they do not depend on arrival order either (every aggregate is commutative and the window's phase
 * is the phase of its latest-completing I/O).
 *
 * <p><b>State.</b> The whole per-run state (watermark, late counts, the handful of open windows: about
 * (grace / size + 1) per active op) is one value, {@link #encodeState()} / {@link #decodeState}. Histograms
 * are written uncompressed, and each open window keeps its encoded form until it changes, so an encode
 * re-encodes only the windows that received I/Os since the previous one (the current one or two per op). A
 * restored window is decoded only when it gets another I/O or closes.
 *
 * <p>Not thread-safe: one instance per run.
 */
public final class RunWindowAggregator {
    public static final long DEFAULT_WINDOW_SIZE_NS = 1_000_000_000L;
    /** 2: without the raw-I/O tails of version 1. */
    private static final int STATE_VERSION = 2;

    private final long windowSizeNs;
    private final long graceNs;
    private final LatencyBins bins;
    private Consumer<WindowResult> onClosed;

    /** Open windows per op, sorted by window index (few: grace/size + 1). */
    private final List<List<OpenWindow>> open = new ArrayList<>(IoOpCode.COUNT);
    /** Last window used per op: almost every I/O hits it. */
    private final OpenWindow[] current = new OpenWindow[IoOpCode.COUNT];

    private boolean seenAny;
    private long maxCompletionTimeNs = Long.MIN_VALUE;
    private long watermarkNs = Long.MIN_VALUE;
    /** Smallest end among open windows; Long.MAX_VALUE when none. Cheap per-I/O test for "anything to close?". */
    private long nextCloseEndNs = Long.MAX_VALUE;

    private final long[] lateIoCount = new long[IoOpCode.COUNT];
    private final long[] closedIoCount = new long[IoOpCode.COUNT];
    private final long[] closedBytes = new long[IoOpCode.COUNT];
    private final long[] closedWindowCount = new long[IoOpCode.COUNT];

    /**
     * @param windowSizeNs window length, ns (> 0)
     * @param graceNs      how far behind the run's latest completion an I/O may arrive and still count (>= 0)
     * @param bins         latency bins of every window
     * @param onClosed     receives each closed window once, in order of (windowStartNs, op)
     */
    public RunWindowAggregator(long windowSizeNs, long graceNs, LatencyBins bins, Consumer<WindowResult> onClosed) {
        if (windowSizeNs <= 0) {
            throw new IllegalArgumentException("windowSizeNs must be > 0, was " + windowSizeNs);
        }
        if (graceNs < 0) {
            throw new IllegalArgumentException("graceNs must be >= 0, was " + graceNs);
        }
        this.windowSizeNs = windowSizeNs;
        this.graceNs = graceNs;
        this.bins = Objects.requireNonNull(bins, "bins");
        this.onClosed = Objects.requireNonNull(onClosed, "onClosed");
        for (int i = 0; i < IoOpCode.COUNT; i++) {
            open.add(new ArrayList<>(4));
        }
    }

    /** Redirects closed windows, e.g. after {@link #decodeState} in a processor that owns a new context. */
    public void setOnClosed(Consumer<WindowResult> onClosed) {
        this.onClosed = Objects.requireNonNull(onClosed, "onClosed");
    }

    /**
     * Adds one completed I/O.
     *
     * @param op               op code 0..3 ({@link IoOpCode})
     * @param phaseIndex       phase of the I/O
     * @param completionTimeNs completion time, ns since run start (submit + latency)
     * @param sizeBytes        bytes transferred (>= 0)
     * @param latencyNs        latency, ns (>= 0)
     * @param status           0 = success, anything else counts as an error
     * @return false when the I/O was late (its window had already closed)
     */
    public boolean add(int op, int phaseIndex, long completionTimeNs, long sizeBytes, long latencyNs, int status) {
        if (op < 0 || op >= IoOpCode.COUNT) {
            IoOpCode.check(op);
        }
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must be >= 0, was " + sizeBytes);
        }
        if (latencyNs < 0) {
            throw new IllegalArgumentException("latencyNs must be >= 0, was " + latencyNs);
        }
        long index = Math.floorDiv(completionTimeNs, windowSizeNs);
        OpenWindow window = current[op];
        if (window == null || window.index != index) {
            if ((index + 1) * windowSizeNs <= watermarkNs) {
                lateIoCount[op]++;
                return false;
            }
            window = findOrOpen(op, index);
            current[op] = window;
        }
        window.add(phaseIndex, completionTimeNs, sizeBytes, latencyNs, status);
        if (!seenAny || completionTimeNs > maxCompletionTimeNs) {
            seenAny = true;
            maxCompletionTimeNs = completionTimeNs;
            long candidate = completionTimeNs - graceNs;
            if (candidate > watermarkNs) {
                watermarkNs = candidate;
                if (watermarkNs >= nextCloseEndNs) {
                    closeUpTo(watermarkNs);
                }
            }
        }
        return true;
    }

    private OpenWindow findOrOpen(int op, long index) {
        List<OpenWindow> windows = open.get(op);
        int position = windows.size();
        while (position > 0 && windows.get(position - 1).index >= index) {
            position--;
        }
        if (position < windows.size() && windows.get(position).index == index) {
            return windows.get(position);
        }
        OpenWindow created = new OpenWindow(op, index, bins);
        windows.add(position, created);
        nextCloseEndNs = Math.min(nextCloseEndNs, endOf(index));
        return created;
    }

    private long endOf(long index) {
        return (index + 1) * windowSizeNs;
    }

    /** Emits every open window with end <= limitNs in (start, op) order. */
    private void closeUpTo(long limitNs) {
        while (true) {
            int bestOp = -1;
            long bestIndex = Long.MAX_VALUE;
            for (int op = 0; op < IoOpCode.COUNT; op++) {
                List<OpenWindow> windows = open.get(op);
                if (!windows.isEmpty()) {
                    long index = windows.get(0).index;
                    if (endOf(index) <= limitNs && index < bestIndex) {
                        bestIndex = index;
                        bestOp = op;
                    }
                }
            }
            if (bestOp < 0) {
                break;
            }
            OpenWindow closed = open.get(bestOp).remove(0);
            if (current[bestOp] == closed) {
                current[bestOp] = null;
            }
            closedIoCount[bestOp] += closed.ioCount;
            closedBytes[bestOp] += closed.bytes;
            closedWindowCount[bestOp]++;
            onClosed.accept(closed.toResult(windowSizeNs));
        }
        long next = Long.MAX_VALUE;
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            List<OpenWindow> windows = open.get(op);
            if (!windows.isEmpty()) {
                next = Math.min(next, endOf(windows.get(0).index));
            }
        }
        nextCloseEndNs = next;
    }

    /**
     * The producer says that every I/O completing before {@code completeUpToNs} has arrived: the watermark moves
     * there if it is behind, and the windows ending at or before it close now instead of after the grace. An I/O
     * that arrives for one of them anyway counts as late, as one behind the grace does; when the producer is right,
     * none does, and the windows are the same as with the grace alone.
     */
    public void advanceWatermark(long completeUpToNs) {
        if (completeUpToNs > watermarkNs) {
            watermarkNs = completeUpToNs;
            if (watermarkNs >= nextCloseEndNs) {
                closeUpTo(watermarkNs);
            }
        }
    }

    /**
     * The newest open window of an op as it stands (its I/Os so far), or null when the op has none; the window
     * stays open. The result shares the window's latency histogram when the window has one phase: read it before
     * the next I/O is added.
     */
    public WindowResult newestOpen(int op) {
        List<OpenWindow> windows = open.get(IoOpCode.check(op));
        return windows.isEmpty() ? null : windows.get(windows.size() - 1).toResult(windowSizeNs);
    }

    /**
     * Closes every open window (the run finished or was aborted). Later I/Os for those windows, or any
     * earlier ones, count as late.
     */
    public void flushAll() {
        long maxEnd = Long.MIN_VALUE;
        for (List<OpenWindow> windows : open) {
            if (!windows.isEmpty()) {
                maxEnd = Math.max(maxEnd, endOf(windows.get(windows.size() - 1).index));
            }
        }
        if (maxEnd != Long.MIN_VALUE) {
            closeUpTo(maxEnd);
            watermarkNs = Math.max(watermarkNs, maxEnd);
        }
    }

    public long windowSizeNs() {
        return windowSizeNs;
    }

    public long graceNs() {
        return graceNs;
    }

    public LatencyBins bins() {
        return bins;
    }

    /** (max completion seen) - grace, or the producer's completion time if later; Long.MIN_VALUE before either. */
    public long watermarkNs() {
        return watermarkNs;
    }

    /** Latest completion time seen; Long.MIN_VALUE before the first I/O. */
    public long maxCompletionTimeNs() {
        return maxCompletionTimeNs;
    }

    public long lateIoCount(int op) {
        return lateIoCount[IoOpCode.check(op)];
    }

    public long lateIoCount() {
        long total = 0;
        for (long late : lateIoCount) {
            total += late;
        }
        return total;
    }

    /** I/Os of op in windows closed so far (steady-state feeders read per-window values from the callback). */
    public long closedIoCount(int op) {
        return closedIoCount[IoOpCode.check(op)];
    }

    public long closedBytes(int op) {
        return closedBytes[IoOpCode.check(op)];
    }

    public long closedWindowCount(int op) {
        return closedWindowCount[IoOpCode.check(op)];
    }

    public int openWindowCount() {
        int total = 0;
        for (List<OpenWindow> windows : open) {
            total += windows.size();
        }
        return total;
    }

    /** Compact binary state (config, watermark, counters, open windows with uncompressed histograms). */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(4096);
        out.writeByte(STATE_VERSION);
        out.writeUnsignedVarLong(windowSizeNs).writeUnsignedVarLong(graceNs);
        out.writeUnsignedVarLong(bins.edgeCount());
        for (int i = 0; i < bins.edgeCount(); i++) {
            out.writeUnsignedVarLong(bins.upperBoundNs(i));
        }
        out.writeByte(seenAny ? 1 : 0);
        out.writeVarLong(maxCompletionTimeNs).writeVarLong(watermarkNs);
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            out.writeUnsignedVarLong(lateIoCount[op])
                    .writeUnsignedVarLong(closedIoCount[op])
                    .writeUnsignedVarLong(closedBytes[op])
                    .writeUnsignedVarLong(closedWindowCount[op]);
        }
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            List<OpenWindow> windows = open.get(op);
            out.writeUnsignedVarLong(windows.size());
            for (OpenWindow w : windows) {
                out.writeVarLong(w.index)
                        .writeVarLong(w.maxCompletionNs)
                        .writeVarLong(w.phaseIndex)
                        .writeUnsignedVarLong(w.ioCount)
                        .writeUnsignedVarLong(w.bytes)
                        .writeUnsignedVarLong(w.errorCount);
                w.encodeInto(out);
            }
        }
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            OpenWindow w = current[op];
            out.writeByte(w == null ? 0 : 1);
            if (w != null) {
                out.writeVarLong(w.index);
            }
        }
        return out.toByteArray();
    }

    /** Restores an aggregator from {@link #encodeState()}; windows it closes later go to {@code onClosed}. */
    public static RunWindowAggregator decodeState(byte[] state, Consumer<WindowResult> onClosed) {
        BinaryReader in = new BinaryReader(state, "run window aggregator state");
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("run window aggregator state: unsupported version " + version);
        }
        long size = in.readUnsignedVarLong("windowSizeNs");
        long grace = in.readUnsignedVarLong("graceNs");
        int edges = in.readCount("edge count", 4096);
        long[] bounds = new long[edges];
        for (int i = 0; i < edges; i++) {
            bounds[i] = in.readUnsignedVarLong("edge");
        }
        RunWindowAggregator agg = new RunWindowAggregator(size, grace, LatencyBins.of(bounds), onClosed);
        agg.seenAny = in.readByte("seenAny") != 0;
        agg.maxCompletionTimeNs = in.readVarLong("maxCompletionTimeNs");
        agg.watermarkNs = in.readVarLong("watermarkNs");
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            agg.lateIoCount[op] = in.readUnsignedVarLong("lateIoCount");
            agg.closedIoCount[op] = in.readUnsignedVarLong("closedIoCount");
            agg.closedBytes[op] = in.readUnsignedVarLong("closedBytes");
            agg.closedWindowCount[op] = in.readUnsignedVarLong("closedWindowCount");
        }
        long next = Long.MAX_VALUE;
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            int n = in.readCount("open window count", 1 << 20);
            List<OpenWindow> windows = agg.open.get(op);
            for (int i = 0; i < n; i++) {
                long index = in.readVarLong("window index");
                OpenWindow w = new OpenWindow(op, index, agg.bins);
                w.maxCompletionNs = in.readVarLong("maxCompletionNs");
                w.phaseIndex = (int) in.readVarLong("phaseIndex");
                w.ioCount = in.readUnsignedVarLong("ioCount");
                w.bytes = in.readUnsignedVarLong("bytes");
                w.errorCount = in.readUnsignedVarLong("errorCount");
                w.decodeFrom(in);
                windows.add(w);
                next = Math.min(next, agg.endOf(index));
            }
        }
        for (int op = 0; op < IoOpCode.COUNT; op++) {
            if (in.readByte("current window flag") != 0) {
                long index = in.readVarLong("current window index");
                for (OpenWindow w : agg.open.get(op)) {
                    if (w.index == index) {
                        agg.current[op] = w;
                    }
                }
                if (agg.current[op] == null) {
                    throw new IllegalArgumentException(
                            "run window aggregator state: current window " + index + " of op " + op + " is not open");
                }
            }
        }
        in.expectEnd();
        agg.nextCloseEndNs = next;
        return agg;
    }

    private static final class OpenWindow {
        final int op;
        final long index;
        final LatencyBins bins;
        /** Parts by ascending phase; almost always exactly one. Complete only while {@link #loaded}. */
        final List<Part> parts = new ArrayList<>(1);

        Part lastPart;
        /**
         * {@link #lastPart}'s phase, {@link Integer#MIN_VALUE} while there is none: one comparison decides whether
         * the part changes. As {@code lastPart == null || lastPart.phaseIndex != phase}, the second test is false
         * for every I/O of a run's first phase, the JIT compiles it as never true, and the next phase's first I/O
         * deoptimises every compiled caller (the device runner's whole I/O loop, in an offline device run).
         */
        int lastPartPhase = Integer.MIN_VALUE;
        /** Whether {@link #parts} hold every I/O of the window (false after a restore until touched or closed). */
        boolean loaded = true;
        /** The parts as last encoded; valid while {@link #encodedValid} (no I/O added since). */
        byte[] encodedParts;

        boolean encodedValid;
        long ioCount;
        long bytes;
        long errorCount;
        long maxCompletionNs = Long.MIN_VALUE;
        int phaseIndex = Integer.MIN_VALUE;

        OpenWindow(int op, long index, LatencyBins bins) {
            this.op = op;
            this.index = index;
            this.bins = bins;
        }

        void add(int phase, long completionTimeNs, long sizeBytes, long latencyNs, int status) {
            load();
            encodedValid = false;
            Part part = lastPart;
            if (lastPartPhase != phase) {
                part = partFor(phase);
                lastPart = part;
                lastPartPhase = phase;
            }
            part.add(completionTimeNs, sizeBytes, latencyNs, status);
            ioCount++;
            bytes += sizeBytes;
            if (status != 0) {
                errorCount++;
            }
            if (completionTimeNs > maxCompletionNs || (completionTimeNs == maxCompletionNs && phase > phaseIndex)) {
                maxCompletionNs = completionTimeNs;
                phaseIndex = phase;
            }
        }

        /** Makes {@link #parts} complete by decoding the restored encoding. */
        void load() {
            if (loaded) {
                return;
            }
            BinaryReader in = new BinaryReader(encodedParts, "open window parts");
            int count = in.readCount("phase part count", 1 << 20);
            for (int p = 0; p < count; p++) {
                int phase = (int) in.readVarLong("part phaseIndex");
                parts.add(IoTotals.decodeFrom(in, "part ", latency -> new Part(phase, latency)));
            }
            in.expectEnd();
            loaded = true;
        }

        /** The parts, encoded again only if an I/O was added since the last encoding (histogram codec cost). */
        void encodeInto(BinaryWriter out) {
            if (!encodedValid) {
                BinaryWriter parts = new BinaryWriter(8192);
                parts.writeUnsignedVarLong(this.parts.size());
                for (Part part : this.parts) {
                    parts.writeVarLong(part.phaseIndex);
                    part.encodeInto(parts, false);
                }
                encodedParts = parts.toByteArray();
                encodedValid = true;
            }
            out.writeBlock(encodedParts);
        }

        void decodeFrom(BinaryReader in) {
            encodedParts = in.readBlock("window parts");
            encodedValid = true;
            loaded = false;
        }

        Part partFor(int phase) {
            int position = 0;
            while (position < parts.size() && parts.get(position).phaseIndex < phase) {
                position++;
            }
            if (position < parts.size() && parts.get(position).phaseIndex == phase) {
                return parts.get(position);
            }
            Part created = new Part(phase, new LatencyAccumulator(bins));
            parts.add(position, created);
            return created;
        }

        WindowResult toResult(long windowSizeNs) {
            load();
            List<PhasePart> phaseParts = new ArrayList<>(parts.size());
            LatencyAccumulator latency;
            if (parts.size() == 1) {
                latency = parts.get(0).latency;
            } else {
                latency = new LatencyAccumulator(bins);
                for (Part part : parts) {
                    latency.merge(part.latency);
                }
            }
            for (Part part : parts) {
                phaseParts.add(new PhasePart(
                        part.phaseIndex,
                        part.ioCount,
                        part.bytes,
                        part.errorCount,
                        part.firstSubmitNs,
                        part.lastCompletionNs,
                        part.latency));
            }
            return new WindowResult(
                    op,
                    index * windowSizeNs,
                    windowSizeNs,
                    phaseIndex,
                    ioCount,
                    bytes,
                    errorCount,
                    latency,
                    phaseParts);
        }
    }

    /** The I/Os of one phase in an open window. */
    private static final class Part extends IoTotals {
        final int phaseIndex;

        Part(int phaseIndex, LatencyAccumulator latency) {
            super(latency);
            this.phaseIndex = phaseIndex;
        }
    }
}
