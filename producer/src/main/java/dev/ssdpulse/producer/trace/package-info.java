/**
 * Block traces as recorded: the formats ssdpulse replays, read as streams (one line in memory, so a trace may be
 * larger than the heap, and gzip-compressed or not).
 *
 * <ul>
 *   <li>{@link dev.ssdpulse.producer.trace.FioIologReader}: fio's iolog v2 ({@code FILE ACTION OFFSET LENGTH},
 *   {@code wait} in microseconds) and v3 (a microsecond timestamp first), as fio's {@code iolog.c} reads them;</li>
 *   <li>{@link dev.ssdpulse.producer.trace.BlkparseReader}: blkparse's default output (the D events, or the Q
 *   events where the trace has no D) and {@code blkparse -f "%T.%t %d %S %n\n"};</li>
 *   <li>{@link dev.ssdpulse.producer.trace.MsrCsvReader}: the SNIA IOTTA MSR Cambridge CSV (Windows filetimes).</li>
 * </ul>
 * {@link dev.ssdpulse.producer.trace.Trace#scan} reads a trace once before it is replayed
 * ({@link dev.ssdpulse.producer.trace.TraceStats}: counts, bytes, address range, alignment, duration) and tells its
 * format from its first line when asked for {@code auto}. A line that is not of its format is a
 * {@link dev.ssdpulse.producer.trace.TraceFormatException}: one line with the file, the line number, what was
 * expected and what was found.
 */
package dev.ssdpulse.producer.trace;
