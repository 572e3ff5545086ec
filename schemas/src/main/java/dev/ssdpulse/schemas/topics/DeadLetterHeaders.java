package dev.ssdpulse.schemas.topics;

/** Header names of records on {@link Topics#DEAD_LETTER}; values are UTF-8 strings. */
public final class DeadLetterHeaders {
    /** Why the record was rejected (exception class and message). */
    public static final String REASON = "ssdpulse.dlq.reason";
    /** Topic the record was read from. */
    public static final String SOURCE_TOPIC = "ssdpulse.dlq.source.topic";
    /** Partition the record was read from (decimal). */
    public static final String SOURCE_PARTITION = "ssdpulse.dlq.source.partition";
    /** Offset of the record in its source partition (decimal). */
    public static final String SOURCE_OFFSET = "ssdpulse.dlq.source.offset";
    /** Component that rejected the record (application id, tool name). */
    public static final String REJECTED_BY = "ssdpulse.dlq.rejected.by";

    private DeadLetterHeaders() {}
}
