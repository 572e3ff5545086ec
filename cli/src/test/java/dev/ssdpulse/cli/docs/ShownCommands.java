package dev.ssdpulse.cli.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The ssdpulse command lines a document shows: inline code spans that start with the launcher ({@code ssdpulse},
 * {@code ./ssdpulse}, {@code bin/ssdpulse}, {@code .../bin/ssdpulse}), and lines of fenced blocks whose command is
 * the launcher (blocks marked java, json, yaml or text aside; after environment assignments and {@code time};
 * backslash continuations joined; a trailing
 * comment, {@code &}, pipe or redirection ends the command). An inline span names a command in prose or gives
 * its synopsis: its command path and option names are checked. A fenced line is meant to be copied: it is parsed
 * as written, unless it has {@code [}, {@code ]}, {@code ...} or an alternative bar (a synopsis again).
 */
final class ShownCommands {

    /** The arguments after the launcher, where they were shown, and whether they are a synopsis. */
    record Shown(List<String> args, String text, int line, boolean synopsis) {}

    /** Fenced blocks that hold code, data or a listing, never a command to type. */
    private static final Set<String> NOT_COMMANDS = Set.of("java", "json", "yaml", "text");

    private static final Set<String> PREFIX_WORDS = Set.of("time", "sudo", "exec", "nohup");
    private static final Pattern ENV_ASSIGNMENT = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*=.*");

    private ShownCommands() {}

    static List<Shown> in(MarkdownText markdown) {
        List<Shown> out = new ArrayList<>();
        for (MarkdownText.Span span : markdown.inlineSpans()) {
            List<String> words = words(span.text(), false);
            if (!words.isEmpty() && isLauncher(words.get(0))) {
                out.add(new Shown(List.copyOf(words.subList(1, words.size())), span.text(), span.line(), true));
            }
        }
        List<MarkdownText.FencedLine> fenced = markdown.fencedLines();
        for (int i = 0; i < fenced.size(); i++) {
            MarkdownText.FencedLine first = fenced.get(i);
            if (NOT_COMMANDS.contains(first.info())) {
                continue;
            }
            StringBuilder joined = new StringBuilder(first.text());
            while (joined.toString().endsWith("\\")
                    && i + 1 < fenced.size()
                    && fenced.get(i + 1).line() == fenced.get(i).line() + 1) {
                joined.setLength(joined.length() - 1);
                joined.append(' ').append(fenced.get(++i).text().strip());
            }
            List<String> words = words(joined.toString(), true);
            while (!words.isEmpty()
                    && (ENV_ASSIGNMENT.matcher(words.get(0)).matches() || PREFIX_WORDS.contains(words.get(0)))) {
                words = words.subList(1, words.size());
            }
            if (!words.isEmpty() && isLauncher(words.get(0))) {
                out.add(shown(words, joined.toString().strip(), first.line()));
            }
        }
        return out;
    }

    static boolean isLauncher(String word) {
        return word.equals("ssdpulse")
                || word.equals("./ssdpulse")
                || word.equals("bin/ssdpulse")
                || word.endsWith("/bin/ssdpulse");
    }

    private static Shown shown(List<String> words, String text, int line) {
        List<String> args = words.subList(1, words.size());
        boolean synopsis =
                args.stream().anyMatch(a -> a.contains("[") || a.contains("]") || a.contains("...") || a.contains("|"));
        return new Shown(List.copyOf(args), text, line, synopsis);
    }

    /**
     * Shell words: quotes and backslashes as a POSIX shell reads them; an unquoted {@code #} at a word's start, or
     * {@code &}, {@code ;}, {@code >} or {@code <}, ends the command. In a fenced block a bar between words is a
     * pipe and ends it too; in an inline synopsis it separates alternatives ({@code [--data-dir DIR | --ephemeral]}).
     */
    static List<String> words(String line, boolean barIsPipe) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
                continue;
            }
            if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            boolean endsCommand = c == '&' || c == ';' || c == '>' || c == '<' || (c == '#' && word == null);
            boolean pipe = barIsPipe && c == '|' && word == null;
            if (endsCommand || pipe) {
                break;
            }
            if (word == null) {
                word = new StringBuilder();
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '\\' && i + 1 < line.length()) {
                char next = line.charAt(++i);
                word.append(next == '|' ? "|" : String.valueOf(next));
            } else {
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }
}
