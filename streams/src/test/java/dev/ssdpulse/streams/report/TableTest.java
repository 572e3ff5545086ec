package dev.ssdpulse.streams.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableTest {
    record Row(String name, Long count, Double rate) {}

    private static final Table<Row> TABLE = new Table<>(
            List.of(Column.of("name", Row::name), Column.of("count", Row::count), Column.of("rate_per_s", Row::rate)));
    private static final List<Row> ROWS =
            List.of(new Row("phase 1, \"test\"", 12_345L, 1234.5678901), new Row("plain", null, Double.NaN));

    @Test
    void csvIsRfc4180WithAHeaderAndCrlf() {
        assertThat(TABLE.csv(ROWS))
                .isEqualTo(
                        "name,count,rate_per_s\r\n" + "\"phase 1, \"\"test\"\"\",12345,1234.56789\r\n" + "plain,,\r\n");
    }

    @Test
    void jsonHasTheSameCellsKeyedByColumn() {
        assertThat(TABLE.json(ROWS).toString())
                .isEqualTo("[{\"name\":\"phase 1, \\\"test\\\"\",\"count\":12345,"
                        + "\"rate_per_s\":1234.5678901},{\"name\":\"plain\",\"count\":null,\"rate_per_s\":null}]");
    }

    @Test
    void textAlignsNumbersRight() {
        StringWriter s = new StringWriter();
        TABLE.text(new PrintWriter(s), ROWS);
        assertThat(s.toString().lines())
                .containsExactly("name             count  rate_per_s", "phase 1, \"test\"  12345  1234.56789", "plain");
    }

    @Test
    void aSelectionRendersTheSameCellsRoundedForReadingInTextOnly() {
        Table<Row> rounded = new Table<>(List.of(Column.of("name", Row::name), Column.of("rate_per_s", Row::rate, 1)));
        Table<Row> picked = rounded.select("rate_per_s", "name");
        assertThat(picked.header()).containsExactly("rate_per_s", "name");
        StringWriter s = new StringWriter();
        picked.text(new PrintWriter(s), ROWS.subList(0, 1), "  ");
        assertThat(s.toString().lines()).containsExactly("  rate_per_s  name", "      1234.6  phase 1, \"test\"");
        assertThat(picked.csv(ROWS.subList(0, 1))).contains("1234.56789");
        assertThatThrownBy(() -> TABLE.select("nope")).hasMessageContaining("no column 'nope'");
    }

    @Test
    void jsonHasItsOwnKeysGroupsUnitsAndColumnsWhileCsvAndTextKeepTheirs() {
        Table<Row> table = new Table<>(List.of(
                Column.of("name", Row::name),
                Column.of("count", "stats/count", Row::count),
                Column.<Row>of("rate_per_s", Row::rate, 1).json("stats/ratePerMin", r -> r.rate() * 60),
                Column.jsonOnly("tags", r -> List.of(r.name().length(), true)),
                Column.<Row>of("internal", r -> "x").jsonOnly()));
        Row row = new Row("a", 3L, 0.5);
        assertThat(table.header()).containsExactly("name", "count", "rate_per_s");
        assertThat(table.csv(List.of(row))).isEqualTo("name,count,rate_per_s\r\na,3,0.5\r\n");
        assertThat(table.json(row).toString())
                .isEqualTo("{\"name\":\"a\",\"stats\":{\"count\":3,\"ratePerMin\":30.0},\"tags\":[1,true],"
                        + "\"internal\":\"x\"}");
        assertThat(table.selectJson("tags", "stats").json(row).toString())
                .isEqualTo("{\"tags\":[1,true],\"stats\":{\"count\":3,\"ratePerMin\":30.0}}");
        assertThatThrownBy(() -> table.selectJson("nope")).hasMessageContaining("no JSON key 'nope'");
        assertThatThrownBy(() -> table.select("tags")).hasMessageContaining("no column 'tags'");
    }

    @Test
    void anEmptyOptionalLeavesItsKeyOutAndAMapIsAnObject() {
        Table<Row> t = new Table<>(List.of(
                Column.jsonOnly("name", r -> Optional.ofNullable(r.name())),
                Column.jsonOnly("tags", r -> Map.of("count", r.count()))));
        assertThat(t.json(List.of(new Row("a", 1L, null), new Row(null, 2L, null)))
                        .toString())
                .isEqualTo("[{\"name\":\"a\",\"tags\":{\"count\":1}},{\"tags\":{\"count\":2}}]");
    }

    @Test
    void numbersDoNotDependOnTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(TABLE.csv(ROWS)).contains("1234.56789").doesNotContain("1234,56789");
            assertThat(Outliers.label(4_700_000_000L)).isEqualTo("4.7s");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void numbersHaveAtMostSixDecimalsAndNoExponent() {
        assertThat(Table.number(1.6384)).isEqualTo("1.6384");
        assertThat(Table.number(1e-4)).isEqualTo("0.0001");
        assertThat(Table.number(2.0)).isEqualTo("2");
        assertThat(Table.number(1.23456789)).isEqualTo("1.234568");
        assertThat(Table.number(1e-9)).isEqualTo("0");
        assertThat(Table.number(Double.NaN)).isEmpty();
    }

    @Test
    void outlierLabels() {
        assertThat(Outliers.label(10_000_000L)).isEqualTo("10ms");
        assertThat(Outliers.label(50_000L)).isEqualTo("50us");
    }

    @Test
    void htmlGroupsThousandsForReadingAndKeepsTheExactCellAndColumn() {
        Table<Row> rounded = new Table<>(List.of(
                Column.of("name", Row::name),
                Column.of("io_count", Row::count),
                Column.of("rate_per_s", Row::rate, 1)));
        String html = rounded.html(ROWS.subList(0, 1));
        assertThat(html)
                .contains("<th data-column=\"io_count\">I/O count</th>")
                .contains("<td class=\"num\" data-column=\"io_count\" data-value=\"12345\">12,345</td>")
                .contains("<td class=\"num\" data-column=\"rate_per_s\" data-value=\"1234.56789\">1,234.6</td>")
                .contains("data-value=\"phase 1, &quot;test&quot;\">phase 1, &quot;test&quot;</td>");
    }

    @Test
    void sideBySideIsOneColumnPerRowHeadedByTheFirstColumn() {
        String html = TABLE.htmlSideBySide(ROWS);
        assertThat(html.lines())
                .containsExactly(
                        "<table class=\"side-by-side\">",
                        "<thead><tr><th data-column=\"name\">name</th>"
                                + "<th data-column=\"name\" data-value=\"phase 1, &quot;test&quot;\">phase 1, "
                                + "&quot;test&quot;</th>"
                                + "<th data-column=\"name\" data-value=\"plain\">plain</th></tr></thead>",
                        "<tbody>",
                        "<tr><th data-column=\"count\">count</th>"
                                + "<td class=\"num\" data-column=\"count\" data-value=\"12345\">12,345</td>"
                                + "<td data-column=\"count\" data-value=\"\"></td></tr>",
                        "<tr><th data-column=\"rate_per_s\">rate per (s)</th>"
                                + "<td class=\"num\" data-column=\"rate_per_s\" data-value=\"1234.56789\">"
                                + "1,234.56789</td>"
                                + "<td class=\"num\" data-column=\"rate_per_s\" data-value=\"\"></td></tr>",
                        "</tbody>",
                        "</table>");
    }

    @Test
    void aColumnNameReadsAsWordsWithItsUnit() {
        assertThat(Table.label("latency_p99_9_us")).isEqualTo("latency p99.9 (µs)");
        assertThat(Table.label("latency_p99_99_ms")).isEqualTo("latency p99.99 (ms)");
        assertThat(Table.label("count_ge_10ms")).isEqualTo("I/Os ≥ 10ms");
        assertThat(Table.label("mb_per_s")).isEqualTo("MB/s");
        assertThat(Table.label("min_window_mb_per_s")).isEqualTo("min window (MB/s)");
        assertThat(Table.label("iops")).isEqualTo("IOPS");
        assertThat(Table.label("window_start_s")).isEqualTo("window start (s)");
        assertThat(Table.label("pct_of_first_device")).isEqualTo("% of first device");
        assertThat(Table.label("io_engine")).isEqualTo("I/O engine");
    }
}
