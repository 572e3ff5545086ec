package dev.ssdpulse.producer.trace;

import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Where a trace is read from: a file, or a resource shipped on the classpath (the presets' traces). Either may
 * be gzip-compressed (told by its magic bytes, not its name). Opened once per pass: a trace is streamed, never
 * held in memory, so it may be larger than the heap.
 */
public sealed interface TraceSource {
    /** The prefix of a classpath trace in a workload file and in the canonical workload JSON. */
    String CLASSPATH_PREFIX = "classpath:";

    /** The name in messages and in the canonical workload JSON ({@code classpath:...} for a resource). */
    String name();

    /** A fresh stream from the trace's start, decompressed. */
    InputStream open() throws IOException;

    /** A file, by its absolute path (so the canonical workload JSON names it wherever it is read). */
    record File(Path path) implements TraceSource {
        @Override
        public String name() {
            return path.toString();
        }

        @Override
        public InputStream open() throws IOException {
            try {
                return decompressed(Files.newInputStream(path));
            } catch (NoSuchFileException e) {
                throw new FileNotFoundException("trace file " + path + " does not exist");
            }
        }
    }

    /** A classpath resource, e.g. {@code workloads/traces/app-load.iolog.gz}. */
    record Resource(String resource) implements TraceSource {
        @Override
        public String name() {
            return CLASSPATH_PREFIX + resource;
        }

        @Override
        public InputStream open() throws IOException {
            InputStream in = TraceSource.class.getClassLoader().getResourceAsStream(resource);
            if (in == null) {
                throw new FileNotFoundException("no trace " + name() + " on the classpath");
            }
            return decompressed(in);
        }
    }

    /**
     * A trace as written in a workload: {@code classpath:NAME} for a resource, else a path resolved against
     * {@code baseDir} (the workload file's directory; null: the working directory).
     */
    static TraceSource of(String text, Path baseDir) {
        if (text.startsWith(CLASSPATH_PREFIX)) {
            return new Resource(text.substring(CLASSPATH_PREFIX.length()));
        }
        Path p = Path.of(text);
        return new File(
                (baseDir == null ? p : baseDir.resolve(p)).toAbsolutePath().normalize());
    }

    /** Opens the source, turning I/O failures into one unchecked line naming it. */
    default InputStream openOrThrow() {
        try {
            return open();
        } catch (IOException e) {
            String why = e instanceof FileNotFoundException ? e.getMessage() : name() + ": " + e;
            throw new UncheckedIOException("cannot read trace: " + why, e);
        }
    }

    private static InputStream decompressed(InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            return new BufferedInputStream(new GZIPInputStream(in, 1 << 16), 1 << 16);
        }
        return in;
    }
}
