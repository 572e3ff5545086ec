package dev.ssdpulse.producer.fio;

import dev.ssdpulse.producer.io.IoCompletionSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns fio per-I/O latency logs into I/O completions: one completion per log line, worker = the log's
 * position in the list (fio writes one log per job), phase 0.
 *
 * <p>Times: fio logs the completion time in whole ms (since the job start, with {@code --log_offset=1});
 * the completion is placed at exactly that ms ({@code submitTimeNs = timeMs x 1e6 - latencyNs}, which can be
 * negative for the first I/Os), so an analysis windowed on completion time counts each I/O in the second
 * fio logged it in. Timing resolution is therefore 1 ms for placement in time; latencies keep fio's ns.
 *
 * <p>One log streams with constant memory. Several logs are merged by completion time so their I/Os reach
 * the sink in time order (as a live multi-worker run would); the merge holds the logs in primitive arrays,
 * about 29 bytes per I/O. Queue depth is not in the log: it is reported as {@code queueDepth} given here
 * (from the fio job's iodepth, 0 when unknown).
 */
public final class FioLogImport {
    /** How much of each log {@link #check} reads: a few hundred lines, enough to tell a fio log from anything else. */
    static final int CHECKED_HEAD_BYTES = 64 * 1024;

    private final int queueDepth;

    public FioLogImport(int queueDepth) {
        this.queueDepth = queueDepth;
    }

    /** Result of an import: I/Os per log and the last completion time. */
    public record Totals(long[] ioCountPerLog, long lastCompletionNs) {
        public long ioCount() {
            return Arrays.stream(ioCountPerLog).sum();
        }
    }

    /**
     * Checks, before a run is started, that each file is named as an I/O latency log and that its first
     * {@value #CHECKED_HEAD_BYTES} bytes (whole lines) parse: a file that is no fio log is refused without a run. A
     * format error further in is found by the import itself.
     *
     * @throws FioLogFormatException naming the file, the line and what was expected there
     */
    public static void check(List<Path> logs) {
        checkNames(logs);
        FioLatencyLogParser parser = new FioLatencyLogParser();
        for (Path log : logs) {
            byte[] head = new byte[CHECKED_HEAD_BYTES];
            int length = 0;
            try (InputStream in = Files.newInputStream(log)) {
                int n;
                while (length < head.length && (n = in.read(head, length, head.length - length)) > 0) {
                    length += n;
                }
                if (length == head.length) { // cut at the last whole line
                    while (length > 0 && head[length - 1] != '\n') {
                        length--;
                    }
                }
                parser.parse(new ByteArrayInputStream(head, 0, length), log.toString(), (t, l, o, s, off, p) -> {});
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read fio log " + log + ": " + e.getMessage(), e);
            }
        }
    }

    private static void checkNames(List<Path> logs) {
        if (logs.isEmpty()) {
            throw new IllegalArgumentException("no fio log given");
        }
        for (Path log : logs) {
            FioLogType type = FioLogType.fromFileName(log);
            if (!type.isIoLatency()) {
                throw new IllegalArgumentException(log + ": a " + type + " log holds submission latencies, not I/O "
                        + "latencies; import the _clat or _lat log");
            }
        }
    }

    public Totals importLogs(List<Path> logs, IoCompletionSink sink) {
        checkNames(logs);
        FioLatencyLogParser parser = new FioLatencyLogParser();
        if (logs.size() == 1) {
            long[] last = {Long.MIN_VALUE};
            long count = parser.parse(logs.get(0), (timeMs, latencyNs, op, sizeBytes, offsetBytes, prio) -> {
                long completionNs = timeMs * 1_000_000L;
                last[0] = Math.max(last[0], completionNs);
                sink.onIoCompleted(
                        0, 0, op, offsetBytes, sizeBytes, completionNs - latencyNs, latencyNs, queueDepth, 0);
            });
            return new Totals(new long[] {count}, Math.max(0, last[0]));
        }
        List<Columns> loaded = new ArrayList<>();
        for (Path log : logs) {
            Columns columns = new Columns();
            parser.parse(log, columns::add);
            loaded.add(columns);
        }
        int[] next = new int[loaded.size()];
        long lastCompletionNs = 0;
        while (true) {
            int pick = -1;
            long pickTime = Long.MAX_VALUE;
            for (int w = 0; w < loaded.size(); w++) {
                Columns c = loaded.get(w);
                // Ties go to the lower worker: the merge is deterministic.
                if (next[w] < c.size && c.timeMs[next[w]] < pickTime) {
                    pick = w;
                    pickTime = c.timeMs[next[w]];
                }
            }
            if (pick < 0) {
                break;
            }
            Columns c = loaded.get(pick);
            int i = next[pick]++;
            long completionNs = c.timeMs[i] * 1_000_000L;
            lastCompletionNs = Math.max(lastCompletionNs, completionNs);
            sink.onIoCompleted(
                    pick,
                    0,
                    c.op[i],
                    c.offset[i],
                    c.bytes[i],
                    completionNs - c.latencyNs[i],
                    c.latencyNs[i],
                    queueDepth,
                    0);
        }
        long[] counts = loaded.stream().mapToLong(c -> c.size).toArray();
        return new Totals(counts, lastCompletionNs);
    }

    /** One log in primitive arrays, grown by doubling. */
    private static final class Columns {
        long[] timeMs = new long[1024];
        long[] latencyNs = new long[1024];
        long[] offset = new long[1024];
        int[] bytes = new int[1024];
        byte[] op = new byte[1024];
        int size;

        void add(long t, long latency, byte o, int bytes, long off, int prio) {
            if (size == timeMs.length) {
                int n = Math.multiplyExact(size, 2);
                timeMs = Arrays.copyOf(timeMs, n);
                latencyNs = Arrays.copyOf(latencyNs, n);
                offset = Arrays.copyOf(offset, n);
                this.bytes = Arrays.copyOf(this.bytes, n);
                op = Arrays.copyOf(op, n);
            }
            timeMs[size] = t;
            latencyNs[size] = latency;
            offset[size] = off;
            this.bytes[size] = bytes;
            op[size] = o;
            size++;
        }
    }
}
