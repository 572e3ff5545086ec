package dev.ssdpulse.producer.trace;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.InputStream;

/**
 * The MSR Cambridge traces of the SNIA IOTTA repository: CSV lines
 * {@code Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime}, the timestamp a Windows filetime (100-ns
 * ticks since 1601), Type {@code Read} or {@code Write}, offset and size in bytes, the response time (100-ns ticks)
 * not replayed. A header line naming the columns is skipped. Times are kept relative to the first line's
 * timestamp (a filetime in ns does not fit a long).
 */
final class MsrCsvReader extends TraceReader {
    private static final String EXPECTED =
            "7 fields Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (MSR Cambridge CSV: a Windows"
                    + " filetime, a host name, a disk number, Read or Write, offset and size in bytes, a response"
                    + " time)";

    private long firstTicks = -1;

    MsrCsvReader(InputStream in, String traceName) {
        super(in, traceName);
    }

    /** A header naming the MSR columns, or a data line whose first field is a number and which has 7 fields. */
    static boolean looksLike(String line) {
        if (line.regionMatches(true, 0, "Timestamp,Hostname", 0, 18)) {
            return true;
        }
        String[] f = line.split(",", -1);
        return f.length == 7 && !f[0].isEmpty() && f[0].strip().chars().allMatch(Character::isDigit);
    }

    @Override
    public boolean next(TraceRecord r) {
        while (readLine() != null) {
            int n = split(',');
            if (n == 1 && fieldLength(0) == 0) {
                continue;
            }
            if (n != 7) {
                throw malformed(EXPECTED);
            }
            if (fieldIsIgnoreCase(0, "Timestamp")) {
                continue; // the header
            }
            long ticks = unsigned(0);
            long offset = unsigned(4);
            long size = unsigned(5);
            if (ticks < 0 || unsigned(2) < 0 || offset < 0 || size < 0) {
                throw malformed(EXPECTED);
            }
            byte op;
            if (fieldIsIgnoreCase(3, "Read")) {
                op = IoOpCode.READ;
            } else if (fieldIsIgnoreCase(3, "Write")) {
                op = IoOpCode.WRITE;
            } else {
                throw malformed("Type Read or Write in the 4th field of " + EXPECTED);
            }
            if (size == 0) {
                throw malformed("a Size > 0 in the 6th field of " + EXPECTED);
            }
            if (firstTicks < 0) {
                firstTicks = ticks;
            }
            long delta = ticks - firstTicks;
            if (Math.abs(delta) > Long.MAX_VALUE / 100) {
                throw malformed("a timestamp within 29,000 years of the first line's");
            }
            r.set(delta * 100, op, offset, size, lineNumber);
            return true;
        }
        return false;
    }
}
