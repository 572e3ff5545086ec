package dev.ssdpulse.producer.workload;

/**
 * How a phase's workers use its span.
 * <ul>
 *   <li>{@code SHARED} (default): every worker addresses the whole span and starts its sequential stream
 *       at the span start, like IOMeter workers on one target or fio {@code numjobs} without
 *       {@code offset_increment}.</li>
 *   <li>{@code SPLIT}: worker w gets the contiguous slice [start + w*size/workers, start + (w+1)*size/workers),
 *       slice bounds rounded down to the largest alignment, like fio's {@code offset_increment=size/numjobs}.
 *       Use it for sequential passes so that workers do not rewrite each other's blocks.</li>
 * </ul>
 */
public enum SpanSharing {
    SHARED,
    SPLIT
}
