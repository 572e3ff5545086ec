package dev.ssdpulse.cli.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a Markdown document the docs check reads: inline code spans (outside fenced blocks) and the lines of
 * fenced code blocks, each with its 1-based line number. Only what GitHub's renderer would show as code counts;
 * prose is never read.
 */
final class MarkdownText {

    /** An inline code span's text as rendered (a table's {@code \|} is a plain '|'), and where it starts. */
    record Span(String text, int line) {}

    /** One line of a fenced code block, the fence's info string (e.g. "java", "" for none) and its line. */
    record FencedLine(String text, String info, int line) {}

    private final List<String> lines;

    MarkdownText(String markdown) {
        this.lines = markdown.lines().toList();
    }

    List<String> lines() {
        return lines;
    }

    /** Inline code spans outside fenced blocks; a span does not cross a line (the documents never need it to). */
    List<Span> inlineSpans() {
        List<Span> spans = new ArrayList<>();
        String fence = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String opened = fenceOf(line);
            if (fence == null && opened != null) {
                fence = opened;
                continue;
            }
            if (fence != null) {
                if (line.strip().startsWith(fence)
                        && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
                    fence = null;
                }
                continue;
            }
            collectSpans(line, i + 1, spans);
        }
        return spans;
    }

    /** Every line inside a fenced block (``` or ~~~, optionally indented as in a list item). */
    List<FencedLine> fencedLines() {
        List<FencedLine> out = new ArrayList<>();
        String fence = null;
        String info = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (fence == null) {
                String opened = fenceOf(line);
                if (opened != null) {
                    fence = opened;
                    info = line.strip().substring(opened.length()).strip();
                }
                continue;
            }
            if (line.strip().startsWith(fence)
                    && line.strip().replace(fence.substring(0, 1), "").isEmpty()) {
                fence = null;
                continue;
            }
            out.add(new FencedLine(line, info, i + 1));
        }
        return out;
    }

    /** The 1-based line range (start inclusive, end exclusive) of the section under heading {@code title}. */
    int[] section(String title) {
        int start = -1;
        int level = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hashes = headingLevel(line);
            if (hashes == 0) {
                continue;
            }
            if (start < 0 && line.substring(hashes).strip().equals(title)) {
                start = i + 1;
                level = hashes;
            } else if (start >= 0 && hashes <= level) {
                return new int[] {start + 1, i + 1};
            }
        }
        return start < 0 ? null : new int[] {start + 1, lines.size() + 1};
    }

    private static int headingLevel(String line) {
        int n = 0;
        while (n < line.length() && line.charAt(n) == '#') {
            n++;
        }
        return n > 0 && n <= 6 && n < line.length() && line.charAt(n) == ' ' ? n : 0;
    }

    private static String fenceOf(String line) {
        String s = line.strip();
        for (String f : new String[] {"```", "~~~"}) {
            if (s.startsWith(f)) {
                int n = 0;
                while (n < s.length() && s.charAt(n) == f.charAt(0)) {
                    n++;
                }
                return s.substring(0, n);
            }
        }
        return null;
    }

    private static void collectSpans(String line, int lineNumber, List<Span> out) {
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                i += 2; // an escaped backtick opens nothing
                continue;
            }
            if (c != '`') {
                i++;
                continue;
            }
            int ticks = run(line, i);
            int close = findClosing(line, i + ticks, ticks);
            if (close < 0) {
                i += ticks;
                continue;
            }
            String text = line.substring(i + ticks, close);
            if (ticks > 1
                    && text.startsWith(" ")
                    && text.endsWith(" ")
                    && text.strip().length() > 0) {
                text = text.substring(1, text.length() - 1);
            }
            out.add(new Span(text.replace("\\|", "|"), lineNumber));
            i = close + ticks;
        }
    }

    private static int run(String s, int from) {
        int n = 0;
        while (from + n < s.length() && s.charAt(from + n) == '`') {
            n++;
        }
        return n;
    }

    private static int findClosing(String s, int from, int ticks) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '`') {
                int n = run(s, i);
                if (n == ticks) {
                    return i;
                }
                i += n;
            } else {
                i++;
            }
        }
        return -1;
    }
}
