package dev.ssdpulse.producer.trace;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A trace read one record at a time, in file order, without holding more than one line: a trace larger than the
 * heap streams. Subclasses parse one format; a line that is not of the format ends the read with a
 * {@link TraceFormatException} naming the file, the line and what was expected. Not thread-safe.
 */
public abstract class TraceReader implements Closeable {
    /** Fields of the current line: start (inclusive) and end (exclusive) indices, reused. */
    private final int[] starts = new int[16];

    private final int[] ends = new int[16];
    private final BufferedReader in;
    protected final String traceName;
    /** The current line and its number (1-based). */
    protected String text;

    protected long lineNumber;
    /** Fields of {@link #text} after {@link #split}; more than 16 are counted, not kept. */
    protected int fieldCount;

    protected TraceReader(InputStream in, String traceName) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1), 1 << 16);
        this.traceName = traceName;
    }

    /** Opens a trace in a named format, or tells the format from its first line ({@link TraceFormat#AUTO}). */
    public static TraceReader open(TraceSource source, TraceFormat format) {
        TraceFormat f = format == TraceFormat.AUTO ? detect(source) : format;
        InputStream in = source.openOrThrow();
        return switch (f) {
            case FIO_IOLOG -> new FioIologReader(in, source.name());
            case BLKPARSE -> new BlkparseReader(in, source.name());
            case MSR -> new MsrCsvReader(in, source.name());
            case AUTO -> throw new IllegalStateException("detect returned AUTO");
        };
    }

    /**
     * The format of a trace from its first non-blank line: fio's iolog header, a blkparse event line (default or
     * {@code -f "%T.%t %d %S %n\n"} format) or an MSR Cambridge CSV line (or its header).
     */
    public static TraceFormat detect(TraceSource source) {
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(source.openOrThrow(), StandardCharsets.ISO_8859_1), 1 << 16)) {
            String line;
            long n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                String s = line.strip();
                if (s.isEmpty()) {
                    continue;
                }
                if (s.startsWith("fio version")) {
                    return TraceFormat.FIO_IOLOG;
                }
                if (MsrCsvReader.looksLike(s)) {
                    return TraceFormat.MSR;
                }
                if (BlkparseReader.looksLike(s)) {
                    return TraceFormat.BLKPARSE;
                }
                throw new TraceFormatException(
                        source.name(),
                        n,
                        "a trace line of a known format (fio's 'fio version 2 iolog' or 'fio version 3 iolog' header,"
                                + " a blkparse event line, or an MSR Cambridge CSV line"
                                + " 'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime'); or name the"
                                + " format (format: fio-iolog, blkparse or msr)",
                        s);
            }
            throw new TraceFormatException(source.name(), "the trace is empty");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + source.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Fills {@code record} with the next I/O of the trace.
     *
     * @return false at the end of the trace
     * @throws TraceFormatException at a line that is not of the format
     */
    public abstract boolean next(TraceRecord record);

    /** The next line, or null at the end; counts lines. */
    protected final String readLine() {
        try {
            text = in.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read trace " + traceName + " after line " + lineNumber + ": " + e.getMessage(), e);
        }
        if (text != null) {
            lineNumber++;
        }
        return text;
    }

    /** Splits {@link #text} at runs of {@code separator} (' ' also splits at tabs); returns the field count. */
    protected final int split(char separator) {
        String s = text;
        int n = 0;
        int i = 0;
        int len = s.length();
        if (separator == ' ') {
            while (i < len) {
                while (i < len && isBlank(s.charAt(i))) {
                    i++;
                }
                if (i >= len) {
                    break;
                }
                int start = i;
                while (i < len && !isBlank(s.charAt(i))) {
                    i++;
                }
                if (n < starts.length) {
                    starts[n] = start;
                    ends[n] = i;
                }
                n++;
            }
        } else {
            int start = 0;
            for (; i <= len; i++) {
                if (i == len || s.charAt(i) == separator) {
                    if (n < starts.length) {
                        starts[n] = trimStart(s, start, i);
                        ends[n] = trimEnd(s, starts[n], i);
                    }
                    n++;
                    start = i + 1;
                }
            }
        }
        fieldCount = n;
        return n;
    }

    private static int trimStart(String s, int from, int to) {
        while (from < to && isBlank(s.charAt(from))) {
            from++;
        }
        return from;
    }

    private static int trimEnd(String s, int from, int to) {
        while (to > from && isBlank(s.charAt(to - 1))) {
            to--;
        }
        return to;
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t' || c == '\r';
    }

    protected final String field(int i) {
        return text.substring(starts[i], ends[i]);
    }

    protected final int fieldLength(int i) {
        return ends[i] - starts[i];
    }

    protected final char fieldChar(int i, int at) {
        return at < ends[i] - starts[i] ? text.charAt(starts[i] + at) : 0;
    }

    protected final boolean fieldIs(int i, String value) {
        return ends[i] - starts[i] == value.length() && text.startsWith(value, starts[i]);
    }

    protected final boolean fieldIsIgnoreCase(int i, String value) {
        return ends[i] - starts[i] == value.length() && text.regionMatches(true, starts[i], value, 0, value.length());
    }

    /** A non-negative decimal integer field, or -1 when it is not one (or overflows). */
    protected final long unsigned(int i) {
        int from = starts[i];
        int to = ends[i];
        if (from >= to || to - from > 19) {
            return -1;
        }
        long v = 0;
        for (int k = from; k < to; k++) {
            char c = text.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v < 0 ? -1 : v;
    }

    /** A field "SECONDS.FRACTION" (a decimal fraction of any length up to ns) as ns, or -1 when it is not one. */
    protected final long secondsAsNs(int i) {
        int from = starts[i];
        int to = ends[i];
        int dot = text.indexOf('.', from);
        if (dot < 0 || dot >= to) {
            dot = to;
        }
        if (dot == from || dot - from > 9) {
            return -1;
        }
        long seconds = 0;
        for (int k = from; k < dot; k++) {
            char c = text.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            seconds = seconds * 10 + (c - '0');
        }
        long nanos = 0;
        int digits = 0;
        for (int k = dot + 1; k < to; k++) {
            char c = text.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            if (digits < 9) {
                nanos = nanos * 10 + (c - '0');
                digits++;
            }
        }
        if (dot + 1 == to && dot != to) {
            return -1; // "12." has no fraction
        }
        for (; digits < 9; digits++) {
            nanos *= 10;
        }
        return seconds * 1_000_000_000L + nanos;
    }

    protected final TraceFormatException malformed(String expected) {
        return new TraceFormatException(traceName, lineNumber, expected, text);
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            // a read-only stream: nothing is lost when its close fails
        }
    }
}
