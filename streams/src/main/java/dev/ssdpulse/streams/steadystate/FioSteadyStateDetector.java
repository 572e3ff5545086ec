package dev.ssdpulse.streams.steadystate;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * fio's steady-state detection (fio {@code steadystate.c}: {@code steadystate_deviation},
 * {@code steadystate_slope}, {@code steadystate_check}), reproduced on event-time samples:
 * <ul>
 *   <li>One sample per interval (fio: {@code ss_check_interval}, 1 s): iops = 1e9 x I/Os / intervalNs and
 *       bw = 1e9 x bytes / intervalNs, truncated to integers as fio's {@code 1000 * delta / rate_time_ms}.
 *       bw is in bytes per second, so an absolute bw limit is too.</li>
 *   <li>{@code ss_ramp}: samples of intervals starting before startNs + rampNs are not recorded.</li>
 *   <li>{@code ss_dur}: the rolling window holds the last dur / interval samples; nothing is evaluated until it
 *       is full, then every new sample re-evaluates it.</li>
 *   <li>iops / bw ({@code steadystate_deviation}): mean = sum / n; criterion = max |y_i - mean|, or
 *       100 x that / mean for a percentage limit; steady when criterion &lt; limit (strict, as fio).</li>
 *   <li>iops_slope / bw_slope ({@code steadystate_slope}): x = 0..n-1 (equal spacing assumed, as fio);
 *       slope = (Sxy - Sx Sy / n) / (Sxx - Sx^2 / n); criterion = slope, or 100 x slope / mean for a
 *       percentage limit, where fio's mean here is the <i>integer</i> quotient sum_y / dur (C integer
 *       division, reproduced); steady when |criterion| &lt; limit (strict).</li>
 *   <li>Once steady, fio stops the job: the verdict is final. When the series ends first ({@link #finish}), the
 *       final verdict is "not reached".</li>
 *   <li>Beyond fio: the job goes on here, so the window keeps rolling after the verdict and each evaluation
 *       updates "steady now"; a change (steady state lost, or found again) is reported with the time it was
 *       first reached and last lost, while fio's verdict stays reached.</li>
 * </ul>
 * The arithmetic is fio's, in the same order, on the same integer samples, so the decision at a limit is
 * the one fio would take. Intervals with no I/O give a 0 sample. Not thread-safe.
 */
public final class FioSteadyStateDetector {
    /** fio's modes. */
    public enum Mode {
        IOPS(SteadyStateMethod.FIO_IOPS, false, false, "iops"),
        IOPS_SLOPE(SteadyStateMethod.FIO_IOPS_SLOPE, false, true, "iops_slope"),
        BW(SteadyStateMethod.FIO_BW, true, false, "bw"),
        BW_SLOPE(SteadyStateMethod.FIO_BW_SLOPE, true, true, "bw_slope");

        final SteadyStateMethod method;
        final boolean bandwidth;
        final boolean slope;
        final String fioName;

        Mode(SteadyStateMethod method, boolean bandwidth, boolean slope, String fioName) {
            this.method = method;
            this.bandwidth = bandwidth;
            this.slope = slope;
            this.fioName = fioName;
        }

        public SteadyStateMethod method() {
            return method;
        }

        /** Parses fio's names: iops, iops_slope, bw, bw_slope. */
        public static Mode parse(String text) {
            for (Mode m : values()) {
                if (m.fioName.equalsIgnoreCase(text.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException(
                    "fio steady-state mode '" + text + "' is not one of iops, iops_slope, bw, bw_slope");
        }
    }

    public static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;
    /** 2: with the steady-now tracking after fio's verdict. */
    private static final int STATE_VERSION = 2;

    private final Mode mode;
    private final double limit;
    private final boolean percent;
    private final long durationNs;
    private final long rampNs;
    private final long startNs;
    private final long intervalNs;
    private final int n;

    private final long[] ring;
    private int filled;
    private int head;
    /** Index (from startNs) of the next interval to be recorded; earlier ones were recorded or skipped. */
    private long nextInterval;

    private long pendingInterval = -1;
    private long pendingIos;
    private long pendingBytes;
    /** fio's verdict is in: reached (fio would stop the job), or the series ended without it. */
    private boolean decided;
    /** The series ended ({@link #finish}): nothing more is recorded. */
    private boolean ended;
    /** Whether the criterion held at the latest evaluation since the first reach; false before. */
    private boolean steadyNow;

    private Long reachedAtNs;
    private Long lostAtNs;
    private SteadyStateResult last;

    /**
     * @param mode       iops, iops_slope, bw or bw_slope
     * @param limit      fio's ss limit: a percentage (e.g. 20 for "20%") when percent, else absolute
     *                   (IOPS, bytes/s; per interval for slopes)
     * @param percent    whether the limit is a percentage of the mean
     * @param durationNs fio's ss_dur: length of the rolling window (a multiple of intervalNs)
     * @param rampNs     fio's ss_ramp: time after startNs whose samples are not recorded
     * @param startNs    job (phase) start, ns since run start; intervals are aligned on it, so when fed windows it
     *                   must lie on the window grid (use the first window start at or after the phase start).
     *                   fio sums all directions: feed every op's windows for that, or one op's for a per-op verdict
     * @param intervalNs sample interval (fio: ss_check_interval, 1 s); windows fed in must be this long
     */
    public FioSteadyStateDetector(
            Mode mode, double limit, boolean percent, long durationNs, long rampNs, long startNs, long intervalNs) {
        if (intervalNs <= 0) {
            throw new IllegalArgumentException("fio steady state: intervalNs must be > 0, was " + intervalNs);
        }
        if (durationNs < 2 * intervalNs || durationNs % intervalNs != 0) {
            throw new IllegalArgumentException("fio steady state: duration " + durationNs
                    + " ns must be a multiple of the interval " + intervalNs + " ns and hold at least 2 samples");
        }
        if (rampNs < 0 || rampNs % intervalNs != 0) {
            throw new IllegalArgumentException("fio steady state: ramp " + rampNs
                    + " ns must be >= 0 and a multiple of the interval " + intervalNs + " ns");
        }
        if (!(limit >= 0)) {
            throw new IllegalArgumentException("fio steady state: limit must be >= 0, was " + limit);
        }
        this.mode = mode;
        this.limit = limit;
        this.percent = percent;
        this.durationNs = durationNs;
        this.rampNs = rampNs;
        this.startNs = startNs;
        this.intervalNs = intervalNs;
        this.n = Math.toIntExact(durationNs / intervalNs);
        this.ring = new long[n];
        this.nextInterval = rampNs / intervalNs;
    }

    /** 1-s samples. */
    public FioSteadyStateDetector(
            Mode mode, double limit, boolean percent, long durationNs, long rampNs, long startNs) {
        this(mode, limit, percent, durationNs, rampNs, startNs, DEFAULT_INTERVAL_NS);
    }

    /**
     * Adds a closed window (of the tracked op(s); for fio's all-directions totals add the windows of every op
     * with the same start). Windows must be intervalNs long, aligned on startNs, in start order; several with
     * the same start add up. An interval becomes a sample when a window of a later interval arrives or at finish.
     *
     * @return the evaluations this window triggered (usually zero or one)
     */
    public List<SteadyStateResult> acceptWindow(long windowStartNs, long windowSizeNs, long ioCount, long bytes) {
        if (windowSizeNs != intervalNs) {
            throw new IllegalArgumentException("fio steady state: window size " + windowSizeNs
                    + " ns differs from the sample interval " + intervalNs + " ns");
        }
        if (Math.floorMod(windowStartNs - startNs, intervalNs) != 0) {
            throw new IllegalArgumentException("fio steady state: window start " + windowStartNs
                    + " ns is not aligned on the job start " + startNs + " ns + k x " + intervalNs + " ns");
        }
        if (ended || windowStartNs < startNs) {
            return List.of();
        }
        long interval = (windowStartNs - startNs) / intervalNs;
        if (interval < rampNs / intervalNs) {
            return List.of();
        }
        if (interval < nextInterval || (pendingInterval >= 0 && interval < pendingInterval)) {
            throw new IllegalArgumentException("fio steady state: window at " + windowStartNs
                    + " ns arrived after a later one; windows must come in time order");
        }
        List<SteadyStateResult> results = new ArrayList<>(1);
        if (pendingInterval >= 0 && interval > pendingInterval) {
            recordPending(results);
        }
        recordZerosBefore(interval, results);
        pendingInterval = interval;
        pendingIos += ioCount;
        pendingBytes += bytes;
        return results;
    }

    /** Records zero samples for intervals before the pending one, then the pending interval's sample. */
    private void recordPending(List<SteadyStateResult> results) {
        recordZerosBefore(pendingInterval, results);
        record(sample(pendingIos, pendingBytes), pendingInterval, results);
        pendingInterval = -1;
        pendingIos = 0;
        pendingBytes = 0;
    }

    /** Intervals with no window are intervals with no I/O: 0 samples. */
    private void recordZerosBefore(long interval, List<SteadyStateResult> results) {
        for (long k = nextInterval; k < interval; k++) {
            record(0, k, results);
        }
    }

    private long sample(long ios, long bytes) {
        // fio: 1000 * delta / rate_time_ms, integer division; here 1e9 * delta / intervalNs.
        long value = mode.bandwidth ? bytes : ios;
        if (intervalNs == 1_000_000_000L) {
            return value;
        }
        return BigInteger.valueOf(value)
                .multiply(BigInteger.valueOf(1_000_000_000L))
                .divide(BigInteger.valueOf(intervalNs))
                .longValueExact();
    }

    /** Adds one sample value directly (IOPS or bytes/s per mode) for the next interval. */
    public Optional<SteadyStateResult> acceptSample(long value) {
        if (ended) {
            return Optional.empty();
        }
        if (pendingInterval >= 0) {
            throw new IllegalArgumentException("fio steady state: do not mix acceptSample with acceptWindow");
        }
        List<SteadyStateResult> results = new ArrayList<>(1);
        record(value, nextInterval, results);
        return results.stream().findFirst();
    }

    private void record(long value, long interval, List<SteadyStateResult> results) {
        int tail = (head + filled) % n;
        if (filled == n) {
            ring[head] = value;
            head = (head + 1) % n;
        } else {
            ring[tail] = value;
            filled++;
        }
        nextInterval = interval + 1;
        if (filled == n) {
            SteadyStateResult eval = evaluate(interval);
            if (!decided) {
                if (eval.reached()) {
                    decided = true;
                    steadyNow = true;
                    reachedAtNs = eval.decidedAtNs();
                }
                last = tracked(eval, eval.explanation());
                results.add(last);
            } else if (eval.reached() != steadyNow) {
                // after fio's verdict (final: fio stops the job there) the window rolls on, so a steady state
                // that does not last is reported as lost, and found again, instead of staying "reached"
                steadyNow = eval.reached();
                if (!steadyNow) {
                    lostAtNs = eval.decidedAtNs();
                }
                last = tracked(
                        eval,
                        (steadyNow ? "steady again" : "steady state lost")
                                + String.format(
                                        Locale.ROOT,
                                        " at %.3f s (fio's verdict stays: reached at %.3f s): ",
                                        eval.decidedAtNs() / 1e9,
                                        reachedAtNs / 1e9)
                                + eval.explanation());
                results.add(last);
            }
        }
    }

    /**
     * The evaluation as a result: fio's verdict (reached and final from the first reach on) and the steady-now state.
     */
    private SteadyStateResult tracked(SteadyStateResult eval, String explanation) {
        return new SteadyStateResult(
                mode.method,
                decided,
                decided,
                eval.decidedAtNs(),
                eval.windowStartNs(),
                eval.windowEndNs(),
                eval.roundsOrSamples(),
                eval.mean(),
                eval.range(),
                eval.slope(),
                eval.limit(),
                eval.criteria(),
                explanation,
                steadyNow,
                reachedAtNs,
                lostAtNs);
    }

    private SteadyStateResult evaluate(long interval) {
        long sumY = 0;
        long sumXy = 0;
        long maxY = Long.MIN_VALUE;
        long minY = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            long y = ring[(head + i) % n];
            sumY += y;
            sumXy += i * y;
            maxY = Math.max(maxY, y);
            minY = Math.min(minY, y);
        }
        double mean = (double) sumY / n;
        double criterion;
        double slope = Double.NaN;
        boolean reached;
        if (mode.slope) {
            long sumX = (long) n * (n - 1) / 2;
            long sumXSq = (long) (n - 1) * n * (2L * n - 1) / 6;
            slope = (sumXy - (double) sumX * sumY / n) / (sumXSq - (double) sumX * sumX / n);
            // fio: criterion = 100.0 * slope / (ss->sum_y / ss->dur) with integer operands: the mean is truncated
            criterion = percent ? 100.0 * slope / (double) (sumY / n) : slope;
            double result = criterion * (criterion < 0.0 ? -1.0 : 1.0);
            reached = result < limit;
        } else {
            double deviation = 0.0;
            for (int i = 0; i < n; i++) {
                double diff = ring[i] - mean;
                deviation = Math.max(deviation, diff * (diff < 0.0 ? -1.0 : 1.0));
            }
            criterion = percent ? 100.0 * deviation / mean : deviation;
            reached = criterion < limit;
            if (n >= 2) {
                slope = LeastSquares.slope(window());
            }
        }
        long windowEnd = startNs + (interval + 1) * intervalNs;
        long windowStart = windowEnd - (long) n * intervalNs;
        String unit = mode.bandwidth ? "B/s" : "IOPS";
        String what = mode.slope ? "|slope|" : "max deviation from mean";
        String explanation = String.format(
                Locale.ROOT,
                "%d samples [%.3f, %.3f) s: mean %.6g %s; %s = %.6g%s (limit %s%s, strict <) -> %s",
                n,
                windowStart / 1e9,
                windowEnd / 1e9,
                mean,
                unit,
                what,
                Math.abs(criterion),
                percent ? "% of mean" : " " + unit + (mode.slope ? " per sample" : ""),
                fmt(limit),
                percent ? "%" : "",
                reached ? "steady state reached" : "not yet");
        return new SteadyStateResult(
                mode.method,
                reached,
                reached,
                windowEnd,
                windowStart,
                windowEnd,
                n,
                mean,
                (double) (maxY - minY),
                slope * 1e9 / intervalNs,
                percent ? limit / 100.0 : limit,
                criteria(),
                explanation);
    }

    private double[] window() {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = ring[(head + i) % n];
        }
        return y;
    }

    /**
     * The series ended at endNs: records the intervals that ended by then, and returns the final verdict
     * (not reached) unless steady state was already reached.
     */
    public Optional<SteadyStateResult> finish(long endNs) {
        if (ended) {
            return Optional.empty();
        }
        if (decided) {
            ended = true;
            return Optional.empty();
        }
        long endInterval = Math.floorDiv(endNs - startNs, intervalNs);
        List<SteadyStateResult> results = new ArrayList<>(1);
        if (pendingInterval >= 0 && pendingInterval < endInterval) {
            recordPending(results);
        }
        recordZerosBefore(endInterval, results);
        ended = true;
        if (decided) {
            return Optional.of(results.get(results.size() - 1));
        }
        decided = true;
        SteadyStateResult base = last;
        String why = base == null
                ? "series ended with " + filled + " of " + n + " samples; window never full, not reached"
                : "series ended without reaching steady state; last evaluation: " + base.explanation();
        last = base == null
                ? new SteadyStateResult(
                        mode.method,
                        false,
                        true,
                        startNs + nextInterval * intervalNs,
                        startNs,
                        startNs + nextInterval * intervalNs,
                        filled,
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        percent ? limit / 100.0 : limit,
                        criteria(),
                        why,
                        false,
                        null,
                        null)
                : new SteadyStateResult(
                        mode.method,
                        false,
                        true,
                        base.decidedAtNs(),
                        base.windowStartNs(),
                        base.windowEndNs(),
                        base.roundsOrSamples(),
                        base.mean(),
                        base.range(),
                        base.slope(),
                        base.limit(),
                        base.criteria(),
                        why,
                        false,
                        null,
                        null);
        return Optional.of(last);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    /** e.g. "fio ss=iops_slope:0.3% ss_dur=60s ss_ramp=10s interval=1s". */
    public String criteria() {
        return String.format(
                Locale.ROOT,
                "fio ss=%s:%s%s ss_dur=%ss ss_ramp=%ss interval=%ss",
                mode.fioName,
                fmt(limit),
                percent ? "%" : "",
                fmt(durationNs / 1e9),
                fmt(rampNs / 1e9),
                fmt(intervalNs / 1e9));
    }

    /** Configuration and progress, for a state store. */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(64 + 10 * n);
        out.writeByte(STATE_VERSION)
                .writeByte(mode.ordinal())
                .writeDouble(limit)
                .writeBoolean(percent)
                .writeUnsignedVarLong(durationNs)
                .writeUnsignedVarLong(rampNs)
                .writeVarLong(startNs)
                .writeUnsignedVarLong(intervalNs);
        out.writeUnsignedVarLong(filled); // samples oldest first; the ring is rebuilt with head 0
        for (int i = 0; i < filled; i++) {
            out.writeVarLong(ring[(head + i) % n]);
        }
        out.writeVarLong(nextInterval)
                .writeVarLong(pendingInterval)
                .writeUnsignedVarLong(pendingIos)
                .writeUnsignedVarLong(pendingBytes)
                .writeBoolean(decided)
                .writeBoolean(ended)
                .writeBoolean(steadyNow)
                .writeNullableLong(reachedAtNs)
                .writeNullableLong(lostAtNs);
        SteadyStateResultCodec.write(out, last);
        return out.toByteArray();
    }

    public static FioSteadyStateDetector decodeState(byte[] state) {
        BinaryReader in = new BinaryReader(state, "fio steady-state detector state");
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("fio steady-state detector state: unsupported version " + version);
        }
        int mode = in.readByte("mode");
        if (mode >= Mode.values().length) {
            throw new IllegalArgumentException("fio steady-state detector state: unknown mode " + mode);
        }
        FioSteadyStateDetector d = new FioSteadyStateDetector(
                Mode.values()[mode],
                in.readDouble("limit"),
                in.readBoolean("percent"),
                in.readUnsignedVarLong("durationNs"),
                in.readUnsignedVarLong("rampNs"),
                in.readVarLong("startNs"),
                in.readUnsignedVarLong("intervalNs"));
        int filled = in.readCount("filled", d.n);
        for (int i = 0; i < filled; i++) {
            d.ring[i] = in.readVarLong("sample");
        }
        d.filled = filled;
        d.head = 0;
        d.nextInterval = in.readVarLong("nextInterval");
        d.pendingInterval = in.readVarLong("pendingInterval");
        d.pendingIos = in.readUnsignedVarLong("pendingIos");
        d.pendingBytes = in.readUnsignedVarLong("pendingBytes");
        d.decided = in.readBoolean("decided");
        d.ended = in.readBoolean("ended");
        d.steadyNow = in.readBoolean("steadyNow");
        d.reachedAtNs = in.readNullableLong("reachedAtNs");
        d.lostAtNs = in.readNullableLong("lostAtNs");
        d.last = SteadyStateResultCodec.read(in);
        in.expectEnd();
        return d;
    }
}
