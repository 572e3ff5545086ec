package dev.ssdpulse.producer.workload;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Parses human units in workload files.
 *
 * <p><b>Sizes</b> (one documented rule, chosen so the seeds' capacities come out right):
 * <ul>
 *   <li>IEC suffixes are binary: {@code KiB, MiB, GiB, TiB} = 2^10, 2^20, 2^30, 2^40.</li>
 *   <li>SI suffixes ending in {@code B} are decimal: {@code kB/KB, MB, GB, TB} = 10^3, 10^6, 10^9, 10^12
 *       ("a 128 GB SSD is 128e9 bytes").</li>
 *   <li>A bare letter follows fio's default ({@code kb_base=1024}) and is binary:
 *       {@code k/K, m/M, g/G, t/T} = KiB, MiB, GiB, TiB. So {@code 4k} = 4096.</li>
 *   <li>{@code B} or no suffix: bytes. Suffixes are case-insensitive except that {@code b}
 *       (bit) is not accepted, to avoid "Gb" (gigabit) being read as bytes silently.</li>
 * </ul>
 * A decimal fraction is allowed ({@code 0.5KiB} = 512) when the result is a whole number of bytes.
 *
 * <p><b>Durations</b>: {@code ns, us, ms, s, m/min, h}; a bare number is seconds (as fio's runtime).
 */
public final class Units {
    private Units() {}

    public static final long KIB = 1L << 10;
    public static final long MIB = 1L << 20;
    public static final long GIB = 1L << 30;
    public static final long TIB = 1L << 40;

    /** Parses a byte size, e.g. "4k", "4KiB", "160GB", "512". */
    public static long parseBytes(String text) {
        String s = text.trim();
        int i = numberEnd(s);
        if (i == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a size (expected e.g. 4k, 4KiB, 160GB, 512)");
        }
        String number = s.substring(0, i);
        String suffix = s.substring(i).trim();
        long multiplier = sizeMultiplier(suffix, text);
        return toWhole(number, multiplier, text, "bytes");
    }

    private static long sizeMultiplier(String suffix, String text) {
        if (suffix.isEmpty() || suffix.equals("B")) {
            return 1;
        }
        if (suffix.length() == 1) {
            switch (Character.toLowerCase(suffix.charAt(0))) {
                case 'k':
                    return KIB;
                case 'm':
                    return MIB;
                case 'g':
                    return GIB;
                case 't':
                    return TIB;
                default:
                    break;
            }
        } else if (suffix.length() == 2 && suffix.charAt(1) == 'B') {
            switch (Character.toLowerCase(suffix.charAt(0))) {
                case 'k':
                    return 1_000L;
                case 'm':
                    return 1_000_000L;
                case 'g':
                    return 1_000_000_000L;
                case 't':
                    return 1_000_000_000_000L;
                default:
                    break;
            }
        } else if (suffix.length() == 3 && suffix.substring(1).equalsIgnoreCase("iB")) {
            switch (Character.toLowerCase(suffix.charAt(0))) {
                case 'k':
                    return KIB;
                case 'm':
                    return MIB;
                case 'g':
                    return GIB;
                case 't':
                    return TIB;
                default:
                    break;
            }
        }
        throw new IllegalArgumentException("'" + text + "' has unknown size unit '" + suffix
                + "' (known: B, k/m/g/t = KiB.., kB/MB/GB/TB = 10^3.., KiB/MiB/GiB/TiB = 2^10..)");
    }

    /** Parses a duration into ns, e.g. "20m", "5000s", "500ms", "1h", "300" (seconds). */
    public static long parseDurationNs(String text) {
        String s = text.trim();
        int i = numberEnd(s);
        if (i == 0) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (expected e.g. 500ms, 20m, 5000s)");
        }
        String number = s.substring(0, i);
        String suffix = s.substring(i).trim().toLowerCase(Locale.ROOT);
        long multiplier;
        switch (suffix) {
            case "ns":
                multiplier = 1L;
                break;
            case "us":
                multiplier = 1_000L;
                break;
            case "ms":
                multiplier = 1_000_000L;
                break;
            case "":
            case "s":
                multiplier = 1_000_000_000L;
                break;
            case "m":
            case "min":
                multiplier = 60_000_000_000L;
                break;
            case "h":
                multiplier = 3_600_000_000_000L;
                break;
            default:
                throw new IllegalArgumentException("'" + text + "' has unknown time unit '" + suffix
                        + "' (known: ns, us, ms, s, m/min, h; a bare number is seconds)");
        }
        return toWhole(number, multiplier, text, "ns");
    }

    private static int numberEnd(String s) {
        int i = 0;
        boolean digits = false;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            digits |= Character.isDigit(s.charAt(i));
            i++;
        }
        return digits ? i : 0;
    }

    private static long toWhole(String number, long multiplier, String text, String unit) {
        try {
            BigDecimal value = new BigDecimal(number).multiply(BigDecimal.valueOf(multiplier));
            if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException("'" + text + "' is not a whole number of " + unit);
            }
            return value.longValueExact();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number");
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too large");
        }
    }

    /**
     * "128000000000 B (128.00 GB, 119.21 GiB)": both decimal and binary, as the seeds ask; below 1 GB in MB and MiB
     * ("10900000 B (10.90 MB, 10.40 MiB)").
     */
    public static String describeBytes(long bytes) {
        if (bytes < 1_000_000_000L) {
            return String.format(
                    Locale.ROOT, "%d B (%.2f MB, %.2f MiB)", bytes, bytes / 1e6, bytes / (double) (1 << 20));
        }
        return String.format(Locale.ROOT, "%d B (%.2f GB, %.2f GiB)", bytes, bytes / 1e9, bytes / (double) GIB);
    }
}
