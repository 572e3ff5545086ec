package dev.ssdpulse.streams.app;

import dev.ssdpulse.streams.steadystate.FioCriterion;
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
    private SteadyStateSpecs() {}

    /** The config with the specs applied, in order (a later snia round wins). */
    public static AnalyticsConfig apply(AnalyticsConfig config, List<String> specs) {
        long roundNs = config.analysisSettings().sniaRoundNs();
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
        return config.withSteadyState(
                roundNs, fio.isEmpty() ? config.analysisSettings().fioCriteria() : fio);
    }

    static long sniaRoundNs(String text) {
        String body = text.substring("snia:".length()).trim();
        int eq = body.indexOf('=');
        if (eq < 0 || !body.substring(0, eq).trim().equalsIgnoreCase("round")) {
            throw new IllegalArgumentException(
                    "steady-state spec '" + text + "' must be snia:round=DURATION, e.g. snia:round=60s");
        }
        long ns = durationNs(text, "round", body.substring(eq + 1));
        if (ns <= 0) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': the round must be longer than 0");
        }
        return ns;
    }

    static FioCriterion fioCriterion(String text) {
        try {
            return FioCriterion.parse(text.substring("fio:".length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("steady-state spec '" + text + "': " + e.getMessage(), e);
        }
    }

    static long durationNs(String spec, String what, String value) {
        return FioCriterion.durationNs("steady-state spec " + spec, what, value);
    }
}
