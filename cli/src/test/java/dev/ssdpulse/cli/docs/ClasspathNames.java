package dev.ssdpulse.cli.docs;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * Simple names of the classes other projects ship, for names the documents cite from them ({@code KafkaContainer},
 * {@code SchemaCompatibility}, {@code FileChannel}): the JDK's modules and every jar and class directory on this
 * JVM's class path (the cli module's test class path: Kafka, Avro, Testcontainers, picocli, JNA, ...). Read once,
 * on the first name the tree itself does not declare. The repository's own build output is left out: a class
 * removed from the sources may still sit in a {@code target/classes} of an earlier build, and the project's own
 * names are checked against its sources.
 */
final class ClasspathNames {

    private final Path ownRoot;
    private Set<String> names;

    /** @param ownRoot the repository whose class directories and jars are not "other projects" */
    ClasspathNames(Path ownRoot) {
        this.ownRoot = ownRoot.toAbsolutePath().normalize();
    }

    boolean contains(String simpleName) {
        if (names == null) {
            names = load(ownRoot);
        }
        return names.contains(simpleName);
    }

    private static Set<String> load(Path ownRoot) {
        Set<String> out = new HashSet<>();
        addJdk(out);
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                addEntry(Path.of(entry), ownRoot, out, new HashSet<>());
            }
        }
        return out;
    }

    private static void addJdk(Set<String> out) {
        try {
            FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
            try (Stream<Path> files = Files.walk(jrt.getPath("/modules"))) {
                files.map(Path::toString).filter(p -> p.endsWith(".class")).forEach(p -> add(p, out));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void addEntry(Path entry, Path ownRoot, Set<String> out, Set<Path> seen) {
        Path absolute = entry.toAbsolutePath().normalize();
        if (!seen.add(absolute) || absolute.startsWith(ownRoot)) {
            return;
        }
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                files.map(Path::toString).filter(p -> p.endsWith(".class")).forEach(p -> add(p, out));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        if (!Files.isRegularFile(entry)) {
            return;
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            jar.stream()
                    .map(ZipEntry::getName)
                    .filter(n -> n.endsWith(".class"))
                    .forEach(n -> add(n, out));
            // a manifest-only jar (surefire's booter) names the real class path in its manifest
            var manifest = jar.getManifest();
            String classPath =
                    manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (classPath != null) {
                for (String url : classPath.trim().split("\\s+")) {
                    try {
                        addEntry(
                                Path.of(
                                        URI.create(url).isAbsolute()
                                                ? URI.create(url)
                                                : entry.resolveSibling(url).toUri()),
                                ownRoot,
                                out,
                                seen);
                    } catch (IllegalArgumentException notAPath) {
                        // an entry that is no file URL names nothing this check could read
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "org/apache/kafka/clients/consumer/MockConsumer$1.class" -> MockConsumer; nested types by their own name. */
    private static void add(String classFile, Set<String> out) {
        String name = classFile.substring(classFile.lastIndexOf('/') + 1, classFile.length() - ".class".length());
        for (String part : name.split("\\$")) {
            if (!part.isEmpty()
                    && Character.isJavaIdentifierStart(part.charAt(0))
                    && !Character.isDigit(part.charAt(0))) {
                out.add(part);
            }
        }
    }
}
