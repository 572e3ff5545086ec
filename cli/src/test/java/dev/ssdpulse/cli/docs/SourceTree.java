package dev.ssdpulse.cli.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repository as the documents see it: its files and directories (build output, VCS and tool caches left out),
 * the Java types declared in any source set (top-level and nested) and the named types of the Avro schemas.
 */
final class SourceTree {

    /** Directory names that are never part of the tree: build output, VCS data, caches of tools. */
    private static final Set<String> SKIPPED_DIRS =
            Set.of(".git", "target", "node_modules", ".idea", "__pycache__", ".jqwik-database", ".ssdpulse");

    private static final Pattern JAVA_TYPE =
            Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9_]*)");
    private static final Pattern AVRO_NAME = Pattern.compile("\"name\"\\s*:\\s*\"([A-Za-z_][A-Za-z0-9_]*)\"");
    private static final Pattern AVRO_NAMESPACE = Pattern.compile("\"namespace\"\\s*:\\s*\"([a-z][a-z0-9_.]*)\"");

    private final Path root;
    /** Paths relative to the root, '/'-separated, files and directories. */
    private final Set<String> paths = new TreeSet<>();
    /** Simple type name -> the source files (Java or .avsc) that declare it. */
    private final Map<String, List<Path>> types = new HashMap<>();

    private final Set<String> packages = new HashSet<>();
    /** Source texts read so far, and their code without comments and strings: each file is read once. */
    private final Map<Path, String> texts = new HashMap<>();

    private final Map<Path, String> codes = new HashMap<>();

    private SourceTree(Path root) {
        this.root = root;
    }

    /** The repository that holds the working directory: the nearest parent with the Maven wrapper and a pom. */
    static Path findRoot(Path from) {
        for (Path p = from.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (mvnw and pom.xml) above " + from.toAbsolutePath());
    }

    static SourceTree scan(Path root) {
        SourceTree tree = new SourceTree(root);
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    if (!dir.equals(root)
                            && SKIPPED_DIRS.contains(dir.getFileName().toString())) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    if (!dir.equals(root)) {
                        tree.paths.add(tree.relative(dir));
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    tree.paths.add(tree.relative(file));
                    String name = file.getFileName().toString();
                    if (name.endsWith(".java")) {
                        tree.indexJava(file);
                    } else if (name.endsWith(".avsc")) {
                        tree.indexAvro(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tree;
    }

    Path root() {
        return root;
    }

    String relative(Path p) {
        return root.relativize(p).toString().replace('\\', '/');
    }

    /** Every Markdown document of the tree, in path order. */
    List<Path> markdownFiles() {
        return paths.stream()
                .filter(p -> p.endsWith(".md"))
                .map(root::resolve)
                .filter(Files::isRegularFile)
                .toList();
    }

    /**
     * Whether {@code path} names something in the tree: relative to the root, relative to {@code docDir} (a
     * document's folder, relative to the root), or as the trailing segments of an existing path ("dashboard/API.md").
     */
    boolean exists(String path, String docDir) {
        String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        if (p.startsWith("./")) {
            p = p.substring(2);
        }
        if (p.isEmpty()) {
            return true;
        }
        String fromDoc = Path.of(docDir.isEmpty() ? "." : docDir)
                .resolve(p)
                .normalize()
                .toString()
                .replace('\\', '/');
        if (paths.contains(p) || paths.contains(fromDoc) || (fromDoc.isEmpty() || fromDoc.equals("."))) {
            return true;
        }
        String suffix = "/" + p;
        return paths.stream().anyMatch(existing -> existing.endsWith(suffix));
    }

    /** Whether an entry of that name sits at the top of the tree ("streams", "bench", ".ci"). */
    boolean isTopLevel(String name) {
        return !name.contains("/") && paths.contains(name);
    }

    /** The files that declare the simple type name (Java or Avro); empty when the tree has none. */
    List<Path> declarations(String simpleName) {
        return types.getOrDefault(simpleName, List.of());
    }

    /** Whether a Java package or Avro namespace of that dotted name exists ("dev.ssdpulse.schemas.avro"). */
    boolean isPackage(String dotted) {
        return packages.contains(dotted);
    }

    /** The first-level packages of a module's main code: {@code MODULE/src/main/java/dev/ssdpulse/MODULE/*}. */
    Set<String> topPackages(String module) {
        String prefix = module + "/src/main/java/dev/ssdpulse/" + module + "/";
        Set<String> out = new TreeSet<>();
        for (String p : paths) {
            if (p.startsWith(prefix)) {
                String rest = p.substring(prefix.length());
                int slash = rest.indexOf('/');
                if (slash > 0 && Files.isDirectory(root.resolve(prefix + rest.substring(0, slash)))) {
                    out.add(rest.substring(0, slash));
                } else if (slash < 0 && Files.isDirectory(root.resolve(p))) {
                    out.add(rest);
                }
            }
        }
        return out;
    }

    /** The modules with main code under the project's package: {@code MODULE/src/main/java/dev/ssdpulse/MODULE}. */
    Set<String> modules() {
        Set<String> out = new TreeSet<>();
        for (String p : paths) {
            String[] parts = p.split("/");
            if (parts.length == 7
                    && parts[1].equals("src")
                    && parts[2].equals("main")
                    && parts[3].equals("java")
                    && parts[4].equals("dev")
                    && parts[5].equals("ssdpulse")
                    && parts[6].equals(parts[0])) {
                out.add(parts[0]);
            }
        }
        return out;
    }

    /** The source text of a declaring file. */
    String read(Path file) {
        return texts.computeIfAbsent(file, f -> {
            try {
                return Files.readString(f);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** A Java file's code without comments and strings ({@link #codeOnly}); any other file as it is. */
    String code(Path file) {
        return codes.computeIfAbsent(file, f -> f.toString().endsWith(".java") ? codeOnly(read(f)) : read(f));
    }

    Optional<String> javaPackageOf(Path file) {
        Matcher m = Pattern.compile("(?m)^package\\s+([a-z][a-z0-9_.]*)\\s*;").matcher(read(file));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private void indexJava(Path file) {
        String text = read(file);
        String fileType = file.getFileName().toString().replaceFirst("\\.java$", "");
        types.computeIfAbsent(fileType, k -> new ArrayList<>()).add(file);
        Matcher m = JAVA_TYPE.matcher(code(file));
        while (m.find()) {
            if (!m.group(1).equals(fileType)) {
                types.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file);
            }
        }
        javaPackageOf(file).ifPresent(pkg -> {
            for (String p = pkg; !p.isEmpty(); p = p.contains(".") ? p.substring(0, p.lastIndexOf('.')) : "") {
                packages.add(p);
            }
        });
    }

    private void indexAvro(Path file) {
        String text = read(file);
        Matcher names = AVRO_NAME.matcher(text);
        while (names.find()) {
            // type names start with a capital; field names in these schemas never do
            if (Character.isUpperCase(names.group(1).charAt(0))) {
                types.computeIfAbsent(names.group(1), k -> new ArrayList<>()).add(file);
            }
        }
        Matcher ns = AVRO_NAMESPACE.matcher(text);
        while (ns.find()) {
            packages.add(ns.group(1));
        }
    }

    /**
     * The code of a Java file without its comments, string literals, text blocks and character literals, so that
     * "a record of ..." in a comment or "no class Foo" in a string declares nothing.
     */
    static String codeOnly(String java) {
        StringBuilder out = new StringBuilder(java.length());
        int i = 0;
        int n = java.length();
        while (i < n) {
            char c = java.charAt(i);
            if (java.startsWith("//", i)) {
                int end = java.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (java.startsWith("/*", i)) {
                int end = java.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (java.startsWith("\"\"\"", i)) {
                int end = java.indexOf("\"\"\"", i + 3);
                while (end > 0 && java.charAt(end - 1) == '\\') {
                    end = java.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && java.charAt(j) != c && java.charAt(j) != '\n') {
                    j += java.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
                out.append("\"\"");
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
