package dev.ssdpulse.streams.steadystate;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Steady state per SNIA Solid State Storage Performance Test Specification (PTS) 2.0.x, applied to a
 * streamed run. Definitions used (PTS 2.0.x, section 2.1 "Definitions", paraphrased):
 * <ul>
 *   <li><b>Round</b>: a complete pass through the prescribed test points. Here a round is a fixed span of
 *       run time ({@code roundNs}, 60 s by default, counted from {@code startNs}) and its tracked value is the
 *       mean IOPS (or bytes/s) over that span: I/Os completed in the round / round length.</li>
 *   <li><b>Measurement Window</b>: the rounds x-4 .. x, i.e. the last 5 rounds, ending with the round x in
 *       which steady state is observed.</li>
 *   <li><b>Steady State</b>, for the tracked variable y over the measurement window:
 *       (a) Max(y) - Min(y) is no more than 20 % of Ave(y), and
 *       (b) the excursion of the least-squares best-fit line, i.e. the difference between its maximum and
 *       minimum values over the window = |slope| x (5 - 1) rounds, is within 10 % of Ave(y).
 *       "No more than" / "within": both comparisons are inclusive (<=).</li>
 *   <li><b>Steady State Convergence</b>: rounds are repeated until steady state or a maximum number of rounds
 *       (25 in the PTS); after that the verdict is final: not reached.</li>
 * </ul>
 * The comparisons are made on round totals cross-multiplied (range x 100 x n <= pct x sum, and
 * |2 x Sum((x - xbar) y)| x (n-1) x 100 x n <= pct x sum x 2 x Sxx), which are exact for integer totals,
 * so series exactly at a limit are decided exactly as the definition says.
 *
 * <p>Feed it closed windows ({@link #acceptWindow}) or finished round values ({@link #acceptRound}); a
 * round completes when input for a later round arrives or at {@link #finish}. Rounds with no I/O have value 0.
 * A partial round at {@link #finish} is not evaluated. Not thread-safe.
 */
public final class SniaSteadyStateDetector {
    public static final long DEFAULT_ROUND_NS = 60_000_000_000L;
    private static final int STATE_VERSION = 1;
    public static final int DEFAULT_WINDOW_ROUNDS = 5;
    public static final double DEFAULT_RANGE_LIMIT_PERCENT = 20.0;
    public static final double DEFAULT_EXCURSION_LIMIT_PERCENT = 10.0;
    public static final int DEFAULT_MAX_ROUNDS = 25;

    private final long startNs;
    private final long roundNs;
    private final TrackedVariable variable;
    private final int windowRounds;
    private final double rangeLimitPercent;
    private final double excursionLimitPercent;
    private final int maxRounds;

    /** Round values so far (round totals when fed by windows, else the given values). */
    private final List<Double> rounds = new ArrayList<>();

    private long currentRound;
    private double currentTotal;
    private boolean decided;
    private SteadyStateResult last;

    /** PTS defaults: 60-s rounds, 5-round window, 20 % range, 10 % excursion, 25 rounds max. */
    public SniaSteadyStateDetector(long startNs, TrackedVariable variable) {
        this(
                startNs,
                DEFAULT_ROUND_NS,
                variable,
                DEFAULT_WINDOW_ROUNDS,
                DEFAULT_RANGE_LIMIT_PERCENT,
                DEFAULT_EXCURSION_LIMIT_PERCENT,
                DEFAULT_MAX_ROUNDS);
    }

    /**
     * @param startNs               run time at which round 1 starts, ns; when fed windows, it must lie on the window
     *                              grid (use the first window start at or after the phase start) so that no window
     *                              straddles a round
     * @param roundNs               round length, ns
     * @param variable              tracked variable
     * @param windowRounds          rounds in the measurement window (PTS: 5)
     * @param rangeLimitPercent     PTS: 20
     * @param excursionLimitPercent PTS: 10
     * @param maxRounds             PTS: 25 (>= windowRounds)
     */
    public SniaSteadyStateDetector(
            long startNs,
            long roundNs,
            TrackedVariable variable,
            int windowRounds,
            double rangeLimitPercent,
            double excursionLimitPercent,
            int maxRounds) {
        if (roundNs <= 0) {
            throw new IllegalArgumentException("SNIA steady state: roundNs must be > 0, was " + roundNs);
        }
        if (windowRounds < 2) {
            throw new IllegalArgumentException("SNIA steady state: windowRounds must be >= 2, was " + windowRounds);
        }
        if (maxRounds < windowRounds) {
            throw new IllegalArgumentException(
                    "SNIA steady state: maxRounds (" + maxRounds + ") must be >= windowRounds (" + windowRounds + ")");
        }
        if (!(rangeLimitPercent >= 0) || !(excursionLimitPercent >= 0)) {
            throw new IllegalArgumentException("SNIA steady state: limits must be >= 0 percent, were range "
                    + rangeLimitPercent + " and excursion " + excursionLimitPercent);
        }
        this.startNs = startNs;
        this.roundNs = roundNs;
        this.variable = variable;
        this.windowRounds = windowRounds;
        this.rangeLimitPercent = rangeLimitPercent;
        this.excursionLimitPercent = excursionLimitPercent;
        this.maxRounds = maxRounds;
    }

    /**
     * Adds one closed window of the tracked op. Windows must arrive in start order and lie inside one round
     * (round length a multiple of the window size, aligned on startNs). Windows before startNs are ignored.
     *
     * @return verdicts for the rounds this window completed (usually none)
     */
    public List<SteadyStateResult> acceptWindow(long windowStartNs, long windowSizeNs, long ioCount, long bytes) {
        if (decided || windowStartNs < startNs) {
            return List.of();
        }
        long round = Math.floorDiv(windowStartNs - startNs, roundNs);
        long lastRound = Math.floorDiv(windowStartNs + windowSizeNs - 1 - startNs, roundNs);
        if (round != lastRound) {
            throw new IllegalArgumentException("SNIA steady state: window [" + windowStartNs + ", "
                    + (windowStartNs + windowSizeNs) + ") ns straddles a round boundary; round length " + roundNs
                    + " ns must be a multiple of the window size and rounds aligned on windows");
        }
        if (round < currentRound) {
            throw new IllegalArgumentException("SNIA steady state: window at " + windowStartNs
                    + " ns arrived after round " + (currentRound + 1) + " began; windows must come in time order");
        }
        List<SteadyStateResult> results = new ArrayList<>(1);
        while (currentRound < round && !decided) {
            completeRound(results);
        }
        if (!decided) {
            currentTotal += variable == TrackedVariable.IOPS ? ioCount : bytes;
        }
        return results;
    }

    /** Adds a finished round's value directly (IOPS or bytes/s); its end time is derived from the round number. */
    public Optional<SteadyStateResult> acceptRound(double value) {
        if (decided) {
            return Optional.empty();
        }
        currentTotal = value * roundNs / 1e9;
        List<SteadyStateResult> results = new ArrayList<>(1);
        completeRound(results);
        return results.stream().findFirst();
    }

    /**
     * The series ended at endNs (phase or run over): completes the round that ends by endNs, then returns the
     * final verdict (not reached) if none was final yet.
     */
    public Optional<SteadyStateResult> finish(long endNs) {
        if (decided) {
            return Optional.empty();
        }
        List<SteadyStateResult> results = new ArrayList<>(1);
        while (!decided && startNs + (currentRound + 1) * roundNs <= endNs) {
            completeRound(results);
        }
        if (decided) {
            return Optional.of(results.get(results.size() - 1));
        }
        decided = true;
        long endOfLastRound = startNs + rounds.size() * roundNs;
        SteadyStateResult base = last;
        String why = "series ended after " + rounds.size() + " complete round(s) without reaching steady state"
                + (base == null
                        ? " (fewer than " + windowRounds + " rounds)"
                        : "; last evaluation: " + base.explanation());
        last = base == null
                ? new SteadyStateResult(
                        SteadyStateMethod.SNIA_PTS,
                        false,
                        true,
                        endOfLastRound,
                        startNs,
                        endOfLastRound,
                        rounds.size(),
                        Double.NaN,
                        Double.NaN,
                        Double.NaN,
                        rangeLimitPercent / 100.0,
                        criteria(),
                        why)
                : new SteadyStateResult(
                        SteadyStateMethod.SNIA_PTS,
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
                        why);
        return Optional.of(last);
    }

    private void completeRound(List<SteadyStateResult> results) {
        rounds.add(currentTotal);
        currentTotal = 0;
        currentRound++;
        if (rounds.size() >= windowRounds) {
            SteadyStateResult result = evaluate();
            last = result;
            decided = result.finalVerdict();
            results.add(result);
        }
    }

    private SteadyStateResult evaluate() {
        int n = windowRounds;
        int x = rounds.size();
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = rounds.get(x - n + i);
        }
        double sum = 0;
        double max = Double.NEGATIVE_INFINITY;
        double min = Double.POSITIVE_INFINITY;
        for (double v : y) {
            sum += v;
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        double range = max - min;
        double twiceSxy = LeastSquares.twiceCentredSxy(y);
        double twiceSxx = 2.0 * LeastSquares.sxx(n);
        boolean positive = sum > 0;
        boolean rangeOk = positive && range * 100.0 * n <= rangeLimitPercent * sum;
        boolean excursionOk =
                positive && Math.abs(twiceSxy) * (n - 1) * 100.0 * n <= excursionLimitPercent * sum * twiceSxx;
        boolean reached = rangeOk && excursionOk;
        boolean isFinal = reached || x >= maxRounds;

        double scale = 1e9 / roundNs; // round total -> per second
        double mean = sum / n * scale;
        double slopePerRound = twiceSxy / twiceSxx * scale;
        double excursion = Math.abs(slopePerRound) * (n - 1);
        long windowEnd = startNs + x * roundNs;
        long windowStart = windowEnd - n * roundNs;
        String unit = variable == TrackedVariable.IOPS ? "IOPS" : "B/s";
        String explanation = String.format(
                Locale.ROOT,
                "rounds %d-%d: mean %.6g %s; range %.6g = %.4f%% of mean (limit %s%%) %s; best-fit excursion %.6g"
                        + " = %.4f%% of mean (limit %s%%) %s; %s",
                x - n + 1,
                x,
                mean,
                unit,
                range * scale,
                percentOf(range * scale, mean),
                fmt(rangeLimitPercent),
                rangeOk ? "ok" : "exceeded",
                excursion,
                percentOf(excursion, mean),
                fmt(excursionLimitPercent),
                excursionOk ? "ok" : "exceeded",
                reached
                        ? "steady state reached in round " + x
                        : (!positive ? "mean is 0, no steady state; " : "")
                                + (x >= maxRounds ? "not reached within " + maxRounds + " rounds (final)" : "not yet"));
        return new SteadyStateResult(
                SteadyStateMethod.SNIA_PTS,
                reached,
                isFinal,
                windowEnd,
                windowStart,
                windowEnd,
                x,
                mean,
                range * scale,
                slopePerRound,
                rangeLimitPercent / 100.0,
                criteria(),
                explanation);
    }

    private static double percentOf(double value, double mean) {
        return mean == 0 ? Double.NaN : 100.0 * value / mean;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    public String criteria() {
        return String.format(
                Locale.ROOT,
                "snia %s round=%ss window=%d range<=%s%% excursion<=%s%% maxRounds=%d",
                variable == TrackedVariable.IOPS ? "iops" : "bw",
                fmt(roundNs / 1e9),
                windowRounds,
                fmt(rangeLimitPercent),
                fmt(excursionLimitPercent),
                maxRounds);
    }

    /** Configuration and progress, for a state store. */
    public byte[] encodeState() {
        BinaryWriter out = new BinaryWriter(256);
        out.writeByte(STATE_VERSION)
                .writeVarLong(startNs)
                .writeUnsignedVarLong(roundNs)
                .writeByte(variable.ordinal())
                .writeUnsignedVarLong(windowRounds)
                .writeDouble(rangeLimitPercent)
                .writeDouble(excursionLimitPercent)
                .writeUnsignedVarLong(maxRounds);
        out.writeUnsignedVarLong(rounds.size());
        for (double r : rounds) {
            out.writeDouble(r);
        }
        out.writeVarLong(currentRound).writeDouble(currentTotal).writeBoolean(decided);
        SteadyStateResultCodec.write(out, last);
        return out.toByteArray();
    }

    public static SniaSteadyStateDetector decodeState(byte[] state) {
        BinaryReader in = new BinaryReader(state, "SNIA steady-state detector state");
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalArgumentException("SNIA steady-state detector state: unsupported version " + version);
        }
        long start = in.readVarLong("startNs");
        long round = in.readUnsignedVarLong("roundNs");
        int variable = in.readByte("variable");
        if (variable >= TrackedVariable.values().length) {
            throw new IllegalArgumentException("SNIA steady-state detector state: unknown variable " + variable);
        }
        SniaSteadyStateDetector d = new SniaSteadyStateDetector(
                start,
                round,
                TrackedVariable.values()[variable],
                in.readCount("windowRounds", 1 << 20),
                in.readDouble("rangeLimitPercent"),
                in.readDouble("excursionLimitPercent"),
                in.readCount("maxRounds", Integer.MAX_VALUE));
        int count = in.readCount("round count", 1 << 24);
        for (int i = 0; i < count; i++) {
            d.rounds.add(in.readDouble("round value"));
        }
        d.currentRound = in.readVarLong("currentRound");
        d.currentTotal = in.readDouble("currentTotal");
        d.decided = in.readBoolean("decided");
        d.last = SteadyStateResultCodec.read(in);
        in.expectEnd();
        return d;
    }

    public boolean isDecided() {
        return decided;
    }
}
