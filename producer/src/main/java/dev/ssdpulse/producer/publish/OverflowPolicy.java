package dev.ssdpulse.producer.publish;

/**
 * What the I/O path does when the hand-off queue to Kafka is full.
 *
 * <p>{@link #BLOCK} waits for room: nothing is lost, but the submitting thread stalls. That is the right
 * choice for the simulator, whose clock is virtual (a stall changes no measured latency), and for imports.
 * {@link #DROP_AND_COUNT} never stalls the I/O path: a device run keeps its timing even if Kafka falls
 * behind, and every I/O that could not be queued is counted, reported in heartbeats, in
 * {@code RunFinished.ioNotPublished} and on the console — never silently lost.
 */
public enum OverflowPolicy {
    BLOCK,
    DROP_AND_COUNT
}
