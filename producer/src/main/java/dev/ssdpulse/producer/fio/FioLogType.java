package dev.ssdpulse.producer.fio;

import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which latency fio logged, from the file name ({@code NAME_clat.1.log}, {@code NAME_lat.1.log},
 * {@code NAME_slat.1.log}; {@code .N} is the job index, absent with {@code per_job_logs=0}).
 *
 * <ul>
 *   <li>{@link #LAT}: total latency, submission start to completion: what the application waited — the
 *       ssdpulse I/O event's latency (the device engine measures the same span).</li>
 *   <li>{@link #CLAT}: completion latency, from submission to the kernel until completion: the device and
 *       driver time, also an I/O latency (lat = slat + clat).</li>
 *   <li>{@link #SLAT}: submission latency only (time spent handing the I/O to the kernel, empty for sync
 *       engines such as psync, where submission is the I/O itself): not an I/O latency, so an importer
 *       must not turn it into I/O events.</li>
 * </ul>
 */
public enum FioLogType {
    CLAT,
    LAT,
    SLAT;

    private static final Pattern NAME = Pattern.compile(".*_(clat|slat|lat)(\\.\\d+)?\\.log");

    /** True for logs whose value is the latency of an I/O (clat, lat). */
    public boolean isIoLatency() {
        return this != SLAT;
    }

    public static FioLogType fromFileName(Path file) {
        String name = file.getFileName().toString();
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            throw new FioLogFormatException(
                    file.toString(),
                    0,
                    "not a fio latency log name (expected NAME_clat.N.log, "
                            + "NAME_lat.N.log or NAME_slat.N.log, as written by --write_lat_log=NAME)");
        }
        return valueOf(m.group(1).toUpperCase(Locale.ROOT));
    }
}
