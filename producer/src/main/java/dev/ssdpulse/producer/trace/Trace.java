package dev.ssdpulse.producer.trace;

import java.io.InputStream;
import java.util.Objects;

/**
 * A trace after one scanning pass: where it is, its format (told from the file when asked for {@code auto}), for
 * a blkparse trace the event step replayed, and its {@link TraceStats}. {@link #open()} streams its I/Os again,
 * from the start, as often as needed (once per replay).
 */
public final class Trace {
    private final TraceSource source;
    private final TraceFormat format;
    private final char action;
    private final TraceStats stats;

    private Trace(TraceSource source, TraceFormat format, char action, TraceStats stats) {
        this.source = source;
        this.format = format;
        this.action = action;
        this.stats = stats;
    }

    /**
     * Reads the whole trace once (streamed: the heap holds one line).
     *
     * @throws TraceFormatException at the first line that is not of the format, or for a trace without an I/O
     */
    public static Trace scan(TraceSource source, TraceFormat format) {
        Objects.requireNonNull(source, "source");
        TraceFormat resolved = format == TraceFormat.AUTO ? TraceReader.detect(source) : format;
        TraceStats all = new TraceStats();
        TraceStats queued = new TraceStats();
        TraceStats issued = new TraceStats();
        try (TraceReader reader = TraceReader.open(source, resolved)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                switch (r.action) {
                    case 'Q' -> queued.add(r);
                    case 'D' -> issued.add(r);
                    default -> all.add(r);
                }
            }
        }
        char action = 0;
        TraceStats stats = all;
        if (issued.ioCount() > 0) {
            action = 'D';
            stats = issued;
        } else if (queued.ioCount() > 0) {
            action = 'Q';
            stats = queued;
        }
        if (stats.ioCount() == 0) {
            throw new TraceFormatException(
                    source.name(),
                    "the trace has no I/O to replay (format " + resolved.label()
                            + (resolved == TraceFormat.BLKPARSE ? "; a blkparse trace needs Q or D events" : "") + ")");
        }
        return new Trace(source, resolved, action, stats);
    }

    public TraceSource source() {
        return source;
    }

    public String name() {
        return source.name();
    }

    public TraceFormat format() {
        return format;
    }

    /** The blkparse event step replayed ('D' or 'Q'), 0 in the other formats. */
    public char action() {
        return action;
    }

    public TraceStats stats() {
        return stats;
    }

    /** A new pass over the trace's replayed I/Os, in file order. */
    public TraceReader open() {
        TraceReader reader = TraceReader.open(source, format);
        if (action == 0) {
            return reader;
        }
        return new TraceReader(InputStream.nullInputStream(), source.name()) {
            @Override
            public boolean next(TraceRecord r) {
                while (reader.next(r)) {
                    if (r.action == action) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    @Override
    public String toString() {
        return name() + " (" + format.label() + (action == 0 ? "" : ", " + action + " events") + ", " + stats.ioCount()
                + " I/Os)";
    }
}
