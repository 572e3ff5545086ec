package dev.ssdpulse.platform.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/** Files only their owner may read: the secure/ directory and everything with a password or a private key in it. */
final class SecureFiles {
    private static final boolean POSIX =
            FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private SecureFiles() {}

    /** Creates the directory (and parents) and makes it rwx for the owner only. */
    static Path ownerOnlyDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (POSIX) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    static void writeOwnerOnly(Path file, String text) {
        writeOwnerOnly(file, text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes through a temporary file created owner-only, then moved into place: the content is never readable by
     * others, not even for a moment, and a crash leaves the old file or the new one.
     */
    static void writeOwnerOnly(Path file, byte[] content) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            if (POSIX) {
                Files.createFile(
                        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(tmp);
            }
            Files.write(tmp, content);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Properties text in the given key order, readable by humans as by Properties.load: values are written as they
     * are (a separator inside a value needs no escape), only backslashes doubled.
     */
    static String propertiesText(Map<String, String> entries, String comment) {
        StringBuilder s = new StringBuilder("# ").append(comment).append('\n');
        entries.forEach((k, v) -> {
            if (v.contains("\n") || v.contains("\r")) {
                throw new IllegalArgumentException("property " + k + " has a line break in its value");
            }
            s.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n');
        });
        return s.toString();
    }

    static String propertiesText(Properties p, String comment) {
        Map<String, String> sorted = new TreeMap<>();
        p.stringPropertyNames().forEach(k -> sorted.put(k, p.getProperty(k)));
        return propertiesText(sorted, comment);
    }
}
