package dev.ssdpulse.streams.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Numbers and sizes as people read them in the reports: thousands separated by ',' (in every locale, as the
 * reviewers' tables print them), capacities in decimal GB (what drives are sold in) with binary GiB beside them
 * (what operating systems show). Machine formats (CSV, JSON, text columns) never group.
 */
public final class ReportFormat {
    private static final double GIB = 1L << 30;

    private ReportFormat() {}

    /** "480.10 GB (447.13 GiB)": vendors count in GB, operating systems in GiB. */
    public static String capacityText(long bytes) {
        return String.format(Locale.ROOT, "%.2f GB (%.2f GiB)", bytes / 1e9, bytes / GIB);
    }

    /** {@code v} rounded half-up to {@code decimals} and grouped: 1234567.891, 1 gives "1,234,567.9". */
    public static String grouped(double v, int decimals) {
        if (!Double.isFinite(v)) {
            return "";
        }
        return grouped(
                BigDecimal.valueOf(v).setScale(decimals, RoundingMode.HALF_UP).toPlainString());
    }

    /** An integer count grouped: 1234567 gives "1,234,567". */
    public static String grouped(long v) {
        return grouped(Long.toString(v));
    }

    /**
     * A plain decimal number ("-1234567.25", no exponent) with its integer digits grouped by three; any other text
     * (an empty cell, "NaN") as it is.
     */
    public static String grouped(String plain) {
        int start = plain.startsWith("-") ? 1 : 0;
        int end = plain.indexOf('.');
        end = end < 0 ? plain.length() : end;
        if (end - start <= 3) {
            return plain;
        }
        for (int i = start; i < end; i++) {
            if (!Character.isDigit(plain.charAt(i))) {
                return plain;
            }
        }
        StringBuilder b = new StringBuilder(plain.length() + (end - start) / 3);
        b.append(plain, 0, start);
        for (int i = start; i < end; i++) {
            if (i > start && (end - i) % 3 == 0) {
                b.append(',');
            }
            b.append(plain.charAt(i));
        }
        return b.append(plain, end, plain.length()).toString();
    }
}
