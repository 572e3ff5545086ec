package dev.ssdpulse.streams.topology;

/**
 * String keys of the series stores. Stores order keys by their UTF-8 bytes, so numbers are written as 16
 * hex digits of (value XOR Long.MIN_VALUE): lexicographic order equals numeric order for every long,
 * negative ones included, and a range query over [key(from), key(to)] is a time range.
 */
public final class StoreKeys {
    public static final char SEPARATOR = '|';

    private StoreKeys() {}

    public static String ordered(long value) {
        String hex = Long.toHexString(value ^ Long.MIN_VALUE);
        return "0".repeat(16 - hex.length()) + hex;
    }

    /** Prefix of every key of a run; the run's keys lie in [prefix, prefix + '~'). */
    public static String runPrefix(String runId) {
        return runId + SEPARATOR;
    }

    /** Upper bound of a run's keys (an ASCII char above every digit, letter and the separator). */
    public static String runEnd(String runId) {
        return runId + SEPARATOR + '~';
    }

    public static String window(String runId, int op, long windowStartNs) {
        return runId + SEPARATOR + op + SEPARATOR + ordered(windowStartNs);
    }

    /** The open (provisional) window of a run's direction: one per direction, the newest. */
    public static String openWindow(String runId, int op) {
        return runId + SEPARATOR + op;
    }

    public static String scatter(String runId, long windowStartNs) {
        return runId + SEPARATOR + ordered(windowStartNs);
    }

    public static String verdict(String runId, int phaseIndex, int op, int slot) {
        return runId + SEPARATOR + ordered(phaseIndex) + SEPARATOR + op + SEPARATOR + slot;
    }

    public static String waf(String runId, long toTimeNs) {
        return runId + SEPARATOR + ordered(toTimeNs);
    }
}
