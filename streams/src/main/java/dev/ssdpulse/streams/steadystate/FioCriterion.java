package dev.ssdpulse.streams.steadystate;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * One fio-style steady-state criterion (fio's {@code ss}, {@code ss_dur}, {@code ss_ramp}).
 *
 * @param mode       iops, iops_slope, bw or bw_slope
 * @param limit      the limit; a percentage of the mean when {@code percent}
 * @param percent    whether the limit is a percentage
 * @param durationNs ss_dur, ns
 * @param rampNs     ss_ramp, ns
 */
public record FioCriterion(
        FioSteadyStateDetector.Mode mode, double limit, boolean percent, long durationNs, long rampNs) {

    /**
     * Parses {@code MODE:LIMIT[%]:DURATION[:RAMP]}, e.g. {@code iops_slope:0.3%:60}, {@code bw:20%:2m:10s}: the one
     * syntax of every option that takes a fio criterion. Durations take ns/us/ms/s/m/h; a bare number is seconds,
     * as fio's {@code ss_dur}.
     */
    public static FioCriterion parse(String text) {
        String[] parts = text.trim().split(":");
        if (parts.length < 3 || parts.length > 4) {
            throw new IllegalArgumentException("fio criterion '" + text
                    + "' must be MODE:LIMIT[%]:DURATION[:RAMP], e.g. iops_slope:0.3%:60 or iops_slope:1%:300s");
        }
        FioSteadyStateDetector.Mode mode;
        try {
            mode = FioSteadyStateDetector.Mode.parse(parts[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fio criterion '" + text + "': " + e.getMessage(), e);
        }
        String limitText = parts[1].trim();
        boolean percent = limitText.endsWith("%");
        double limit;
        try {
            limit = Double.parseDouble(percent ? limitText.substring(0, limitText.length() - 1) : limitText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "fio criterion '" + text + "': limit '" + limitText + "' is not a number");
        }
        if (!Double.isFinite(limit) || limit < 0) {
            throw new IllegalArgumentException("fio criterion '" + text + "': limit must be >= 0");
        }
        long durationNs = durationNs(text, "duration", parts[2]);
        long rampNs = parts.length == 4 ? durationNs(text, "ramp", parts[3]) : 0L;
        if (durationNs <= 0) {
            throw new IllegalArgumentException("fio criterion '" + text + "': the duration must be longer than 0");
        }
        return new FioCriterion(mode, limit, percent, durationNs, rampNs);
    }

    /** "300s", "5m", "1.5h", "250ms", "60" (seconds) -> ns; {@code spec} and {@code what} name it in the error. */
    public static long durationNs(String spec, String what, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        String[][] units = {
            {"ns", "1"},
            {"us", "1000"},
            {"ms", "1000000"},
            {"s", "1000000000"},
            {"m", "60000000000"},
            {"h", "3600000000000"}
        };
        String number = v;
        long unitNs = 1_000_000_000L;
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                number = v.substring(0, v.length() - u[0].length());
                unitNs = Long.parseLong(u[1]);
                break;
            }
        }
        try {
            return new BigDecimal(number.trim())
                    .multiply(BigDecimal.valueOf(unitNs))
                    .longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "'" + spec + "': " + what + " '" + value + "' is not a duration (e.g. 60s, 5m, 1.5h) of whole ns");
        }
    }

    public FioSteadyStateDetector newDetector(long startNs, long intervalNs) {
        return new FioSteadyStateDetector(mode, limit, percent, durationNs, rampNs, startNs, intervalNs);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%s:%s%s:%s:%s",
                mode.name().toLowerCase(Locale.ROOT),
                limit,
                percent ? "%" : "",
                durationNs / 1e9,
                rampNs / 1e9);
    }
}
