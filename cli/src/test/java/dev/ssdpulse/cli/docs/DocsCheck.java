package dev.ssdpulse.cli.docs;

import dev.ssdpulse.cli.Main;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The documents against the tree and the commands: every Markdown file of the repository (README, BENCHMARKS,
 * {@code docs/}, the documents beside the code) is read for
 * <ul>
 *   <li>class, package and file names in inline code ({@link CodeNames} defines which spans count) that do not
 *       exist;</li>
 *   <li>workload and simulated-drive preset names in inline code ({@code seed003-qd32-random-write-5000s},
 *       {@code sata-mlc-120gb-2012}) that are no preset;</li>
 *   <li>ssdpulse command lines ({@link ShownCommands}) the real commands would refuse ({@link CommandCheck});</li>
 *   <li>relative links to files or headings that do not exist;</li>
 *   <li>and, in README.md's "Layout" section, a module whose entry does not name each of its first-level packages
 *       in inline code.</li>
 * </ul>
 * Each problem is one line: {@code path:line: what}.
 */
final class DocsCheck {

    private static final Pattern WORKLOAD_PRESET = Pattern.compile("^(?:seed\\d{3}|snia-pts)-[a-z0-9-]+$");
    private static final Pattern SSD_PRESET = Pattern.compile("^(?:sata|nvme)-[a-z0-9-]*\\d+(?:gb|tb)[a-z0-9-]*$");
    private static final Pattern LINK = Pattern.compile("(?<!!)\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final String LAYOUT_SECTION = "Layout";

    private final SourceTree tree;
    private final CodeNames names;
    private final CommandCheck commands;
    private final Set<String> workloadPresets;
    private final Set<String> ssdPresets;

    DocsCheck(SourceTree tree, ClasspathNames classpath) {
        this.tree = tree;
        this.names = new CodeNames(tree, classpath);
        this.workloadPresets = workloadPresets(tree.root());
        this.ssdPresets = ssdPresets(tree.root());
        this.commands = new CommandCheck(Main::commandLine, workloadPresets, ssdPresets);
    }

    /** Every problem of every Markdown document of the tree. */
    List<String> run() {
        List<String> problems = new ArrayList<>();
        for (Path doc : tree.markdownFiles()) {
            problems.addAll(check(doc));
        }
        return problems;
    }

    List<String> check(Path doc) {
        String relative = tree.relative(doc);
        String docDir = relative.contains("/") ? relative.substring(0, relative.lastIndexOf('/')) : "";
        MarkdownText markdown = new MarkdownText(read(doc));
        // one problem per name and line: a name cited twice on a line is one mistake
        Map<String, String> problems = new LinkedHashMap<>();
        for (MarkdownText.Span span : markdown.inlineSpans()) {
            String text = span.text().strip();
            Optional<String> problem = names.check(text, docDir).or(() -> checkPresetName(text));
            problem.ifPresent(p -> problems.putIfAbsent(relative + ":" + span.line() + ": " + p, ""));
        }
        for (ShownCommands.Shown shown : ShownCommands.in(markdown)) {
            commands.check(shown).ifPresent(p -> problems.putIfAbsent(relative + ":" + shown.line() + ": " + p, ""));
        }
        checkLinks(markdown, relative, docDir).forEach(p -> problems.putIfAbsent(p, ""));
        if (relative.equals("README.md")) {
            checkLayout(markdown).forEach(p -> problems.putIfAbsent(p, ""));
        }
        return new ArrayList<>(problems.keySet());
    }

    private Optional<String> checkPresetName(String text) {
        if (WORKLOAD_PRESET.matcher(text).matches() && !workloadPresets.contains(text)) {
            return Optional.of("`" + text + "` not found: no workload preset of that name");
        }
        if (SSD_PRESET.matcher(text).matches() && !ssdPresets.contains(text)) {
            return Optional.of("`" + text + "` not found: no simulated-drive preset of that name");
        }
        return Optional.empty();
    }

    /** Relative links: the file must exist, and a #fragment must be a heading of the linked document. */
    private List<String> checkLinks(MarkdownText markdown, String relative, String docDir) {
        List<String> problems = new ArrayList<>();
        List<String> lines = markdown.lines();
        Set<Integer> fenced = markdown.fencedLines().stream()
                .map(MarkdownText.FencedLine::line)
                .collect(Collectors.toSet());
        for (int i = 0; i < lines.size(); i++) {
            if (fenced.contains(i + 1)) {
                continue;
            }
            Matcher m = LINK.matcher(lines.get(i).replaceAll("`[^`]*`", ""));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String fragment = hash < 0 ? null : target.substring(hash + 1);
                Path linked = file.isEmpty()
                        ? tree.root().resolve(relative)
                        : tree.root().resolve(docDir).resolve(file).normalize();
                String where = relative + ":" + (i + 1) + ": ";
                if (!Files.exists(linked)) {
                    problems.add(where + "link (" + target + ") not found: no file " + tree.relative(linked));
                } else if (fragment != null && !fragment.isEmpty() && Files.isRegularFile(linked)) {
                    if (!anchors(new MarkdownText(read(linked))).contains(fragment)) {
                        problems.add(where + "link (" + target + ") not found: " + tree.relative(linked)
                                + " has no heading #" + fragment);
                    }
                }
            }
        }
        return problems;
    }

    /** GitHub's heading anchors: lower case, spaces to '-', punctuation other than '-' and '_' dropped. */
    static Set<String> anchors(MarkdownText markdown) {
        Set<String> out = new TreeSet<>();
        Set<Integer> fenced = markdown.fencedLines().stream()
                .map(MarkdownText.FencedLine::line)
                .collect(Collectors.toSet());
        List<String> lines = markdown.lines();
        for (int i = 0; i < lines.size(); i++) {
            Matcher h = Pattern.compile("^#{1,6} (.+)$").matcher(lines.get(i));
            if (!fenced.contains(i + 1) && h.matches()) {
                String slug = h.group(1)
                        .strip()
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                String unique = slug;
                for (int n = 1; out.contains(unique); n++) {
                    unique = slug + "-" + n;
                }
                out.add(unique);
            }
        }
        return out;
    }

    /** README's Layout: each module's entry names every first-level package of its main code in inline code. */
    private List<String> checkLayout(MarkdownText markdown) {
        List<String> problems = new ArrayList<>();
        int[] section = markdown.section(LAYOUT_SECTION);
        if (section == null) {
            return List.of("README.md:1: no \"" + LAYOUT_SECTION + "\" section naming the modules and their packages");
        }
        Map<String, Integer> entryLine = new LinkedHashMap<>();
        Map<String, Set<String>> named = new LinkedHashMap<>();
        Map<Integer, List<String>> spansByLine = markdown.inlineSpans().stream()
                .collect(Collectors.groupingBy(
                        MarkdownText.Span::line, Collectors.mapping(MarkdownText.Span::text, Collectors.toList())));
        String current = null;
        for (int line = section[0]; line < section[1]; line++) {
            String text = markdown.lines().get(line - 1).replaceFirst("^[|\\s`]+", "");
            for (String module : tree.modules()) {
                if (text.startsWith(module + "/")) {
                    current = module;
                    entryLine.putIfAbsent(module, line);
                }
            }
            if (current != null) {
                for (String span : spansByLine.getOrDefault(line, List.of())) {
                    named.computeIfAbsent(current, k -> new TreeSet<>()).add(span.replaceFirst("/$", ""));
                }
            }
        }
        for (String module : tree.modules()) {
            if (!entryLine.containsKey(module)) {
                problems.add("README.md:" + section[0] + ": Layout does not list the module `" + module + "/`");
                continue;
            }
            Set<String> missing = new TreeSet<>(tree.topPackages(module));
            missing.removeAll(named.getOrDefault(module, Set.of()));
            if (!missing.isEmpty()) {
                problems.add("README.md:" + entryLine.get(module) + ": Layout: `" + module + "/` does not name its "
                        + "packages " + missing.stream().map(p -> "`" + p + "`").collect(Collectors.joining(", ")));
            }
        }
        return problems;
    }

    private static Set<String> workloadPresets(Path root) {
        Path list = root.resolve("producer/src/main/resources/workloads/presets.txt");
        return read(list)
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> ssdPresets(Path root) {
        try (var files = Files.list(root.resolve("producer/src/main/resources/ssd-presets"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .map(n -> n.substring(0, n.length() - ".json".length()))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
