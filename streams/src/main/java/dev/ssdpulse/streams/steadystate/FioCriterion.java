package dev.ssdpulse.streams.steadystate;

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
public record FioCriterion(FioSteadyStateDetector.Mode mode, double limit, boolean percent, long durationNs,
                           long rampNs) {

    /**
     * Parses {@code MODE:LIMIT[%]:DURATION_S[:RAMP_S]}, e.g. {@code iops_slope:0.3%:60} or {@code bw:20%:120:10}.
     */
    public static FioCriterion parse(String text) {
        String[] parts = text.trim().split(":");
        if (parts.length < 3 || parts.length > 4) {
            throw new IllegalArgumentException("fio criterion '" + text
                    + "' must be MODE:LIMIT[%]:DURATION_S[:RAMP_S], e.g. iops_slope:0.3%:60");
        }
        FioSteadyStateDetector.Mode mode = FioSteadyStateDetector.Mode.parse(parts[0]);
        String limitText = parts[1].trim();
        boolean percent = limitText.endsWith("%");
        double limit;
        try {
            limit = Double.parseDouble(percent ? limitText.substring(0, limitText.length() - 1) : limitText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fio criterion '" + text + "': limit '" + limitText + "' is not a number");
        }
        long durationNs = seconds(text, "duration", parts[2]);
        long rampNs = parts.length == 4 ? seconds(text, "ramp", parts[3]) : 0L;
        return new FioCriterion(mode, limit, percent, durationNs, rampNs);
    }

    private static long seconds(String text, String what, String value) {
        try {
            return Math.round(Double.parseDouble(value.trim()) * 1e9);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fio criterion '" + text + "': " + what + " '" + value
                    + "' is not a number of seconds");
        }
    }

    public FioSteadyStateDetector newDetector(long startNs, long intervalNs) {
        return new FioSteadyStateDetector(mode, limit, percent, durationNs, rampNs, startNs, intervalNs);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s:%s%s:%s:%s", mode.name().toLowerCase(Locale.ROOT), limit,
                percent ? "%" : "", durationNs / 1e9, rampNs / 1e9);
    }
}
