package dev.ssdpulse.streams.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteDurabilityModel;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.avro.WriteVerificationModelResult;
import dev.ssdpulse.streams.analysis.PhaseWriteAmplification;
import dev.ssdpulse.streams.report.LatencyStatistic;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.ReportFormat;
import dev.ssdpulse.streams.report.SummaryJson;
import dev.ssdpulse.streams.report.WaText;
import dev.ssdpulse.streams.report.chart.ScatterRaster;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
    private static final Map<String, HtmlReport.RunData> RUNS = new ConcurrentHashMap<>();

    /** The analysed runs are shared by the tests: each costs a second or two of analysis. */
    private static HtmlReport.RunData run(String runId, int freeFlashGb, int queueDepth, String scheduler) {
        return RUNS.computeIfAbsent(runId, id -> ReportRuns.run(id, freeFlashGb, queueDepth, scheduler));
    }

    private static List<HtmlReport.RunData> twoDrives() {
        return List.of(run("r-0gb", 0, 1, "none"), run("r-16gb", 16, 32, "mq-deadline"));
    }

    @Test
    void oneRunHasEveryFigureDrawnAndNothingFetched() {
        HtmlReport.RunData run = run("r-8gb", 8, 1, "mq-deadline");
        String html = HtmlReport.render("one run", List.of(run));
        Document page = Jsoup.parse(html);
        assertThat(html).startsWith("<!DOCTYPE html>");
        assertThat(page.select("section.run#run-r-8gb")).hasSize(1);
        assertThat(page.select("svg.chart > title").eachText())
                .containsExactly(
                        "IOPS per window",
                        "MB/s per window",
                        "Latency of each I/O drawn",
                        "Per-window max, p99 and p50 latency",
                        "I/Os per latency bin, all ops (red: ≥ 10ms)",
                        "WA (NAND / host bytes written)");
        for (Element chart : page.select("svg.chart")) {
            assertThat(Long.parseLong(chart.attr("data-points")))
                    .as(chart.selectFirst("title").text())
                    .isPositive();
        }
        // one run: no comparison
        assertThat(page.select("#comparison")).isEmpty();
        // self-contained: no script, nothing from anywhere; the scatter is a picture in the page itself
        assertThat(html)
                .doesNotContain("<script")
                .doesNotContain("src=")
                .doesNotContain("@import")
                .doesNotContain("url(");
        for (Element linked : page.select("[href]")) {
            assertThat(linked.attr("href")).matches("#.*|data:image/png;base64,.*");
        }
        assertThat(page.select("svg.chart image.raster")).hasSize(1);
        // the tables hold the summary's own numbers
        OpSummary write = run.summary().getOps().get(0);
        assertThat(page.select("td[data-column=count_ge_10ms]").eachAttr("data-value"))
                .contains(Long.toString(Outliers.countAtOrAbove(write.getLatency(), 10_000_000L)));
        assertThat(page.select("td[data-column=io_count]").eachAttr("data-value"))
                .contains(Long.toString(write.getIoCount()));
        // the cliff run reached fio's steady state on its plateau and lost it: the table says both
        assertThat(html).contains("FIO_IOPS").contains("LOST at");
    }

    /** A member of run group "lab": its RunStarted names the group, the member and the host. */
    private static HtmlReport.RunData member(HtmlReport.RunData run, String member, String host) {
        RunStarted started = RunStarted.newBuilder(run.started())
                .setGroup("lab")
                .setMember(member)
                .setHost(HostDescription.newBuilder(run.started().getHost())
                        .setHostname(host)
                        .build())
                .build();
        return new HtmlReport.RunData(
                started, run.summary(), run.windows(), run.wa(), run.scatter(), run.verification());
    }

    @Test
    void aRunGroupShowsItsMembersWithHostStatusAndShareAndLinksTheirSections() {
        HtmlReport.RunData a = member(run("r-0gb", 0, 1, "none"), "lab-1 nvme0n1", "lab-1");
        HtmlReport.RunData b = member(run("r-16gb", 16, 32, "mq-deadline"), "lab-2 nvme0n1", "lab-2");
        long ios = a.summary().getIoCount() + b.summary().getIoCount();
        List<GroupMember> members = new ArrayList<>();
        for (HtmlReport.RunData m : List.of(a, b)) {
            members.add(GroupMember.newBuilder()
                    .setMember(m.started().getMember())
                    .setRunId(m.runId())
                    .setHost(m.started().getHost().getHostname())
                    .setStatus(m == a ? RunStatus.COMPLETED : RunStatus.INCOMPLETE)
                    .setReason(m == a ? null : "heartbeat timeout")
                    .setStartOffsetNs(m == a ? 0 : 1_500_000_000L)
                    .setEndNs(m.summary().getDurationNs())
                    .setIoCount(m.summary().getIoCount())
                    .setBytes(0)
                    .setIoShare((double) m.summary().getIoCount() / ios)
                    .setBytesShare(0.5)
                    .build());
        }
        RunSummary merged = RunSummary.newBuilder(a.summary())
                .setRunId("group:lab")
                .setStatus(RunStatus.PARTIAL)
                .setReason("member lab-2 nvme0n1 (r-16gb) INCOMPLETE: heartbeat timeout")
                .setIoCount(ios)
                .setGroup(RunGroup.newBuilder()
                        .setGroupId("group:lab")
                        .setGroup("lab")
                        .setStatus(RunStatus.PARTIAL)
                        .setOrigin(Instant.EPOCH)
                        .setMembers(members)
                        .build())
                .build();
        HtmlReport.RunData group = new HtmlReport.RunData(null, merged, a.windows(), a.wa(), a.scatter(), null);

        Document page = Jsoup.parse(HtmlReport.render("group lab", List.of(group, a, b)));
        Element section = page.selectFirst("section.run");
        assertThat(section.id()).isEqualTo("run-group:lab");
        assertThat(section.selectFirst("h2").text()).isEqualTo("Run group lab");
        assertThat(section.selectFirst("p.facts").text()).startsWith("PARTIAL (member lab-2 nvme0n1");
        Element table = section.selectFirst("table:has(td[data-column=member])");
        assertThat(table.select("td[data-column=member]").eachText()).containsExactly("lab-1 nvme0n1", "lab-2 nvme0n1");
        assertThat(table.select("td[data-column=host]").eachText()).containsExactly("lab-1", "lab-2");
        assertThat(table.select("td[data-column=status]").eachText()).containsExactly("COMPLETED", "INCOMPLETE");
        assertThat(table.select("td[data-column=start_s]").eachText()).containsExactly("0.0", "1.5");
        assertThat(table.select("td[data-column=io_share_pct]").eachAttr("data-value").stream()
                        .mapToDouble(Double::parseDouble)
                        .sum())
                .isCloseTo(100.0, within(1e-9));
        assertThat(section.select("a[href]").eachAttr("href")).containsExactly("#run-r-0gb", "#run-r-16gb");
        // each member's own section says whose member it is; the list of runs names group, member and host (the
        // group's own line has neither)
        assertThat(page.selectFirst("section.run#run-r-16gb p.facts").text())
                .contains("member lab-2 nvme0n1 of run group lab");
        Element runs = page.selectFirst("section#runs");
        assertThat(runs.select("td[data-column=group]").eachText()).containsExactly("lab", "lab", "lab");
        assertThat(runs.select("td[data-column=member]").eachText()).containsExactly("lab-1 nvme0n1", "lab-2 nvme0n1");
        assertThat(runs.select("td[data-column=host]").eachText()).containsExactly("lab-1", "lab-2");
        // in the comparison's legends the group is named as a group
        assertThat(page.select("section#comparison").text()).contains("group lab");
    }

    @Test
    void aSetOfRunsOpensWithTheirHeadlineFiguresSideBySide() {
        List<HtmlReport.RunData> runs = twoDrives();
        Document page = Jsoup.parse(HtmlReport.render("two drives", runs));
        Element comparison = page.selectFirst("section#comparison");
        assertThat(comparison).isNotNull();
        // the comparison comes before the runs' own sections
        assertThat(comparison.elementSiblingIndex())
                .isLessThan(page.selectFirst("section.run").elementSiblingIndex());
        Element table = comparison.selectFirst("table.side-by-side");
        assertThat(table.select("thead th[data-column=run]").eachText()).containsExactly("run", "r-0gb", "r-16gb");
        for (int column = 0; column < runs.size(); column++) {
            HtmlReport.RunData run = runs.get(column);
            PhaseSummary test = testPhase(run);
            OpSummary op = test.getOps().get(0);
            String of = "run " + run.runId();
            assertThat(cell(table, "scope", column).text()).as(of).contains("'random-write' (TEST)");
            assertThat(cell(table, "drive", column).text()).isEqualTo(ReportRuns.MODEL);
            assertThat(cell(table, "capacity", column).text()).isEqualTo("100.00 GB (93.13 GiB)");
            assertThat(cell(table, "queue_depth", column).attr("data-value")).isEqualTo(column == 0 ? "1" : "32");
            assertThat(cell(table, "op", column).text()).isEqualTo("WRITE");
            assertThat(value(table, "io_count", column)).as(of).isEqualTo(op.getIoCount());
            assertThat(value(table, "iops", column)).as(of).isCloseTo(op.getIops(), within(1e-6));
            assertThat(value(table, "mb_per_s", column)).as(of).isCloseTo(op.getMbPerSec(), within(1e-6));
            for (LatencyStatistic s : List.of(
                    LatencyStatistic.MEAN, LatencyStatistic.P99, LatencyStatistic.P99_99, LatencyStatistic.MAX)) {
                assertThat(value(table, s.columnName("ms"), column))
                        .as(of + " " + s)
                        .isCloseTo(s.valueNs(op.getLatency()) / 1e6, within(1e-6));
            }
            for (long threshold : Outliers.THRESHOLDS_NS) {
                assertThat(value(table, "count_ge_" + Outliers.label(threshold), column))
                        .as(of + " I/Os >= " + Outliers.label(threshold))
                        .isEqualTo(Outliers.countAtOrAbove(op.getLatency(), threshold));
            }
            assertThat(value(table, "count_ge_10ms", column)).isPositive();
            // exact counters: the WA alone, no range
            assertThat(cell(table, "wa", column).text())
                    .isEqualTo(String.format(Locale.ROOT, "%.2f", test.getWriteAmplification()));
            SteadyStateVerdict verdict = run.summary().getSteadyState().stream()
                    .filter(v -> v.getPhaseIndex() == test.getPhaseIndex())
                    .findFirst()
                    .orElseThrow();
            assertThat(cell(table, "steady_state", column).text()).contains(SummaryJson.verdictText(verdict));
            // the lowest whole window of the phase
            double minIops = run.windows().stream()
                    .filter(w -> w.getWindowStartNs() >= test.getStartNs()
                            && w.getWindowStartNs() + w.getWindowSizeNs() <= test.getEndNs())
                    .mapToDouble(WindowMetrics::getIops)
                    .min()
                    .orElseThrow();
            assertThat(value(table, "min_window_iops", column)).isCloseTo(minIops, within(1e-6));
        }
    }

    @Test
    void eachOverlayChartHasALinePerRunFromTheTestPhasesStart() {
        List<HtmlReport.RunData> runs = twoDrives();
        Document page = Jsoup.parse(HtmlReport.render("two drives", runs));
        Element comparison = page.selectFirst("section#comparison");
        List<String> labels = runs.stream().map(HtmlReport.RunData::label).toList();
        for (String title : List.of("MB/s per window, all ops", "IOPS per window, all ops", "p99 latency per window")) {
            Element chart = chart(comparison, title);
            assertThat(chart.select("path.series").eachAttr("data-series"))
                    .as(title)
                    .containsExactlyElementsOf(labels);
            assertThat(chart.attr("data-x-min")).as(title).isEqualTo("0");
        }
        assertThat(chart(comparison, "WA since the test phase's start (NAND / host bytes written)")
                        .select("path.series")
                        .eachAttr("data-series"))
                .containsExactlyElementsOf(labels);
        // the WA line ends at the phase's WA of the table: the same intervals summed
        for (HtmlReport.RunData run : runs) {
            List<PhaseWriteAmplification.SoFar> soFar = Comparison.waSoFar(run, Scope.of(run.summary()));
            assertThat(soFar).hasSizeGreaterThan(10);
            assertThat(soFar.get(soFar.size() - 1).wa())
                    .isEqualTo(testPhase(run).getWriteAmplification());
        }
        // average and minimum: a pair of bars per run, the average the summary's
        Element bars = chart(comparison, "Average and minimum IOPS");
        List<String> averages = bars.select("rect.bar[data-group=average]").eachAttr("data-value");
        assertThat(averages).hasSize(2);
        for (int i = 0; i < runs.size(); i++) {
            assertThat(Double.parseDouble(averages.get(i)))
                    .isCloseTo(testPhase(runs.get(i)).getOps().get(0).getIops(), within(1e-6));
        }
        assertThat(bars.select("rect.bar[data-group=minimum window]")).hasSize(2);
    }

    @Test
    void aMixedRunHasAColumnAndALinePerOp() {
        // seed 001's test reads and writes half and half: percentiles do not add up across directions
        HtmlReport.RunData mixed = RUNS.computeIfAbsent("r-mixed", id -> ReportRuns.run(id, 8, 32, "none", 50));
        List<HtmlReport.RunData> runs = List.of(run("r-0gb", 0, 1, "none"), mixed);
        Document page = Jsoup.parse(HtmlReport.render("mixed", runs));
        Element comparison = page.selectFirst("section#comparison");
        Element table = comparison.selectFirst("table.side-by-side");
        assertThat(table.select("thead th[data-column=run]").eachText())
                .containsExactly("run", "r-0gb", "r-mixed", "r-mixed");
        assertThat(table.select("tbody tr:has(th[data-column=op]) td").eachText())
                .containsExactly("WRITE", "READ", "WRITE");
        PhaseSummary test = testPhase(mixed);
        for (int i = 0; i < 2; i++) {
            assertThat(value(table, "iops", 1 + i))
                    .isCloseTo(test.getOps().get(i).getIops(), within(1e-6));
        }
        // the runs' rates add their directions up; p99 is drawn per direction, the second dashed
        Element p99 = chart(comparison, "p99 latency per window");
        assertThat(p99.select("path.series").eachAttr("data-series"))
                .containsExactly(runs.get(0).label(), mixed.label() + " READ", mixed.label() + " WRITE");
        assertThat(p99.select("path.series").last().attr("stroke-dasharray")).isNotEmpty();
        assertThat(chart(comparison, "IOPS per window, all ops").select("path.series"))
                .hasSize(2);
        List<String> averages = chart(comparison, "Average and minimum IOPS")
                .select("rect.bar[data-group=average]")
                .eachAttr("data-value");
        assertThat(Double.parseDouble(averages.get(1)))
                .isCloseTo(test.getOps().get(0).getIops() + test.getOps().get(1).getIops(), within(1e-6));
    }

    @Test
    void theQueueDepthsTimeAxisStartsAtZero() {
        // each test phase starts mid-window: the window across its start is no part of it
        Document page = Jsoup.parse(HtmlReport.render("two drives", twoDrives()));
        Element chart = chart(page.selectFirst("section#queue-depths"), "IOPS per window by queue depth");
        assertThat(chart.attr("data-x-min")).isEqualTo("0");
        List<String> ticks = chart.select("text.tick").eachText();
        assertThat(ticks).contains("0").noneMatch(t -> t.startsWith("-"));
        for (Element any : page.select("svg.chart[data-x-min]")) {
            assertThat(Double.parseDouble(any.attr("data-x-min")))
                    .as(any.selectFirst("title").text())
                    .isZero();
        }
    }

    @Test
    void numbersHaveThousandsSeparatorsAndTimesAreInSeconds() {
        Document page = Jsoup.parse(HtmlReport.render("two drives", twoDrives()));
        Pattern grouped = Pattern.compile("-?\\d{1,3}(,\\d{3})*(\\.\\d+)?");
        Elements numbers = page.select("td.num, th.num");
        assertThat(numbers).hasSizeGreaterThan(100);
        for (Element cell : numbers) {
            assertThat(cell.text()).as(cell.attr("data-column")).matches(grouped);
        }
        for (Element tick : page.select("svg text.tick")) {
            if (tick.text().matches("[-\\d.,]+")) {
                assertThat(tick.text()).matches(grouped);
            }
        }
        // an I/O count in the tables: grouped as people read it, exact in data-value
        Element ioCount = page.selectFirst("section.run td[data-column=io_count]");
        assertThat(ioCount.text()).isEqualTo(ReportFormat.grouped(Long.parseLong(ioCount.attr("data-value"))));
        assertThat(Long.parseLong(ioCount.attr("data-value"))).isGreaterThan(1_000);
        assertThat(ioCount.text()).contains(",");
        // no number of five or more digits without separators (a count, a time in ns) but in the steady-state
        // explanations' sentences (the analysis' own words, figures of 6 significant digits), and there no time in
        // ns (ten digits and more): they name their windows in seconds
        List<String> found = new ArrayList<>();
        for (Element element : page.body().select("*")) {
            int digits = element.attr("data-column").equals("explanation") ? 10 : 5;
            Matcher raw = Pattern.compile("(?<![\\d.,])\\d{" + digits + ",}").matcher(element.ownText());
            while (raw.find()) {
                found.add(raw.group() + " in '" + element.ownText() + "'");
            }
        }
        assertThat(found).isEmpty();
        assertThat(page.select("td[data-column=explanation]").eachText())
                .anyMatch(t -> t.matches(".*samples \\[\\d+\\.\\d{3}, \\d+\\.\\d{3}\\) s.*"));
    }

    @Test
    void eachRunHasItsTestSetup() {
        HtmlReport.RunData run = run("r-16gb", 16, 32, "mq-deadline");
        Document page = Jsoup.parse(HtmlReport.render("two drives", twoDrives()));
        Element setup = page.selectFirst("section#run-r-16gb .setup");
        assertThat(setup).isNotNull();
        Map<String, String> facts = new LinkedHashMap<>();
        for (Element row : setup.select("table").first().select("tbody tr")) {
            facts.put(
                    row.selectFirst("td[data-column=fact]").text(),
                    row.selectFirst("td[data-column=value]").text());
        }
        assertThat(facts)
                .containsEntry("model", ReportRuns.MODEL)
                .containsEntry("serial", "SN-r-16gb")
                .containsEntry("firmware", "FW1.0")
                .containsEntry("capacity", "100.00 GB (93.13 GiB)")
                .containsEntry("capacity (bytes)", "100,000,000,000")
                .containsEntry("hostname", "bench-host")
                .containsEntry("kernel", "Linux 6.1.0-28-amd64")
                .containsEntry("I/O engine", "simulator")
                .containsEntry("I/O scheduler", "mq-deadline")
                .containsEntry("ssdpulse version", ReportRuns.TOOL_VERSION)
                .containsEntry("name", "report-test")
                .containsEntry("run id", run.runId());
        Element phases = setup.select("table").get(1);
        assertThat(phases.select("td[data-column=access]").eachText())
                .containsExactly("128 KiB x 100 %: 0 % random, 0 % read", "4 KiB x 100 %: 100 % random, 0 % read");
        assertThat(phases.select("td[data-column=queue_depth]").eachText()).containsExactly("32", "32");
        assertThat(page.select("section.run .setup")).hasSize(2);
    }

    @Test
    void theScatterDrawsEveryOutlierAndListsTheSlowestExactly() {
        HtmlReport.RunData run = run("r-0gb", 0, 1, "none");
        OpSummary write = run.summary().getOps().get(0);
        ScatterRaster.Picture scatter = run.scatter();
        long outliers = Outliers.countAtOrAbove(write.getLatency(), 10_000_000L);
        assertThat(scatter.outliersDrawn())
                .as("every I/O >= 10 ms is drawn")
                .isEqualTo(outliers)
                .isPositive();
        assertThat(scatter.ioCount()).isEqualTo(run.summary().getIoCount());
        // the slowest I/O listed is the run's maximum, to the nanosecond
        assertThat(scatter.slowest().get(0).latencyMs())
                .isEqualTo(write.getLatency().getMaxNs() / 1e6);
        assertThat(scatter.slowest()).hasSize(HtmlReport.SLOWEST_LISTED);
        Document page = Jsoup.parse(HtmlReport.render("one", List.of(run)));
        assertThat(page.select("td[data-column=latency_ms]").first().attr("data-value"))
                .isEqualTo(String.valueOf(write.getLatency().getMaxNs() / 1e6));
    }

    @Test
    void aSetOfRunsGetsTheSeedComparisons() {
        List<HtmlReport.RunData> runs = List.of(
                run("r-erased", -1, 1, "none"),
                run("r-0gb", 0, 1, "none"),
                run("r-8gb", 8, 1, "mq-deadline"),
                run("r-16gb", 16, 32, "mq-deadline"));
        String html = HtmlReport.render("set", runs);
        assertThat(html)
                .contains("id=\"free-flash\"")
                .contains("id=\"schedulers\"")
                .contains("id=\"queue-depths\"")
                .contains("secure-erased");
        // more free flash, less WA: the report's WA column is each run's test-phase WA
        assertThat(testPhase(runs.get(1)).getWriteAmplification())
                .isGreaterThan(testPhase(runs.get(3)).getWriteAmplification());
        assertThat(SetViews.freeFlashGb(runs.get(2).started())).isCloseTo(8.0, within(1e-9));
        assertThat(SetViews.freeFlashGb(runs.get(0).started())).isCloseTo(100.0, within(1e-9));
        // steady MB/s: the mean of the last 300 s of the test phase, here the whole 200-s phase after the cliff's
        // start; each window's MB/s is its bytes over its length
        assertThat(SetViews.steadyMbPerSec(runs.get(2), testPhase(runs.get(2))))
                .isNotNull()
                .isPositive();
    }

    @Test
    void twoFiveThousandSecondRunsMakeAFewMegabytesNotMillionsOfMarks() {
        HtmlReport.RunData run = LongRuns.run("drive-a", "sata-mlc-120gb-2012", 120_000_000_000L, 400);
        String html = HtmlReport.render("one long run", List.of(run));
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        // the bound of two such runs is 5 MB: one is well under half of it
        assertThat(bytes).isLessThan(2_000_000);
        ScatterRaster.Picture scatter = run.scatter();
        assertThat(scatter.pointsDrawn()).isGreaterThan(5_000_000);
        assertThat(scatter.outliersDrawn()).isEqualTo(scatter.atOrAboveThreshold());
        Document page = Jsoup.parse(html);
        // the 5,100 windows of each series thinned to an envelope: a few thousand marks in all
        assertThat(page.select("svg.chart *")).hasSizeLessThan(5_000);
        for (Element series : page.select("path.series")) {
            assertThat(series.attr("d").length()).isLessThan(40_000);
        }
        Element iops = chart(page, "IOPS per window");
        assertThat(Long.parseLong(iops.attr("data-points"))).isEqualTo(5_100);
    }

    @Test
    void theReportHasTheDashboardsColoursAndTheWindowsWidth() throws Exception {
        String css;
        try (var in = getClass().getResourceAsStream("/dashboard/style.css")) {
            css = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String root = css.lines().filter(l -> l.startsWith(":root")).findFirst().orElseThrow();
        Document page = Jsoup.parse(HtmlReport.render("two drives", twoDrives()));
        String style = page.selectFirst("style").data();
        assertThat(style).contains(root).doesNotContain("max-width: 1000px");
        assertThat(style).containsPattern("svg\\.chart \\{[^}]*width:100%");
        // a run's WRITE line in the dashboard's WRITE colour, the runs of a comparison in its run colours
        assertThat(chart(page.selectFirst("section.run"), "IOPS per window")
                        .selectFirst("path.series")
                        .attr("stroke"))
                .isEqualTo("#dd6b20");
        assertThat(chart(page.selectFirst("#comparison"), "IOPS per window, all ops")
                        .select("path.series")
                        .eachAttr("stroke"))
                .containsExactly("#2b6cb0", "#dd6b20");
    }

    @Test
    void aQuantisedRunsWaIsWrittenAndDrawnWithTheRangeItsCountersAllow() {
        HtmlReport.RunData exact = run("r-0gb", 0, 1, "none");
        HtmlReport.RunData stepped = RUNS.computeIfAbsent(
                "r-32mib", id -> ReportRuns.run(id, 16, 32, "none", 0, ReportRuns.Counters.STEPS_32_MIB));
        PhaseSummary test = testPhase(stepped);
        assertThat(test.getWriteAmplificationResolved()).isTrue();
        String low = String.format(Locale.ROOT, "%.2f", test.getWriteAmplificationLow());
        String high = String.format(Locale.ROOT, "%.2f", test.getWriteAmplificationHigh());
        assertThat(low).as("a range that shows at two decimals").isNotEqualTo(high);
        String expected = String.format(Locale.ROOT, "%.2f (%s-%s)", test.getWriteAmplification(), low, high);

        Document page = Jsoup.parse(HtmlReport.render("steps", List.of(exact, stepped)));
        Element comparison = page.selectFirst("section#comparison");
        Element table = comparison.selectFirst("table.side-by-side");
        assertThat(cell(table, "wa", 1).text()).isEqualTo(expected);
        assertThat(cell(table, "wa", 0).text()).doesNotContain("(");
        Element section = page.selectFirst("section#run-r-32mib");
        assertThat(section.select("td[data-column=wa]").eachText()).contains(expected);

        // the comparison's WA line of the stepped run has its range under it, the exact run's none
        Element chart = chart(comparison, "WA since the test phase's start (NAND / host bytes written)");
        assertThat(chart.select("path.bounds").eachAttr("data-series")).containsExactly(stepped.label());
        List<PhaseWriteAmplification.SoFar> soFar = Comparison.waSoFar(stepped, Scope.of(stepped.summary()));
        long ranged = soFar.stream().filter(p -> p.bounds().low() != null).count();
        assertThat(ranged).isGreaterThan(10);
        // a vertex per point along the high ends and one back along the low ends
        assertThat(vertices(chart.selectFirst("path.bounds"))).isEqualTo(2 * ranged);
        assertThat(chart.select("text.legend").eachText())
                .contains(stepped.label() + ": range the counters' steps allow");

        // the run's own WA chart: the cumulative line's range, the run's WA and its counters in words
        Element wa = section.selectFirst("div.wa");
        assertThat(chart(wa, "WA (NAND / host bytes written)")
                        .select("path.bounds")
                        .eachAttr("data-series"))
                .containsExactly("cumulative");
        String facts = wa.selectFirst("p.facts").text();
        assertThat(facts)
                .contains("host counter step 32 MiB, NAND 32 MiB")
                .contains("source SMARTCTL")
                .contains(
                        "WA " + WaText.text(WaText.cumulative(stepped.summary().getWriteAmplification())));
        assertThat(page.selectFirst("section#run-r-0gb div.wa").select("path.bounds"))
                .isEmpty();
        assertThat(page.selectFirst("section#run-r-0gb div.wa p.facts").text()).contains("exact counters");
    }

    @Test
    void aWaWhoseRangeIsWiderThanFivePercentIsNotYetResolvable() {
        // 1-GiB NAND steps against the few hundred MB a QD1 test phase writes
        HtmlReport.RunData coarse = RUNS.computeIfAbsent(
                "r-1gib", id -> ReportRuns.run(id, 16, 1, "none", 0, ReportRuns.Counters.NAND_STEP_1_GIB));
        PhaseSummary test = testPhase(coarse);
        assertThat(test.getWriteAmplificationResolved()).isFalse();
        String expected = test.getWriteAmplificationHigh() == null
                ? String.format(Locale.ROOT, "not yet resolvable (at least %.2f)", test.getWriteAmplificationLow())
                : String.format(
                        Locale.ROOT,
                        "not yet resolvable (%.2f-%.2f)",
                        test.getWriteAmplificationLow(),
                        test.getWriteAmplificationHigh());
        Document page = Jsoup.parse(HtmlReport.render("coarse", List.of(run("r-0gb", 0, 1, "none"), coarse)));
        Element table = page.selectFirst("section#comparison table.side-by-side");
        assertThat(cell(table, "wa", 1).text()).isEqualTo(expected);
        assertThat(page.select("section#run-r-1gib td[data-column=wa]").eachText())
                .contains(expected);
        assertThat(chart(page.selectFirst("section#run-r-1gib div.wa"), "WA (NAND / host bytes written)")
                        .select("path.bounds"))
                .hasSize(1);
    }

    @Test
    void countersInNandPagesAreNeverWrittenAsBytes() {
        HtmlReport.RunData pages = RUNS.computeIfAbsent(
                "r-pages", id -> ReportRuns.run(id, 16, 32, "none", 0, ReportRuns.Counters.NAND_PAGES));
        WriteAmplification last = pages.summary().getWriteAmplification();
        assertThat(last.getUnit()).isEqualTo("NAND page");
        Document page = Jsoup.parse(HtmlReport.render("pages", List.of(run("r-0gb", 0, 1, "none"), pages)));
        Element wa = page.selectFirst("section#run-r-pages div.wa");
        assertThat(wa.text())
                .contains("NAND " + ReportFormat.grouped(last.getNandBytesWrittenCumulative()) + " / host "
                        + ReportFormat.grouped(last.getHostBytesWrittenCumulative()) + " in NAND pages")
                .contains("host counter step 1 NAND page, NAND 2 NAND pages")
                .doesNotContainPattern("\b(GB|GiB|MiB|MB|bytes?|B)\b");
        assertThat(chart(wa, "WA (NAND / host writes in NAND pages)")).isNotNull();
        // runs counting in different units: the comparison's WA chart names neither as bytes
        Element comparison = page.selectFirst("section#comparison");
        assertThat(comparison.select("svg.chart > title").eachText())
                .contains("WA since the test phase's start (NAND / host writes, each run in its counters' unit)")
                .noneMatch(t -> t.startsWith("WA") && t.contains("bytes"));
        assertThat(page.selectFirst("section#run-r-0gb div.wa p.facts").text())
                .contains("GB (")
                .contains("GiB)");
    }

    @Test
    void loadTimesOfReplayedTracesAreComparedDriveByDrive() {
        List<HtmlReport.RunData> runs = List.of(
                ReportRuns.replay("load-slow", "slow-drive", ReportRuns.Replay.APP, 9_000, 412),
                ReportRuns.replay("load-fast", "fast-drive", ReportRuns.Replay.APP, 300, 0),
                ReportRuns.replay("load-mid", "mid-drive", ReportRuns.Replay.APP, 2_000, 0, 2_400),
                ReportRuns.replay("load-boot", "fast-drive", ReportRuns.Replay.BOOT, 300, 0),
                ReportRuns.replay("load-app-fast", "fast-drive", ReportRuns.Replay.APP_FAST, 300, 0));
        Document page = Jsoup.parse(HtmlReport.render("loads", runs));
        Element comparison = page.selectFirst("section#comparison");
        assertThat(comparison.select("h3").eachText()).contains("Load times");
        // a chart per load replayed alike: the application's as recorded and as fast as possible apart, the boot's
        Element app = chart(comparison, "Load time of 'app-start' (trace app-load.iolog.gz, recorded timing x1)");
        chart(comparison, "Load time of 'app-start' (trace app-load.iolog.gz, fast timing)");
        Element boot = chart(comparison, "Load time of 'boot' (trace boot.iolog.gz, recorded timing x1)");
        assertThat(boot.select("rect.bar").eachAttr("data-key")).containsExactly("load-boot");
        // a bar per run, the shortest load first, each the phase's load time in seconds, labelled with the drive
        List<String> order = List.of("load-fast", "load-mid", "load-slow");
        assertThat(app.select("rect.bar").eachAttr("data-key")).containsExactlyElementsOf(order);
        for (int i = 0; i < order.size(); i++) {
            HtmlReport.RunData run = byId(runs, order.get(i));
            PhaseSummary phase = run.summary().getPhases().get(0);
            assertThat(phase.getLoadTimeNs()).isEqualTo(phase.getEndNs() - phase.getStartNs());
            assertThat(Double.parseDouble(app.select("rect.bar").get(i).attr("data-value")))
                    .isCloseTo(phase.getLoadTimeNs() / 1e9, within(1e-6));
            assertThat(app.select("text.value").get(i).text())
                    .isEqualTo(ReportFormat.grouped(phase.getLoadTimeNs() / 1e9, 3) + " s");
        }
        assertThat(app.select("text.tick[text-anchor=end]").eachText())
                .containsExactly("fast-drive", "mid-drive", "slow-drive");
        assertThat(Double.parseDouble(app.attr("data-x-min"))).isZero();
        // badges: the drive that could not keep up with the recorded times, and the replay cut short
        assertThat(app.select("g.badge").eachAttr("data-key")).containsExactly("load-mid", "load-slow");
        assertThat(app.selectFirst("g.badge[data-key=load-slow]").text()).isEqualTo("412 late");
        assertThat(app.selectFirst("g.badge[data-key=load-mid]").text()).isEqualTo("cut short");
        // the table: the summary's figures of each REPLAY phase
        Element slow = comparison.select("table tr:has(td[data-column=run])").stream()
                .filter(tr -> tr.selectFirst("td[data-column=run]").text().equals("load-slow"))
                .findFirst()
                .orElseThrow();
        assertThat(slow.selectFirst("td[data-column=late_issues]").attr("data-value"))
                .isEqualTo("412");
        assertThat(slow.selectFirst("td[data-column=timing]").text()).isEqualTo("recorded timing x1");
        assertThat(slow.selectFirst("td[data-column=issue_lag_p99_ms]").attr("data-value"))
                .isEqualTo("2.5");
        // each run's section: its load time and how its I/Os were issued
        Element own = page.selectFirst("section#run-load-slow");
        assertThat(own.select("h3").eachText()).contains("Load times");
        assertThat(Double.parseDouble(
                        own.selectFirst("table td[data-column=load_time_s]").attr("data-value")))
                .isCloseTo(byId(runs, "load-slow").summary().getPhases().get(0).getLoadTimeNs() / 1e9, within(1e-6));
        assertThat(own.select("td[data-column=trace]").eachText())
                .containsExactly("classpath:workloads/traces/app-load.iolog.gz");
        assertThat(own.select(".setup td[data-column=access]").eachText()).containsExactly("a recorded trace");
        // runs without a REPLAY phase: no load times
        assertThat(Jsoup.parse(HtmlReport.render("two drives", twoDrives()))
                        .select("h3")
                        .eachText())
                .doesNotContain("Load times");
    }

    @Test
    void aRunsPowerLossVerificationIsShownWithItsCountsAgesWorstCasesAndCounters() {
        WriteVerification v = SampleRecords.writeVerification();
        HtmlReport.RunData verified = run("r-8gb", 8, 1, "mq-deadline").withVerification(v);
        Document page = Jsoup.parse(HtmlReport.render("verified", List.of(verified)));
        Element own = page.selectFirst("section#run-r-8gb");
        assertThat(own.select("h3").eachText()).contains("Power-loss verification");
        assertThat(own.select("h4").eachText())
                .contains(
                        "Lost units per durability model",
                        "Lost writes by age",
                        "Worst cases",
                        "The drive's power-loss counters");
        // the record's own counts per class
        assertThat(cell(own, "intact")).isEqualTo("1999000");
        assertThat(cell(own, "lost")).isEqualTo("600");
        assertThat(cell(own, "torn")).isEqualTo("100");
        assertThat(cell(own, "reverted")).isEqualTo("250");
        assertThat(cell(own, "unlogged")).isEqualTo("50");
        assertThat(cell(own, "lost_writes")).isEqualTo("800");
        assertThat(cell(own, "unserializable_writes")).isEqualTo("12");
        // a line per durability model
        assertThat(own.select("td[data-column=model]").eachText()).containsExactly("ACKNOWLEDGED", "FLUSHED", "FUA");
        assertThat(own.select("td[data-column=lost_units]").eachAttr("data-value"))
                .containsExactly("950", "3", "0");
        assertThat(own.select("td[data-column=lost_as_reverted]").eachAttr("data-value"))
                .containsExactly("250", "0", "0");
        // the age histogram: a bar per bucket with lost writes, the buckets' labels, the last above the last bound
        Element ages = chart(own, "Lost writes by time before the last logged completion");
        assertThat(ages.select("rect.bar")).hasSize(5);
        assertThat(own.select("td[data-column=completed_before_end]").eachText())
                .containsExactly("≤ 100 µs", "≤ 1 ms", "≤ 10 ms", "≤ 100 ms", "≤ 1 s", "> 1 s");
        assertThat(own.select("td[data-column=lost_writes]").eachAttr("data-value"))
                .containsExactly("800", "10", "200", "500", "87", "3", "0");
        // the worst case, exactly
        assertThat(own.select("td[data-column=lba]").eachAttr("data-value")).containsExactly("123456");
        assertThat(own.select("td[data-column=found]").eachText()).containsExactly("REVERTED");
        assertThat(own.select("td[data-column=holds]").eachText()).containsExactly("write 2998012 (older)");
        assertThat(own.select("td[data-column=before_end_ms]").eachAttr("data-value"))
                .containsExactly("9.5");
        // the unsafe-shutdown count before and after, the PLP count missing and why
        assertThat(own.select("td[data-column=counter]").eachText())
                .containsExactly("unsafe shutdowns", "PLP start count (OCP)");
        assertThat(own.select("td[data-column=before]").eachAttr("data-value")).containsExactly("41", "");
        assertThat(own.select("td[data-column=after]").eachAttr("data-value")).containsExactly("42", "");
        assertThat(own.select("td[data-column=change]").eachAttr("data-value")).containsExactly("1", "");
        assertThat(own.text()).contains("no OCP SMART extended log").contains("no RunFinished: the producer stopped");
        // without a verification: no such section; nothing lost: no histogram drawn, the table still there
        assertThat(Jsoup.parse(HtmlReport.render("plain", List.of(run("r-8gb", 8, 1, "mq-deadline"))))
                        .select("h3")
                        .eachText())
                .doesNotContain("Power-loss verification");
        WriteVerification clean = SampleRecords.writeVerification();
        clean.setLostWrites(0L);
        clean.setLostAgeCounts(List.of(0L, 0L, 0L, 0L, 0L, 0L));
        clean.setWorstCases(List.of());
        Element cleanRun = Jsoup.parse(HtmlReport.render(
                        "clean", List.of(run("r-8gb", 8, 1, "mq-deadline").withVerification(clean))))
                .selectFirst("section#run-r-8gb");
        assertThat(cleanRun.select("svg.chart > title").eachText())
                .doesNotContain("Lost writes by time before the last logged completion");
        assertThat(cleanRun.select("h4").eachText()).doesNotContain("Worst cases");
    }

    @Test
    void aSetComparesTheLostUnitsOfItsVerifiedRunsSideBySide() {
        WriteVerification protectedDrive = SampleRecords.writeVerification();
        protectedDrive.setRunId("r-0gb");
        protectedDrive.setModels(List.of(
                new WriteVerificationModelResult(WriteDurabilityModel.ACKNOWLEDGED, 2_000_000L, 0L, 0L, 0L, 0L),
                new WriteVerificationModelResult(WriteDurabilityModel.FLUSHED, 1_990_000L, 0L, 0L, 0L, 0L),
                new WriteVerificationModelResult(WriteDurabilityModel.FUA, 0L, 0L, 0L, 0L, 0L)));
        List<HtmlReport.RunData> runs = List.of(
                run("r-0gb", 0, 1, "none").withVerification(protectedDrive),
                run("r-16gb", 16, 32, "mq-deadline").withVerification(SampleRecords.writeVerification()));
        Element comparison = Jsoup.parse(HtmlReport.render("pair", runs)).selectFirst("section#comparison");
        assertThat(comparison.select("h3").eachText()).contains("Power-loss verification");
        assertThat(comparison.select("td[data-column=run]").eachText()).contains("r-0gb", "r-16gb");
        assertThat(comparison.select("td[data-column=lost_acknowledged]").eachAttr("data-value"))
                .containsExactly("0", "950");
        assertThat(comparison.select("td[data-column=lost_flushed]").eachAttr("data-value"))
                .containsExactly("0", "3");
        assertThat(comparison.select("td[data-column=unsafe_shutdowns_change]").eachAttr("data-value"))
                .containsExactly("1", "1");
        // a set without a verification: no such table
        assertThat(Jsoup.parse(HtmlReport.render("two drives", twoDrives()))
                        .select("h3")
                        .eachText())
                .doesNotContain("Power-loss verification");
    }

    private static String cell(Element in, String column) {
        return in.selectFirst("td[data-column=" + column + "]").attr("data-value");
    }

    private static HtmlReport.RunData byId(List<HtmlReport.RunData> runs, String id) {
        return runs.stream().filter(r -> r.runId().equals(id)).findFirst().orElseThrow();
    }

    /** The points of an SVG path: its M and L commands. */
    private static long vertices(Element path) {
        return path.attr("d").chars().filter(c -> c == 'M' || c == 'L').count();
    }

    private static PhaseSummary testPhase(HtmlReport.RunData run) {
        return run.summary().getPhases().stream()
                .filter(p -> p.getKind() == PhaseKind.TEST)
                .findFirst()
                .orElseThrow();
    }

    private static Element chart(Element in, String title) {
        for (Element chart : in.select("svg.chart")) {
            if (chart.selectFirst("title").text().equals(title)) {
                return chart;
            }
        }
        throw new AssertionError(
                "no chart '" + title + "' in " + in.select("svg.chart > title").eachText());
    }

    /** The cell of a side-by-side table's line {@code column} for its {@code index}-th record. */
    private static Element cell(Element table, String column, int index) {
        Element line = table.selectFirst("tbody tr:has(th[data-column=" + column + "])");
        assertThat(line).as("line " + column).isNotNull();
        return line.select("td").get(index);
    }

    private static double value(Element table, String column, int index) {
        return Double.parseDouble(cell(table, column, index).attr("data-value"));
    }
}
