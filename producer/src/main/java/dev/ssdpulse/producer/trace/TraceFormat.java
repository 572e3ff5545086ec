package dev.ssdpulse.producer.trace;

import java.util.Locale;

/** How a trace file is written; {@link #AUTO} tells it from the file's first line. */
public enum TraceFormat {
    AUTO("auto"),
    /** fio's {@code write_iolog} output, versions 2 and 3 (fio HOWTO, "Trace file format"). */
    FIO_IOLOG("fio-iolog"),
    /** blkparse's text output: its default format, or {@code -f "%T.%t %d %S %n\n"}. */
    BLKPARSE("blkparse"),
    /** The SNIA IOTTA MSR Cambridge CSV: {@code Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime}. */
    MSR("msr");

    private final String label;

    TraceFormat(String label) {
        this.label = label;
    }

    /** The name used in workload files. */
    public String label() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static TraceFormat parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        for (TraceFormat f : values()) {
            if (f.label.equals(s)) {
                return f;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a trace format (auto, fio-iolog, blkparse or msr)");
    }
}
