package dev.ssdpulse.producer.smart;

/** Tool output that cannot be read as SMART counters; the message names the tool and the field. */
public final class SmartParseException extends Exception {
    public SmartParseException(String message) {
        super(message);
    }

    public SmartParseException(String message, Throwable cause) {
        super(message, cause);
    }
}
