package dev.ssdpulse.streams.waf;

/**
 * Write amplification over a span (a phase) and the range its counters' steps allow.
 *
 * @param wa     NAND / host over the span; null when the host wrote nothing in it (or its intervals mix units)
 * @param bounds the range of wa ({@link WaBounds#NONE} with a null wa)
 */
public record PhaseWa(Double wa, WaBounds bounds) {}
