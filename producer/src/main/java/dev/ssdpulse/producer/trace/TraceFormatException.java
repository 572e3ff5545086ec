package dev.ssdpulse.producer.trace;

/**
 * A trace line that is not what its format allows: the message is one line naming the file, the line number,
 * what was expected and what was found, for the user to fix the trace or name its format.
 */
public final class TraceFormatException extends IllegalArgumentException {
    private final String trace;
    private final long line;

    public TraceFormatException(String trace, long line, String expected, String found) {
        super(trace + ":" + line + ": expected " + expected + ", found '" + abbreviate(found) + "'");
        this.trace = trace;
        this.line = line;
    }

    /** A problem of the whole trace (not of one line). */
    public TraceFormatException(String trace, String problem) {
        super(trace + ": " + problem);
        this.trace = trace;
        this.line = 0;
    }

    public String trace() {
        return trace;
    }

    /** 1-based, 0 for a problem of the whole trace. */
    public long line() {
        return line;
    }

    static String abbreviate(String s) {
        String oneLine = s.replace('\t', ' ').strip();
        return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 117) + "...";
    }
}
