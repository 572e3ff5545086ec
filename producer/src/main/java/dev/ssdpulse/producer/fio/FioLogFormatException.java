package dev.ssdpulse.producer.fio;

/** A fio log or JSON report is malformed; the message names the file, the line (when known) and the text. */
public final class FioLogFormatException extends RuntimeException {
    private final String source;
    private final long lineNumber;

    public FioLogFormatException(String source, long lineNumber, String message) {
        super(source + (lineNumber > 0 ? ":" + lineNumber : "") + ": " + message);
        this.source = source;
        this.lineNumber = lineNumber;
    }

    public FioLogFormatException(String source, String message, Throwable cause) {
        super(source + ": " + message, cause);
        this.source = source;
        this.lineNumber = 0;
    }

    public String source() {
        return source;
    }

    /** 1-based line number, 0 when not about a line. */
    public long lineNumber() {
        return lineNumber;
    }
}
