package dev.ssdpulse.producer.trace;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.InputStream;

/**
 * blkparse's text output, in either of two layouts, told per line:
 *
 * <ul>
 *   <li>the default format: {@code MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS [SECTOR + BLOCKS] [PROCESS]}.
 *   Each I/O appears at several steps (Q queued, G, I, D issued to the driver, C completed, M merged, ...): the
 *   reader returns the Q and D events, each tagged with its action, and the caller replays one of the two
 *   (D where the trace has any: what the device was given, merges done; else Q). The per-CPU and total
 *   statistics blkparse prints at the end (from a line {@code CPU0 (sda):} or {@code Total (sda):} on) end the
 *   events.</li>
 *   <li>{@code blkparse -f "%T.%t %d %S %n\n"}: {@code SECONDS.NANOS RWBS SECTOR BLOCKS}. The format has no action
 *   column, so every line is taken as an I/O: record it with one action only, e.g. {@code blkparse -a issue -f
 *   ...}.</li>
 * </ul>
 * RWBS (blkparse's {@code fill_rwbs}): an optional leading F (preflush), then D (discard: TRIM), W (write), R
 * (read) or N (no data), then F (FUA), A, S, M. An N with a preflush, or a W of no blocks with one, is a FLUSH;
 * other N events carry no data and are skipped. Sectors and blocks are 512 bytes.
 */
final class BlkparseReader extends TraceReader {
    private static final String DEFAULT_LINE =
            "a blkparse event line 'MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS [SECTOR + BLOCKS] [PROCESS]'"
                    + " or a '-f \"%T.%t %d %S %n\\n\"' line 'SECONDS.NANOS RWBS SECTOR BLOCKS'";
    private boolean summary;

    BlkparseReader(InputStream in, String traceName) {
        super(in, traceName);
    }

    /** A default-format event line (its first field is "MAJ,MIN") or a {@code -f "%T.%t %d %S %n"} line. */
    static boolean looksLike(String line) {
        String[] f = line.strip().split("\\s+");
        if (f.length >= 7 && f[0].matches("\\d+,\\d+") && f[3].matches("\\d+\\.\\d+")) {
            return true;
        }
        return f.length == 4
                && f[0].matches("\\d+\\.\\d+")
                && f[1].matches("[A-Z]+")
                && f[2].matches("\\d+")
                && f[3].matches("\\d+");
    }

    @Override
    public boolean next(TraceRecord r) {
        while (!summary && readLine() != null) {
            int n = split(' ');
            if (n == 0) {
                continue;
            }
            if (fieldChar(0, 0) >= '0' && fieldChar(0, 0) <= '9' && text.indexOf(',') < 0 && n == 4) {
                if (custom(r)) {
                    return true;
                }
                continue;
            }
            if (n < 7 || !isDevice(0)) {
                if (text.stripLeading().startsWith("CPU") || text.stripLeading().startsWith("Total")) {
                    summary = true; // blkparse's closing statistics
                    return false;
                }
                throw malformed(DEFAULT_LINE);
            }
            char action = fieldLength(5) == 1 ? fieldChar(5, 0) : 0;
            if (action != 'Q' && action != 'D') {
                continue; // the other steps of an I/O, plugs, messages, ...
            }
            long timeNs = secondsAsNs(3);
            if (timeNs < 0 || unsigned(1) < 0 || unsigned(2) < 0) {
                throw malformed(DEFAULT_LINE);
            }
            long sector = -1;
            long blocks = 0;
            if (n >= 10 && fieldIs(8, "+")) {
                sector = unsigned(7);
                blocks = unsigned(9);
                if (sector < 0 || blocks < 0) {
                    throw malformed("'SECTOR + BLOCKS' as whole numbers after the RWBS field");
                }
            }
            if (event(r, timeNs, 6, sector, blocks)) {
                r.action = action;
                return true;
            }
        }
        return false;
    }

    private boolean custom(TraceRecord r) {
        long timeNs = secondsAsNs(0);
        long sector = unsigned(2);
        long blocks = unsigned(3);
        if (timeNs < 0 || sector < 0 || blocks < 0) {
            throw malformed("'SECONDS.NANOS RWBS SECTOR BLOCKS' (blkparse -f \"%T.%t %d %S %n\\n\")");
        }
        if (event(r, timeNs, 1, sector, blocks)) {
            r.action = 0;
            return true;
        }
        return false;
    }

    /** Fills the record from an RWBS field; false for an event without data that is not a flush. */
    private boolean event(TraceRecord r, long timeNs, int rwbsField, long sector, long blocks) {
        int i = 0;
        boolean preflush = fieldChar(rwbsField, 0) == 'F';
        if (preflush) {
            i = 1;
        }
        char c = fieldChar(rwbsField, i);
        byte op;
        switch (c) {
            case 'D' -> op = IoOpCode.TRIM;
            case 'R' -> op = IoOpCode.READ;
            case 'W' -> op = preflush && blocks == 0 ? IoOpCode.FLUSH : IoOpCode.WRITE;
            case 'N' -> {
                if (!preflush) {
                    return false;
                }
                op = IoOpCode.FLUSH;
            }
            default ->
                throw malformed(
                        "an RWBS field: an optional F, then D, W, R or N, then optional F, A, S, M (e.g. WS, R, FWS, D)");
        }
        if (op == IoOpCode.FLUSH) {
            r.set(timeNs, op, 0, 0, lineNumber);
            return true;
        }
        if (sector < 0 || blocks == 0) {
            return false; // a data event without a sector range (a SCSI pass-through command): nothing to replay
        }
        if (sector > Long.MAX_VALUE / 512 || blocks > Integer.MAX_VALUE) {
            throw malformed("a sector and block count that fit a 64-bit byte offset");
        }
        r.set(timeNs, op, sector * 512, blocks * 512, lineNumber);
        return true;
    }

    private boolean isDevice(int i) {
        int len = fieldLength(i);
        boolean comma = false;
        for (int k = 0; k < len; k++) {
            char c = fieldChar(i, k);
            if (c == ',') {
                if (comma || k == 0 || k == len - 1) {
                    return false;
                }
                comma = true;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return comma;
    }
}
