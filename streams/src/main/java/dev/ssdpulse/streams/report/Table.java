package dev.ssdpulse.streams.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * A column set and its renderings, the same cells in each: RFC 4180 CSV (header row, CRLF, fields quoted only
 * when they must be), aligned text, HTML and JSON (an array of objects keyed by each column's JSON key, values
 * typed: numbers as numbers, empty cells as null). Numbers never depend on the locale: '.' decimals, in CSV and
 * text at most 6 of them, no exponent, no grouping. Columns without a name are JSON only.
 */
public final class Table<R> {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private final List<Column<R>> all;
    /** The columns of CSV, text and HTML. */
    private final List<Column<R>> columns;

    public Table(List<Column<R>> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.all = List.copyOf(columns);
        this.columns = all.stream().filter(c -> c.name() != null).toList();
    }

    /** The columns of CSV, text and HTML. */
    public List<Column<R>> columns() {
        return columns;
    }

    /** The named columns, in the order given: a narrower view of the same cells (e.g. for text). */
    public Table<R> select(String... names) {
        return pick(names, (c, name) -> name.equals(c.name()), "column");
    }

    /**
     * The JSON view: the columns of the given JSON keys in that order, a group key ({@code latencyNs}) standing
     * for all its columns ({@code latencyNs/...}) in table order.
     */
    public Table<R> selectJson(String... keys) {
        return pick(
                keys,
                (c, key) -> c.jsonKey() != null
                        && (c.jsonKey().equals(key) || c.jsonKey().startsWith(key + "/")),
                "JSON key");
    }

    private Table<R> pick(String[] keys, BiPredicate<Column<R>, String> matches, String what) {
        List<Column<R>> picked = new ArrayList<>();
        for (String key : keys) {
            List<Column<R>> found =
                    all.stream().filter(c -> matches.test(c, key)).toList();
            if (found.isEmpty()) {
                throw new IllegalArgumentException("no " + what + " '" + key + "' in " + header());
            }
            picked.addAll(found);
        }
        return new Table<>(picked);
    }

    public List<String> header() {
        return columns.stream().map(Column::name).toList();
    }

    public String csv(List<? extends R> rows) {
        StringBuilder out = new StringBuilder(64 * (rows.size() + 1));
        line(out, header());
        for (R row : rows) {
            List<String> cells = new ArrayList<>(columns.size());
            for (Column<R> c : columns) {
                cells.add(cell(c.value().apply(row)));
            }
            line(out, cells);
        }
        return out.toString();
    }

    public ArrayNode json(List<? extends R> rows) {
        ArrayNode array = F.arrayNode(rows.size());
        rows.forEach(row -> array.add(json(row)));
        return array;
    }

    /**
     * One row as a JSON object: its JSON columns in order, {@code group/key} nested in {@code group}; a cell that
     * is an empty Optional leaves its key out (documents whose fields are there only when known).
     */
    public ObjectNode json(R row) {
        ObjectNode o = F.objectNode();
        for (Column<R> c : all) {
            Object v = c.jsonKey() == null ? null : c.jsonValue().apply(row);
            if (c.jsonKey() != null && !(v instanceof Optional<?> absent && absent.isEmpty())) {
                int slash = c.jsonKey().indexOf('/');
                ObjectNode parent =
                        slash < 0 ? o : o.withObjectProperty(c.jsonKey().substring(0, slash));
                parent.set(
                        c.jsonKey().substring(slash + 1),
                        AvroJson.value(v instanceof Optional<?> given ? given.get() : v));
            }
        }
        return o;
    }

    /**
     * An HTML {@code <table>} of the same cells as the text (rounded for reading, thousands grouped), escaped;
     * headers in words ({@link #label}); numbers right-aligned (class {@code num}); each cell carries its column's
     * name in {@code data-column} and its exact CSV value in {@code data-value} for scripts and tests.
     */
    public String html(List<? extends R> rows) {
        StringBuilder b = new StringBuilder("<table>\n<thead><tr>");
        for (Column<R> c : columns) {
            b.append("<th data-column=\"")
                    .append(escapeHtml(c.name()))
                    .append("\">")
                    .append(escapeHtml(label(c.name())))
                    .append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (R row : rows) {
            b.append("<tr>");
            for (Column<R> c : columns) {
                htmlCell(b, c, row);
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody>\n</table>\n").toString();
    }

    /**
     * The same cells turned a quarter: one HTML column per row, one line per column, the first column's cells as
     * the header. For a few records compared side by side (runs), where a line each would run off the page.
     */
    public String htmlSideBySide(List<? extends R> rows) {
        StringBuilder b = new StringBuilder("<table class=\"side-by-side\">\n<thead><tr><th data-column=\"")
                .append(escapeHtml(columns.get(0).name()))
                .append("\">")
                .append(escapeHtml(label(columns.get(0).name())))
                .append("</th>");
        for (R row : rows) {
            htmlCell(b, columns.get(0), row, "th");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (Column<R> c : columns.subList(1, columns.size())) {
            b.append("<tr><th data-column=\"")
                    .append(escapeHtml(c.name()))
                    .append("\">")
                    .append(escapeHtml(label(c.name())))
                    .append("</th>");
            for (R row : rows) {
                htmlCell(b, c, row);
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody>\n</table>\n").toString();
    }

    private void htmlCell(StringBuilder b, Column<R> c, R row) {
        htmlCell(b, c, row, "td");
    }

    private void htmlCell(StringBuilder b, Column<R> c, R row, String tag) {
        Object v = c.value().apply(row);
        b.append('<')
                .append(tag)
                .append(v instanceof Number ? " class=\"num\"" : "")
                .append(" data-column=\"")
                .append(escapeHtml(c.name()))
                .append("\" data-value=\"")
                .append(escapeHtml(cell(v)))
                .append("\">")
                .append(escapeHtml(v instanceof Number ? ReportFormat.grouped(textCell(c, v)) : textCell(c, v)))
                .append("</")
                .append(tag)
                .append('>');
    }

    private static final String[][] UNIT_SUFFIXES = {
        {"_mb_per_s", "MB/s"}, {"_us", "µs"}, {"_ms", "ms"}, {"_s", "s"}, {"_gb", "GB"}, {"_bytes", "bytes"}
    };

    /**
     * A column name in words for a header people read: the unit suffix in brackets, "count_ge_10ms" as "I/Os ≥
     * 10ms", "p99_99" as "p99.99", "iops", "mb_per_s", "wa" and "pct" as IOPS, MB/s, WA and %; "latency_p99_9_us"
     * gives "latency p99.9 (µs)".
     */
    public static String label(String name) {
        if (name.startsWith("count_ge_")) {
            return "I/Os ≥ " + name.substring("count_ge_".length());
        }
        String s = name;
        String unit = "";
        for (String[] suffix : UNIT_SUFFIXES) {
            if (s.endsWith(suffix[0]) && !s.equals("mb_per_s")) {
                s = s.substring(0, s.length() - suffix[0].length());
                unit = " (" + suffix[1] + ")";
                break;
            }
        }
        s = s.replaceAll("p99_(9+)", "p99.$1").replace("mb_per_s", "MB/s");
        StringBuilder b = new StringBuilder();
        for (String word : s.split("_")) {
            b.append(b.isEmpty() ? "" : " ")
                    .append(
                            switch (word) {
                                case "iops" -> "IOPS";
                                case "wa" -> "WA";
                                case "pct" -> "%";
                                case "io" -> "I/O";
                                default -> word;
                            });
        }
        return b + unit;
    }

    /** Text for HTML element content and attribute values. */
    public static String escapeHtml(String text) {
        StringBuilder b = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }

    private static <R> String textCell(Column<R> column, Object v) {
        return v instanceof Double d && column.textDecimals() >= 0 && Double.isFinite(d)
                ? BigDecimal.valueOf(d)
                        .setScale(column.textDecimals(), RoundingMode.HALF_UP)
                        .toPlainString()
                : cell(v);
    }

    /** Columns padded to their widest cell; numbers right-aligned, text left-aligned. */
    public void text(PrintWriter out, List<? extends R> rows) {
        text(out, rows, "");
    }

    /** As {@link #text(PrintWriter, List)}, each line after {@code indent}. */
    public void text(PrintWriter out, List<? extends R> rows, String indent) {
        List<List<String>> cells = new ArrayList<>();
        cells.add(header());
        boolean[] numeric = new boolean[columns.size()];
        for (R row : rows) {
            List<String> line = new ArrayList<>(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                Column<R> column = columns.get(i);
                Object v = column.value().apply(row);
                numeric[i] |= v instanceof Number;
                line.add(textCell(column, v));
            }
            cells.add(line);
        }
        int[] width = new int[columns.size()];
        for (List<String> line : cells) {
            for (int i = 0; i < line.size(); i++) {
                width[i] = Math.max(width[i], line.get(i).length());
            }
        }
        for (List<String> line : cells) {
            StringBuilder b = new StringBuilder(indent);
            for (int i = 0; i < line.size(); i++) {
                String v = line.get(i);
                String pad = " ".repeat(width[i] - v.length());
                b.append(i == 0 ? "" : "  ").append(numeric[i] ? pad + v : v + pad);
            }
            out.println(b.toString().stripTrailing());
        }
        out.flush();
    }

    private static void line(StringBuilder out, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(quote(cells.get(i)));
        }
        out.append("\r\n");
    }

    static String quote(String v) {
        if (v.indexOf(',') < 0 && v.indexOf('"') < 0 && v.indexOf('\n') < 0 && v.indexOf('\r') < 0) {
            return v;
        }
        return '"' + v.replace("\"", "\"\"") + '"';
    }

    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return number(d);
        }
        if (v instanceof Float f) {
            return number(f);
        }
        return v.toString();
    }

    /** At most 6 decimals, no exponent, no trailing zeros (String.format was 5x slower on 10,000-row series). */
    static String number(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = BigDecimal.valueOf(v)
                .setScale(6, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
        return s.equals("-0") ? "0" : s;
    }
}
