package dev.ssdpulse.streams.resultsets;

import java.util.regex.Pattern;

/**
 * A result set of a run lives in the views under the alias key {@code RUN@NAME}. Run ids never contain '@', so
 * an alias never collides with a run, and the run's own keys ({@code RUN|...}) never fall in an alias range.
 * The name "live" means the run's own results.
 */
public final class ResultSetNames {
    public static final char SEPARATOR = '@';
    /** The run's own (live) results; not a stored result set. */
    public static final String LIVE = "live";

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private ResultSetNames() {}

    /** A user-given name: 1-64 letters, digits, '.', '_', '-', starting with a letter or digit; not "live". */
    public static String validate(String name) {
        if (name == null || !VALID.matcher(name).matches()) {
            throw new IllegalArgumentException("result set name '" + name + "' must be 1-64 characters of letters, "
                    + "digits, '.', '_' or '-', starting with a letter or digit");
        }
        if (name.equals(LIVE)) {
            throw new IllegalArgumentException("result set name 'live' is reserved for the run's own results");
        }
        return name;
    }

    public static String alias(String runId, String name) {
        return runId + SEPARATOR + name;
    }

    public static boolean isAlias(String key) {
        return key.indexOf(SEPARATOR) >= 0;
    }

    public static String runIdOf(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? key : key.substring(0, at);
    }

    /** Lower bound of every alias of a run (and of their store keys). */
    public static String aliasesFrom(String runId) {
        return runId + SEPARATOR;
    }

    /** Upper bound of every alias of a run: '~' sorts above every character a name may hold. */
    public static String aliasesTo(String runId) {
        return runId + SEPARATOR + '~';
    }
}
