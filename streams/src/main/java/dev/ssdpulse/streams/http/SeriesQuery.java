package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.IoOp;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parameters of /series and /events: op (READ, WRITE, TRIM, FLUSH; absent = every op), from and to in
 * seconds of run time (decimals allowed; absent = whole run). Times are converted to ns; a value that does
 * not fit in a long ns is refused.
 *
 * @param ops    op codes 0..3 requested
 * @param fromNs first window start included
 * @param toNs   last window start included
 */
public record SeriesQuery(List<Integer> ops, long fromNs, long toNs) {
    private static final double MAX_SECONDS = Long.MAX_VALUE / 1e9;

    public static SeriesQuery parse(Map<String, String> params) {
        List<Integer> ops = List.of(0, 1, 2, 3);
        String op = params.get("op");
        if (op != null) {
            try {
                ops = List.of(IoOp.valueOf(op.trim().toUpperCase(Locale.ROOT)).ordinal());
            } catch (IllegalArgumentException e) {
                throw ApiException.badParameter("op", "'" + op + "' is not one of READ, WRITE, TRIM, FLUSH");
            }
        }
        // absent: from the first window, which for a run group can lie before its time 0 (a member that started
        // before the member that joined first)
        long fromNs = seconds(params, "from", Long.MIN_VALUE);
        long toNs = seconds(params, "to", Long.MAX_VALUE);
        if (fromNs > toNs) {
            throw ApiException.badParameter(
                    "from", "from (" + params.get("from") + " s) is after to (" + params.get("to") + " s)");
        }
        return new SeriesQuery(ops, fromNs, toNs);
    }

    private static long seconds(Map<String, String> params, String name, long absent) {
        String text = params.get(name);
        if (text == null) {
            return absent;
        }
        double s;
        try {
            s = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badParameter(name, "'" + text + "' is not a number of seconds");
        }
        if (!Double.isFinite(s) || s < 0 || s > MAX_SECONDS) {
            throw ApiException.badParameter(
                    name, "'" + text + "' must be between 0 and " + (long) MAX_SECONDS + " seconds");
        }
        return Math.round(s * 1e9);
    }
}
