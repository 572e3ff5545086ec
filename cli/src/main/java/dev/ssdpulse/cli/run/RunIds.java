package dev.ssdpulse.cli.run;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/** Run ids: sortable by start time, unique enough across hosts, safe in URLs and file names. */
public final class RunIds {
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    private RunIds() {}

    /** e.g. {@code sim-20261130-041502-3f9a}. */
    public static String newRunId(String prefix) {
        return prefix + "-" + ZonedDateTime.now(ZoneOffset.UTC).format(FORMAT) + "-"
                + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
    }

    /** A user-given run id: letters, digits, '.', '_' and '-', at most 128 characters. */
    public static String validate(String runId) {
        if (!VALID.matcher(runId).matches()) {
            throw new IllegalArgumentException("run id '" + runId + "' must be 1-128 characters of letters, digits, "
                    + "'.', '_' or '-', starting with a letter or digit");
        }
        return runId;
    }
}
