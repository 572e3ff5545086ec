package dev.ssdpulse.cli.runs;

import java.math.BigDecimal;
import java.util.Locale;

/** Topic retention as users write it: "forever" (-1), or a number with d, h, m, s or ms (e.g. 90d, 12h). */
final class RetentionSpec {
    private RetentionSpec() {}

    /** @return retention.ms (-1 = forever) */
    static long parseMs(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("forever") || t.equals("-1")) {
            return -1;
        }
        String[][] units = {{"ms", "1"}, {"d", "86400000"}, {"h", "3600000"}, {"m", "60000"}, {"s", "1000"}};
        for (String[] u : units) {
            if (t.endsWith(u[0])) {
                try {
                    long ms = new BigDecimal(
                                    t.substring(0, t.length() - u[0].length()).trim())
                            .multiply(new BigDecimal(u[1]))
                            .longValueExact();
                    if (ms <= 0) {
                        throw new IllegalArgumentException(
                                "retention '" + text + "' must be longer than 0 (or 'forever')");
                    }
                    return ms;
                } catch (NumberFormatException | ArithmeticException e) {
                    break;
                }
            }
        }
        throw new IllegalArgumentException("retention '" + text
                + "' must be 'forever' or a whole number of ms written with d, h, m, s or ms (e.g. 90d)");
    }

    /** retention.ms as text: "forever", "30 d", "12 h", "90 s", "1500 ms". */
    static String format(long ms) {
        if (ms < 0) {
            return "forever";
        }
        if (ms % 86_400_000L == 0) {
            return ms / 86_400_000L + " d";
        }
        if (ms % 3_600_000L == 0) {
            return ms / 3_600_000L + " h";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + " s";
        }
        return ms + " ms";
    }
}
