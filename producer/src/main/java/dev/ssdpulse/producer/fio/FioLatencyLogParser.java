package dev.ssdpulse.producer.fio;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streaming parser of fio 3.x per-I/O latency logs written with {@code --write_lat_log=NAME --log_offset=1}.
 *
 * <p>Line format (fio HOWTO, "Log File Formats"): {@code time (ms), value (ns), data direction, block size,
 * offset[, command priority]}. Five columns are logs of fio versions that print no priority; fio 3.33
 * writes six, the sixth decimal (high-priority flag) or hex {@code 0x....} with {@code log_prio=1}. All
 * lines of a file must have the same column count. Windowed logs ({@code log_avg_msec}) are refused: their
 * block size is 0 and a line is an average, not an I/O. Blank lines are accepted only at the end.
 *
 * <p>Reads bytes through a fixed buffer and parses digits in place: no per-line allocation, constant
 * memory whatever the file size. Any malformed input raises {@link FioLogFormatException} naming the
 * source, the 1-based line number and the offending text; lines longer than {@value #MAX_LINE_BYTES} bytes
 * are refused (a binary file would otherwise be one huge "line"). Not thread-safe (reuses its buffers).
 */
public final class FioLatencyLogParser {
    public static final int MAX_LINE_BYTES = 4096;
    private static final int MAX_COLUMNS = 6;
    /** Largest log time whose ns value (time x 1e6, as the import computes it) fits in a long: ~292 years. */
    public static final long MAX_TIME_MS = Long.MAX_VALUE / 1_000_000L;

    private final byte[] buffer = new byte[1 << 16];
    private final byte[] line = new byte[MAX_LINE_BYTES];
    private final long[] values = new long[MAX_COLUMNS];

    /** Parses a log file; returns the number of I/O lines. */
    public long parse(Path file, FioIoCallback callback) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString(), callback);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fio log " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses a log from a stream (not closed); {@code source} names it in errors. */
    public long parse(InputStream in, String source, FioIoCallback callback) throws IOException {
        long lineNumber = 0;
        long ioLines = 0;
        int columns = -1;
        long firstBlankLine = 0;
        int length = 0;
        boolean overlong = false;
        while (true) {
            int n = in.read(buffer);
            if (n < 0) {
                break;
            }
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (b != '\n') {
                    if (length < MAX_LINE_BYTES) {
                        line[length++] = b;
                    } else {
                        overlong = true;
                    }
                    continue;
                }
                lineNumber++;
                if (overlong) {
                    throw error(source, lineNumber, "line longer than " + MAX_LINE_BYTES + " bytes", length);
                }
                int cols = handleLine(source, lineNumber, length, columns, firstBlankLine, callback);
                if (cols == 0) {
                    if (firstBlankLine == 0) {
                        firstBlankLine = lineNumber;
                    }
                } else {
                    columns = cols;
                    ioLines++;
                }
                length = 0;
            }
        }
        if (length > 0 || overlong) {
            lineNumber++;
            if (overlong) {
                throw error(source, lineNumber, "line longer than " + MAX_LINE_BYTES + " bytes", length);
            }
            if (handleLine(source, lineNumber, length, columns, firstBlankLine, callback) > 0) {
                ioLines++;
            }
        }
        return ioLines;
    }

    /** Returns the column count of the parsed line, 0 for a blank line. */
    private int handleLine(
            String source,
            long lineNumber,
            int length,
            int expectedColumns,
            long firstBlankLine,
            FioIoCallback callback) {
        int end = length;
        while (end > 0 && (line[end - 1] == '\r' || line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        int pos = 0;
        while (pos < end && (line[pos] == ' ' || line[pos] == '\t')) {
            pos++;
        }
        if (pos == end) {
            return 0;
        }
        if (firstBlankLine > 0) {
            throw error(source, firstBlankLine, "blank line inside the log (only trailing blank lines are allowed)", 0);
        }
        int columns = 0;
        int prio = -1;
        while (true) {
            if (columns == MAX_COLUMNS) {
                throw error(
                        source,
                        lineNumber,
                        "more than " + MAX_COLUMNS
                                + " columns (expected: time, latency, ddir, block size, offset[, priority])",
                        length);
            }
            while (pos < end && (line[pos] == ' ' || line[pos] == '\t')) {
                pos++;
            }
            long value = 0;
            boolean hex =
                    columns == 5 && pos + 1 < end && line[pos] == '0' && (line[pos + 1] == 'x' || line[pos + 1] == 'X');
            if (hex) {
                pos += 2;
                int digits = 0;
                while (pos < end && hexDigit(line[pos]) >= 0) {
                    if (++digits > 8) {
                        throw error(source, lineNumber, "priority column too large", length);
                    }
                    value = value * 16 + hexDigit(line[pos++]);
                }
                if (digits == 0) {
                    throw error(source, lineNumber, "column 6 (priority) is not a number", length);
                }
            } else {
                int digits = 0;
                while (pos < end && line[pos] >= '0' && line[pos] <= '9') {
                    if (++digits > 18) {
                        throw error(
                                source,
                                lineNumber,
                                "column " + (columns + 1) + " " + columnName(columns) + " has too many digits",
                                length);
                    }
                    value = value * 10 + (line[pos++] - '0');
                }
                if (digits == 0) {
                    throw error(
                            source,
                            lineNumber,
                            "column " + (columns + 1) + " " + columnName(columns)
                                    + " is not a non-negative whole number",
                            length);
                }
            }
            values[columns++] = value;
            while (pos < end && (line[pos] == ' ' || line[pos] == '\t')) {
                pos++;
            }
            if (pos == end) {
                break;
            }
            if (line[pos] != ',') {
                throw error(
                        source,
                        lineNumber,
                        "unexpected character '" + printable(line[pos]) + "' after column " + columns + " at byte "
                                + (pos + 1),
                        length);
            }
            pos++;
        }
        if (columns < 5) {
            throw error(
                    source,
                    lineNumber,
                    columns + " columns, expected 5 or 6 (time, latency, ddir, block size, "
                            + "offset[, priority]; was the log written with --log_offset=1?)",
                    length);
        }
        if (expectedColumns > 0 && columns != expectedColumns) {
            throw error(source, lineNumber, columns + " columns where earlier lines have " + expectedColumns, length);
        }
        if (values[0] > MAX_TIME_MS) {
            throw error(
                    source,
                    lineNumber,
                    "time " + values[0] + " ms is too large (at most " + MAX_TIME_MS
                            + " ms, the largest that fits in ns)",
                    length);
        }
        long ddir = values[2];
        if (ddir > 2) {
            throw error(
                    source, lineNumber, "data direction " + ddir + " is not 0 (read), 1 (write) or 2 (trim)", length);
        }
        long bs = values[3];
        if (bs == 0) {
            throw error(source, lineNumber, "block size 0: a windowed log (log_avg_msec), not per-I/O entries", length);
        }
        if (bs > Integer.MAX_VALUE) {
            throw error(source, lineNumber, "block size " + bs + " is too large", length);
        }
        if (columns == 6) {
            if (values[5] > Integer.MAX_VALUE) {
                throw error(source, lineNumber, "priority " + values[5] + " is too large", length);
            }
            prio = (int) values[5];
        }
        callback.onIo(values[0], values[1], (byte) ddir, (int) bs, values[4], prio);
        return columns;
    }

    private static String columnName(int index) {
        switch (index) {
            case 0:
                return "(time ms)";
            case 1:
                return "(latency ns)";
            case 2:
                return "(data direction)";
            case 3:
                return "(block size)";
            case 4:
                return "(offset)";
            default:
                return "(priority)";
        }
    }

    private static int hexDigit(byte b) {
        if (b >= '0' && b <= '9') return b - '0';
        if (b >= 'a' && b <= 'f') return b - 'a' + 10;
        if (b >= 'A' && b <= 'F') return b - 'A' + 10;
        return -1;
    }

    private static String printable(byte b) {
        return b >= 32 && b < 127 ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff);
    }

    /** Builds the exception with the line's text (escaped, truncated to 120 bytes); allocation only on error. */
    private FioLogFormatException error(String source, long lineNumber, String why, int length) {
        StringBuilder text = new StringBuilder();
        int shown = Math.min(length, 120);
        for (int i = 0; i < shown; i++) {
            text.append(printable(line[i]));
        }
        if (length > shown) {
            text.append("...");
        }
        return new FioLogFormatException(source, lineNumber, why + (length > 0 ? ": '" + text + "'" : ""));
    }
}
