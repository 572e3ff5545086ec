package dev.ssdpulse.producer.trace;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.InputStream;

/**
 * fio's iolog, versions 2 and 3 (fio HOWTO "Trace file format"; read as fio's {@code iolog.c} reads it). The first
 * line is {@code fio version 2 iolog} or {@code fio version 3 iolog}. Version 2 lines are {@code FILE ACTION} (add,
 * open, close: skipped) or {@code FILE ACTION OFFSET LENGTH} with read, write, trim, sync, datasync or wait; a
 * {@code wait} advances the trace's clock by OFFSET microseconds (relative to the previous wait, as the HOWTO
 * says), so a version-2 trace without waits has every I/O at time 0. Version 3 puts a timestamp first, in
 * microseconds since the trace start (fio writes {@code utime_since_now}), and has no wait. sync and datasync
 * are FLUSHes. Every file is replayed onto the one target, as fio's {@code replay_redirect} does.
 */
final class FioIologReader extends TraceReader {
    private int version;
    private long waitClockNs;

    FioIologReader(InputStream in, String traceName) {
        super(in, traceName);
    }

    @Override
    public boolean next(TraceRecord r) {
        if (version == 0) {
            header();
        }
        while (readLine() != null) {
            int n = split(' ');
            if (n == 0) {
                continue;
            }
            if (version == 3 ? n == 3 : n == 2) {
                fileAction(version == 3 ? 2 : 1);
                continue;
            }
            if (version == 3 ? n != 5 : n != 4) {
                throw malformed(
                        version == 3
                                ? "'TIMESTAMP FILE ACTION OFFSET LENGTH' or 'TIMESTAMP FILE add|open|close' (fio iolog v3)"
                                : "'FILE ACTION OFFSET LENGTH' or 'FILE add|open|close' (fio iolog v2)");
            }
            int a = version == 3 ? 2 : 1;
            long offset = unsigned(a + 1);
            long length = unsigned(a + 2);
            if (offset < 0 || length < 0) {
                throw malformed("a byte offset and a length as whole numbers after the action");
            }
            long timeNs = waitClockNs;
            if (version == 3) {
                long us = unsigned(0);
                if (us < 0 || us > Long.MAX_VALUE / 1000) {
                    throw malformed("a timestamp in microseconds (a whole number) first (fio iolog v3)");
                }
                timeNs = us * 1000;
            }
            byte op;
            if (fieldIs(a, "read")) {
                op = IoOpCode.READ;
            } else if (fieldIs(a, "write")) {
                op = IoOpCode.WRITE;
            } else if (fieldIs(a, "trim")) {
                op = IoOpCode.TRIM;
            } else if (fieldIs(a, "sync") || fieldIs(a, "datasync")) {
                r.set(timeNs, IoOpCode.FLUSH, 0, 0, lineNumber);
                return true;
            } else if (fieldIs(a, "wait") && version == 2) {
                if (offset > Long.MAX_VALUE / 1000 - waitClockNs / 1000) {
                    throw malformed("a wait in microseconds that keeps the trace under 292 years");
                }
                waitClockNs += offset * 1000;
                continue;
            } else {
                throw malformed("an action read, write, trim, sync or datasync"
                        + (version == 2 ? " or wait" : " (wait is not allowed in version 3)"));
            }
            if (length == 0) {
                throw malformed("a length > 0 for a " + field(a));
            }
            r.set(timeNs, op, offset, length, lineNumber);
            return true;
        }
        return false;
    }

    private void header() {
        while (readLine() != null) {
            if (text.isBlank()) {
                continue;
            }
            // fio compares the line's start with its version strings (strncmp): the same here
            if (text.startsWith("fio version 2 iolog")) {
                version = 2;
            } else if (text.startsWith("fio version 3 iolog")) {
                version = 3;
            } else {
                throw malformed("the header 'fio version 2 iolog' or 'fio version 3 iolog' (version 1 iologs are not"
                        + " read, as fio no longer reads them)");
            }
            return;
        }
        throw new TraceFormatException(traceName, "the trace is empty (expected the header 'fio version 3 iolog')");
    }

    private void fileAction(int at) {
        if (!fieldIs(at, "add") && !fieldIs(at, "open") && !fieldIs(at, "close")) {
            throw malformed("a file action add, open or close, or an I/O 'ACTION OFFSET LENGTH'");
        }
        if (version == 3 && unsigned(0) < 0) {
            throw malformed("a timestamp in microseconds (a whole number) first (fio iolog v3)");
        }
    }
}
