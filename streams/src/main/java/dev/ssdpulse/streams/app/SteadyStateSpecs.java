package dev.ssdpulse.streams.app;

import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The steady-state settings of a re-analysis, as users write them on the command line:
 * {@code snia:round=60s} (SNIA PTS round length) and {@code fio:MODE:LIMIT[%]:DURATION[:RAMP]}
 * (e.g. {@code fio:iops_slope:1%:300s}; durations take ns/us/ms/s/m/h, a bare number is seconds).
 * Any fio spec replaces the default fio criteria; without one they stay as they are.
 */
public final class SteadyStateSpecs {
    private SteadyStateSpecs() {
    }

    /** The config with the specs applied, in order (a later snia round wins). */
    public static AnalyticsConfig apply(AnalyticsConfig config, List<String> specs) {
        long roundNs = config.sniaRoundNs();
        List<FioCriterion> fio = new ArrayList<>();
        for (String spec : specs) {
            String text = spec.trim();
            String lower = text.toLowerCase(Locale.ROOT);
            if (lower.startsWith("snia:")) {
                roundNs = sniaRoundNs(text);
            } else if (lower.startsWith("fio:")) {
                fio.add(fioCriterion(text));
            } else {
                throw new IllegalArgumentException("steady-state spec '" + spec
                        + "' must start with 'snia:' (e.g. snia:round=60s) or 'fio:' (e.g. fio:iops_slope:1%:300s)");
            }
        }
        return config.withSteadyState(roundNs, fio.isEmpty() ? config.fioCriteria() : fio);
    }

    static long sniaRoundNs(String text) {
        String body = text.substring("snia:".length()).trim();
        int eq = body.indexOf('=');
        if (eq < 0 || !body.substring(0, eq).trim().equalsIgnoreCase("round")) {
            throw new IllegalArgumentException("steady-state spec '" + text + "' must be snia:round=DURATION, e.g. snia:round=60s");
        }
        long ns = durationNs(text, "round", body.substring(eq + 1));
        if (ns <= 0) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': the round must be longer than 0");
        }
        return ns;
    }

    static FioCriterion fioCriterion(String text) {
        String[] parts = text.substring("fio:".length()).trim().split(":");
        if (parts.length < 3 || parts.length > 4) {
            throw new IllegalArgumentException("steady-state spec '" + text
                    + "' must be fio:MODE:LIMIT[%]:DURATION[:RAMP], e.g. fio:iops_slope:1%:300s");
        }
        FioSteadyStateDetector.Mode mode;
        try {
            mode = FioSteadyStateDetector.Mode.parse(parts[0]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': " + e.getMessage(), e);
        }
        String limitText = parts[1].trim();
        boolean percent = limitText.endsWith("%");
        double limit;
        try {
            limit = Double.parseDouble(percent ? limitText.substring(0, limitText.length() - 1) : limitText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': limit '" + limitText + "' is not a number");
        }
        if (!Double.isFinite(limit) || limit < 0) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': limit must be >= 0");
        }
        long durationNs = durationNs(text, "duration", parts[2]);
        long rampNs = parts.length == 4 ? durationNs(text, "ramp", parts[3]) : 0L;
        if (durationNs <= 0) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': the duration must be longer than 0");
        }
        return new FioCriterion(mode, limit, percent, durationNs, rampNs);
    }

    /** "300s", "5m", "1.5h", "250ms", "60" (seconds) -> ns. */
    static long durationNs(String spec, String what, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"},
                {"m", "60000000000"}, {"h", "3600000000000"}};
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
            return new BigDecimal(number.trim()).multiply(BigDecimal.valueOf(unitNs)).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("steady-state spec '" + spec + "': " + what + " '" + value
                    + "' is not a duration (e.g. 60s, 5m, 1.5h) of whole ns");
        }
    }
}
