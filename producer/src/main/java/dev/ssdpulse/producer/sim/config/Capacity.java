package dev.ssdpulse.producer.sim.config;

import java.util.Locale;

/**
 * Prints capacities in both decimal GB (what drives are sold in) and binary GiB (what Windows shows as
 * "GB"), because seed 000 shows how much confusion printing only one of them causes.
 */
public final class Capacity {
    public static final long GB = 1_000_000_000L;
    public static final long GIB = 1L << 30;

    private Capacity() {}

    /** {@code 120_000_000_000L} gives {@code "120.0 GB (111.76 GiB)"}. */
    public static String format(long bytes) {
        return String.format(Locale.ROOT, "%.1f GB (%.2f GiB)", bytes / (double) GB, bytes / (double) GIB);
    }
}
