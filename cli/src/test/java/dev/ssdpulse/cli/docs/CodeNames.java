package dev.ssdpulse.cli.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which inline code spans name a class or a file, and whether that class or file exists.
 *
 * <p><b>Class names</b>: a span that is a Java type name, optionally package-qualified and optionally followed by
 * members, with at most a trailing argument list: {@code RunAnalysis}, {@code analysis.RunAnalysis},
 * {@code dev.ssdpulse.schemas.topics.Topics}, {@code Topics.METRICS_1S}, {@code LatencyAccumulator.encode()},
 * {@code RunFinished(ABORTED)}, {@code IoStreamRecordCodec.Reader.read(byte[], ...)}. The type is its first
 * segment that starts with a capital and has a lower-case letter (so {@code README}, {@code SASL_SSL} or
 * {@code O_DIRECT} are no type names). It exists when a Java file of the tree declares it (top-level or nested, in
 * any source set) or an Avro schema names it; a package qualifier must match the declaring file's package (its
 * trailing segments); a capitalised segment after the type is a nested type the same file declares, and a member
 * ({@code parse}, {@code READ}, a schema field) must appear in the declaring file as a word. A type no file of the
 * tree declares may come from another project: it passes when the JDK or the class path has a class of that simple
 * name (members of such types are not checked).
 *
 * <p><b>File names</b>: a span without spaces or placeholders that either starts with a top-level entry of the
 * tree ({@code streams/ANALYTICS.md}, {@code bench/device-vs-fio.sh}, {@code docker/compose-spec/}) or ends in a
 * source file's extension ({@code SOURCES.md}, {@code dashboard/API.md}, {@code compose.local.yml}). It exists
 * relative to the repository root, to the document's folder, or as the trailing part of a path of the tree. Not
 * file names: absolute paths ({@code /dev/loop0}, {@code /api/runs}), home paths, URLs, anything with a
 * placeholder ({@code <version>}, {@code DIR/secure/}, {@code *.log}, {@code ${x}}), build output under a
 * {@code target/} directory, and generated files whose extensions are not listed here ({@code .properties},
 * {@code .p12}, {@code .csv}, {@code .png}, {@code .tar.gz}).
 */
final class CodeNames {

    /** Extensions of files the tree keeps; a bare name with one of them must exist. */
    static final Set<String> SOURCE_EXTENSIONS =
            Set.of("md", "java", "json", "yaml", "yml", "sh", "py", "avsc", "xml", "js", "html", "css", "txt", "c");

    private static final Pattern PROJECT_PACKAGE = Pattern.compile("^dev\\.ssdpulse(?:\\.[a-z][a-z0-9_]*)*$");
    private static final Pattern CALL = Pattern.compile("^([^()\\s]+)\\(.*\\)$");
    private static final Pattern QUALIFIED_NAME =
            Pattern.compile("^(?:[a-z][a-z0-9_]*\\.)*[A-Z][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*$");
    private static final Pattern ALL_CAPS = Pattern.compile("^[A-Z][A-Z0-9_]*$");
    private static final Pattern PLACEHOLDER_CHARS = Pattern.compile("[\\s<>{}*$:=@?,;()\\[\\]\"'|#%&!^`]");

    private final SourceTree tree;
    private final ClasspathNames classpath;

    CodeNames(SourceTree tree, ClasspathNames classpath) {
        this.tree = tree;
        this.classpath = classpath;
    }

    /** The problem with a span, if it names a class or file that does not exist; empty for any other span. */
    Optional<String> check(String span, String docDir) {
        String text = span.strip();
        if (PROJECT_PACKAGE.matcher(text).matches()) {
            return tree.isPackage(text)
                    ? Optional.empty()
                    : Optional.of("`" + text + "` not found: no such package or Avro namespace in the repository");
        }
        if (isFileName(text)) {
            if (tree.exists(text, docDir)) {
                return Optional.empty();
            }
            if (!isClassName(text)) {
                return Optional.of("`" + text + "` not found: no such file or directory in the repository");
            }
        }
        if (isClassName(text)) {
            return checkClass(typeExpression(text));
        }
        return Optional.empty();
    }

    static boolean isClassName(String span) {
        String text = typeExpression(span.strip());
        if (!QUALIFIED_NAME.matcher(text).matches()) {
            return false;
        }
        return firstTypeSegment(text.split("\\.")) >= 0;
    }

    boolean isFileName(String span) {
        String text = span.strip();
        if (text.isEmpty()
                || text.startsWith("/")
                || text.startsWith("~")
                || text.startsWith("-")
                || text.contains("...")
                || text.contains("//")
                || PLACEHOLDER_CHARS.matcher(text).find()) {
            return false;
        }
        String path = text.startsWith("./") ? text.substring(2) : text;
        String[] segments = path.split("/");
        for (int i = 0; i < segments.length; i++) {
            if (segments[i].equals("target")) {
                return false; // build output: exists only after a build
            }
            boolean last = i == segments.length - 1;
            if (!last && ALL_CAPS.matcher(segments[i]).matches()) {
                return false; // DIR/secure/, OUT/report.txt: a placeholder, not a path
            }
        }
        String lastSegment = segments[segments.length - 1];
        int dot = lastSegment.lastIndexOf('.');
        boolean sourceExtension = dot > 0 && SOURCE_EXTENSIONS.contains(lastSegment.substring(dot + 1));
        boolean underTopLevel = path.contains("/") && (segments[0].equals("..") || tree.isTopLevel(segments[0]));
        return sourceExtension || underTopLevel;
    }

    /** "LatencyAccumulator.encode()" -> "LatencyAccumulator.encode"; "RunFinished(ABORTED)" -> "RunFinished". */
    private static String typeExpression(String text) {
        Matcher call = CALL.matcher(text);
        return call.matches() ? call.group(1) : text;
    }

    /** Index of the first segment that is a type name: a capital, then at least one lower-case letter. */
    private static int firstTypeSegment(String[] segments) {
        for (int i = 0; i < segments.length; i++) {
            String s = segments[i];
            if (Character.isUpperCase(s.charAt(0))) {
                // "Ns" in "a field name ends in `Ns`" is a suffix, not a type: type names have 3 characters or more;
                // "Host_Writes_32MiB" is a SMART attribute's name: Java type names here are CamelCase, never Snake_Case
                return s.length() >= 3 && s.chars().anyMatch(Character::isLowerCase) && s.indexOf('_') < 0 ? i : -1;
            }
        }
        return -1;
    }

    private Optional<String> checkClass(String expression) {
        String[] segments = expression.split("\\.");
        int typeAt = firstTypeSegment(segments);
        String type = segments[typeAt];
        List<String> qualifier = Arrays.asList(segments).subList(0, typeAt);
        List<String> members = Arrays.asList(segments).subList(typeAt + 1, segments.length);

        List<Path> declaring = new ArrayList<>(tree.declarations(type));
        if (declaring.isEmpty()) {
            if (qualifier.isEmpty() && (classpath.contains(type) || tree.exists(type, ""))) {
                return Optional.empty();
            }
            if (!qualifier.isEmpty() && !qualifier.get(0).equals("dev") && classpath.contains(type)) {
                return Optional.empty(); // org.apache.avro.SchemaCompatibility and the like
            }
            return Optional.of("`" + expression + "` not found: no class " + type
                    + " in the repository's sources or Avro schemas, nor on the class path");
        }
        if (!qualifier.isEmpty()) {
            String wanted = String.join(".", qualifier);
            declaring.removeIf(file -> !packageOf(file)
                    .map(p -> p.equals(wanted) || p.endsWith("." + wanted))
                    .orElse(false));
            if (declaring.isEmpty()) {
                return Optional.of("`" + expression + "` not found: " + type + " is not in a package " + wanted
                        + " (declared in "
                        + String.join(
                                ", ",
                                tree.declarations(type).stream()
                                        .map(tree::relative)
                                        .toList())
                        + ")");
            }
        }
        for (String member : members) {
            boolean nestedType =
                    Character.isUpperCase(member.charAt(0)) && member.chars().anyMatch(Character::isLowerCase);
            Pattern declared = nestedType
                    ? Pattern.compile("\\b(?:class|interface|enum|record)\\s+" + Pattern.quote(member) + "\\b")
                    : Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
            boolean found = declaring.stream()
                    .anyMatch(file -> declared.matcher(tree.code(file)).find());
            if (!found) {
                return Optional.of("`" + expression + "` not found: " + type + " ("
                        + tree.relative(declaring.get(0)) + ") has no " + (nestedType ? "nested type " : "member ")
                        + member);
            }
        }
        return Optional.empty();
    }

    private Optional<String> packageOf(Path file) {
        if (file.toString().endsWith(".avsc")) {
            Matcher ns = Pattern.compile("\"namespace\"\\s*:\\s*\"([a-z][a-z0-9_.]*)\"")
                    .matcher(tree.read(file));
            return ns.find() ? Optional.of(ns.group(1)) : Optional.empty();
        }
        return tree.javaPackageOf(file);
    }
}
