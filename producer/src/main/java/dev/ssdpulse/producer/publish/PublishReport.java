package dev.ssdpulse.producer.publish;

/**
 * What a publisher did with a run's I/Os. A complete run has {@code ioPublished == ioCompleted} and
 * {@code ioNotPublished == 0}.
 *
 * @param failure first error Kafka returned, or null
 */
public record PublishReport(
        long ioCompleted,
        long ioPublished,
        long ioNotPublished,
        long recordsPublished,
        long recordsFailed,
        int queuedRecords,
        String failure) {

    public boolean complete() {
        return ioNotPublished == 0 && recordsFailed == 0 && ioPublished == ioCompleted && failure == null;
    }
}
