package dev.ssdpulse.producer.sim.config;

/** A preset file or configuration that cannot describe a drive; the message names the field and the reason. */
public final class SsdConfigException extends IllegalArgumentException {
    public SsdConfigException(String message) {
        super(message);
    }

    public SsdConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
