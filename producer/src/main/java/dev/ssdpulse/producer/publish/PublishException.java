package dev.ssdpulse.producer.publish;

/** Publishing a run to Kafka failed in a way the run cannot continue from. */
public final class PublishException extends RuntimeException {
    public PublishException(String message, Throwable cause) {
        super(message, cause);
    }
}
