package dev.ssdpulse.producer.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Makes the shipped load traces (fio iolog v3, so fio's {@code read_iolog} replays them too) from a fixed seed:
 * the same bytes of text on every run and machine. Not recordings of the applications: synthetic shapes with the
 * access pattern of each kind of load, for comparing drives on the same I/Os. {@code bench/make-load-traces.sh}
 * runs {@link #main}; {@code ShippedTracesTest} checks the shipped files are its output.
 *
 * <ul>
 *   <li><b>app-load</b>: an application start (seed 003's 3ds Max and Photoshop start times) on a 2 GiB volume:
 *   140 files of log-uniform sizes from 16 KiB to 24 MiB read front to back in 128 KiB requests (the read-ahead of
 *   a single-threaded loader: the next request 40-120 us after the previous was issued), each file opened after
 *   2-8 small random reads (4-16 KiB) of file-system metadata, 5-60 ms of CPU work (plug-in initialisation)
 *   between files, a few small configuration writes and one flush at the end: 4,530 I/Os, 498 MB read, 4.7 s
 *   recorded.</li>
 *   <li><b>boot</b>: an operating-system start (seed 003's Windows boot time) on a 4 GiB volume: three stages
 *   (kernel and drivers, services, desktop) of a prefetcher's bursts of 8-32 random reads (4-64 KiB) issued at
 *   once, 2-20 ms apart, 512 KiB sequential reads of a prefetch file in the first stage, log appends, registry
 *   writes and flushes from the services, 150-400 ms of CPU-bound work between the stages: about 9,700 I/Os,
 *   13 % of them writes, 5.4 s recorded.</li>
 * </ul>
 */
public final class LoadTraceSynthesizer {
    static final String DEVICE = "/dev/sda";
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long GIB = 1024 * MIB;

    /** The traces shipped in {@code workloads/traces/}, by file name. */
    public static final List<String> NAMES = List.of("app-load.iolog.gz", "boot.iolog.gz");

    private LoadTraceSynthesizer() {}

    /** Writes every shipped trace, gzip-compressed, into {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "producer/src/main/resources/workloads/traces");
        Files.createDirectories(dir);
        for (String name : NAMES) {
            Path file = dir.resolve(name);
            try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file));
                    Writer w = new OutputStreamWriter(out, StandardCharsets.US_ASCII)) {
                w.write(text(name));
            }
            System.out.println(file + ": " + Files.size(file) + " bytes");
        }
    }

    /** The text of a shipped trace. */
    public static String text(String name) {
        return switch (name) {
            case "app-load.iolog.gz" -> appLoad();
            case "boot.iolog.gz" -> boot();
            default -> throw new IllegalArgumentException("no shipped trace " + name);
        };
    }

    /** One I/O: time in microseconds since the trace start. */
    private record Io(long timeUs, String action, long offset, long length) {}

    private static final class Trace {
        final List<Io> ios = new ArrayList<>();

        void add(long timeUs, String action, long offset, long length) {
            ios.add(new Io(timeUs, action, offset, length));
        }

        String text() {
            // a stable sort: I/Os of one instant keep the order they were made in
            ios.sort(Comparator.comparingLong(Io::timeUs));
            StringBuilder b = new StringBuilder(ios.size() * 40);
            b.append("fio version 3 iolog\n");
            b.append("0 ").append(DEVICE).append(" add\n");
            b.append("0 ").append(DEVICE).append(" open\n");
            long last = 0;
            for (Io io : ios) {
                b.append(io.timeUs())
                        .append(' ')
                        .append(DEVICE)
                        .append(' ')
                        .append(io.action())
                        .append(' ')
                        .append(io.offset())
                        .append(' ')
                        .append(io.length())
                        .append('\n');
                last = io.timeUs();
            }
            b.append(last).append(' ').append(DEVICE).append(" close\n");
            return b.toString();
        }
    }

    /** A multiple of 4 KiB in [lo, hi), log-uniform. */
    private static long logUniform(SplittableRandom r, long lo, long hi) {
        double v = Math.exp(Math.log(lo) + r.nextDouble() * (Math.log(hi) - Math.log(lo)));
        return Math.max(4 * KIB, (long) v / (4 * KIB) * (4 * KIB));
    }

    private static long smallSize(SplittableRandom r) {
        return (4 * KIB) << r.nextInt(3); // 4, 8 or 16 KiB
    }

    static String appLoad() {
        SplittableRandom r = new SplittableRandom(3_003_001L);
        Trace t = new Trace();
        // a 2 GiB volume: metadata in its first 64 MiB, the application's files laid out after it with gaps
        long metadataStart = 0;
        long metadataSize = 64 * MIB;
        long next = 128 * MIB;
        long now = 0;
        for (int file = 0; file < 140; file++) {
            long size = logUniform(r, 16 * KIB, 24 * MIB);
            long start = next + (long) r.nextInt(16) * MIB;
            next = (start + size + MIB - 1) / MIB * MIB;
            for (int m = 2 + r.nextInt(7); m > 0; m--) {
                long len = smallSize(r);
                long off = metadataStart + (long) r.nextInt((int) ((metadataSize - len) / (4 * KIB))) * 4 * KIB;
                t.add(now, "read", off, len);
                now += 80 + r.nextInt(120);
            }
            for (long pos = 0; pos < size; pos += 128 * KIB) {
                t.add(now, "read", start + pos, Math.min(128 * KIB, size - pos));
                now += 40 + r.nextInt(81);
            }
            if (r.nextInt(20) == 0) {
                long off = metadataStart + (long) r.nextInt((int) (metadataSize / (4 * KIB) - 4)) * 4 * KIB;
                t.add(now, "write", off, smallSize(r));
                now += 50;
            }
            now += 5_000 + r.nextInt(55_000); // plug-in initialisation: CPU, no I/O
        }
        t.add(now, "sync", 0, 0);
        if (next > 2 * GIB) {
            throw new IllegalStateException("the app-load files overran their 2 GiB volume: " + next);
        }
        return t.text();
    }

    static String boot() {
        SplittableRandom r = new SplittableRandom(3_003_002L);
        Trace t = new Trace();
        long volume = 4 * GIB;
        long prefetchFile = 3 * GIB;
        long logStart = 3 * GIB + 512 * MIB;
        long logPos = 0;
        long now = 0;
        // three stages: kernel and drivers, services, desktop
        int[] bursts = {120, 200, 90};
        for (int stage = 0; stage < 3; stage++) {
            for (int b = 0; b < bursts[stage]; b++) {
                // a prefetcher's burst: 8-32 small random reads issued together
                int n = 8 + r.nextInt(25);
                for (int i = 0; i < n; i++) {
                    long len = (4 * KIB) << r.nextInt(5); // 4..64 KiB
                    long off = (long) r.nextInt((int) ((prefetchFile - len) / (4 * KIB))) * 4 * KIB;
                    t.add(now, "read", off, len);
                }
                now += 2_000 + r.nextInt(18_000);
                if (stage == 0 && b % 10 == 0) {
                    // the prefetch file: 512 KiB sequential reads, two in flight
                    long base = prefetchFile + (long) b * 4 * MIB;
                    for (int i = 0; i < 8; i++) {
                        t.add(now + (i / 2) * 700L, "read", base + i * 512 * KIB, 512 * KIB);
                    }
                    now += 3_000;
                }
                if (stage > 0 && r.nextInt(3) != 0) {
                    // services: log appends and registry hive updates
                    int writes = 1 + r.nextInt(stage == 1 ? 16 : 6);
                    for (int i = 0; i < writes; i++) {
                        long len = (4 * KIB) << r.nextInt(4);
                        if (r.nextBoolean()) {
                            t.add(now, "write", logStart + logPos, len);
                            logPos += len;
                        } else {
                            long off = (long) r.nextInt((int) (volume / 2 / (4 * KIB))) * 4 * KIB;
                            t.add(now, "write", off, len);
                        }
                        now += 30 + r.nextInt(200);
                    }
                    if (r.nextInt(4) == 0) {
                        t.add(now, "sync", 0, 0);
                        now += 100;
                    }
                }
            }
            now += stage == 0 ? 400_000 : 150_000; // CPU-bound work between stages (driver init, logon)
        }
        if (logPos > volume - logStart) {
            throw new IllegalStateException("the boot log overran its region");
        }
        return t.text();
    }

    /** The trace's recorded length and I/O count, for the preset descriptions. */
    static String describe(String name) {
        String text = text(name);
        long lines = text.lines().count() - 4;
        String last = text.lines().reduce((a, b) -> b).orElse("0");
        return String.format(
                Locale.ROOT, "%s: %d I/Os over %.1f s", name, lines, Long.parseLong(last.split(" ")[0]) / 1e6);
    }
}
