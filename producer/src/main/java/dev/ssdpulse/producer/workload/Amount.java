package dev.ssdpulse.producer.workload;

import java.math.BigDecimal;

/**
 * A byte amount that may be relative to a reference size: {@code percent% of reference + bytes}. Spans are
 * relative to the target's capacity, byte budgets to the phase's span. Written in files as a sum of terms:
 * {@code "24GB"}, {@code "100%"}, {@code "100%-8GB"}, {@code "104GB+24GB"}, or a plain number of bytes.
 *
 * @param percent percent of the reference (0 for an absolute amount)
 * @param bytes   absolute bytes added (may be negative when combined with a percent)
 */
public record Amount(double percent, long bytes) {

    public static Amount ofBytes(long bytes) {
        return new Amount(0, bytes);
    }

    public static Amount ofPercent(double percent) {
        return new Amount(percent, 0);
    }

    public boolean isAbsolute() {
        return percent == 0;
    }

    /** Resolves against the reference size; rounds a fractional percentage down to a whole byte. */
    public long resolve(long referenceBytes) {
        return (long) Math.floor(percent * referenceBytes / 100.0) + bytes;
    }

    /** Parses "24GB", "100%", "100%-8GB", "104GB+24GB" (see {@link Units#parseBytes} for units). */
    public static Amount parse(String text) {
        String s = text.replace(" ", "");
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty amount");
        }
        double percent = 0;
        long bytes = 0;
        int i = 0;
        while (i < s.length()) {
            int sign = 1;
            if (s.charAt(i) == '+' || s.charAt(i) == '-') {
                sign = s.charAt(i) == '-' ? -1 : 1;
                i++;
            } else if (i > 0) {
                throw new IllegalArgumentException("'" + text + "' is not an amount");
            }
            int j = i;
            while (j < s.length() && s.charAt(j) != '+' && s.charAt(j) != '-') {
                j++;
            }
            String term = s.substring(i, j);
            if (term.isEmpty()) {
                throw new IllegalArgumentException("'" + text + "' has an empty term");
            }
            if (term.endsWith("%")) {
                try {
                    percent += sign * Double.parseDouble(term.substring(0, term.length() - 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + term + "' is not a percentage");
                }
            } else {
                bytes = Math.addExact(bytes, sign * Units.parseBytes(term));
            }
            i = j;
        }
        return new Amount(percent, bytes);
    }

    /** Canonical text: a plain byte count when absolute, else "P%", "P%+B" or "P%-B". */
    public String toCanonicalString() {
        String p = BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
        if (bytes == 0) {
            return p + "%";
        }
        return p + "%" + (bytes > 0 ? "+" : "-") + Math.abs(bytes);
    }
}
