package dev.ssdpulse.streams.report.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.streams.report.Outliers;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
    private static final Pattern POINTS = Pattern.compile("data-points=\"(\\d+)\"");

    @Test
    void oneRunHasEveryFigureDrawnAndNothingFetched() {
        HtmlReport.RunData run = ReportRuns.run("r-8gb", 8, 1, "mq-deadline");
        String html = HtmlReport.render("one run", List.of(run));
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<section class=\"run\" id=\"run-r-8gb\">")
                .contains("IOPS per window")
                .contains("MB/s per window")
                .contains("Per-window max, p99 and p50 latency")
                .contains("I/Os per latency bin")
                .contains("WA (NAND / host bytes written)")
                .contains("Latency of each I/O shown")
                .contains("every one at or above 10ms");
        // self-contained: no script, no stylesheet or image from anywhere
        assertThat(html)
                .doesNotContain("<script")
                .doesNotContain("src=")
                .doesNotContain("href=")
                .doesNotContain("@import")
                .doesNotContain("url(");
        Matcher m = POINTS.matcher(html);
        int charts = 0;
        while (m.find()) {
            assertThat(Integer.parseInt(m.group(1)))
                    .as("chart %d is drawn", charts)
                    .isPositive();
            charts++;
        }
        assertThat(charts).isEqualTo(6);
        // the tables hold the summary's own numbers
        OpSummary write = run.summary().getOps().get(0);
        assertThat(html)
                .contains("data-value=\"" + Outliers.countAtOrAbove(write.getLatency(), 10_000_000L) + "\"")
                .contains("data-value=\"" + write.getIoCount() + "\"");
        // the cliff run reached fio's steady state on its plateau and lost it: the table says both
        assertThat(html).contains("FIO_IOPS").contains("LOST at");
    }

    @Test
    void theScatterKeepsEveryOutlierAndThinsOnlyTheSample() {
        HtmlReport.RunData run = ReportRuns.run("r-0gb", 0, 1, "none");
        long outliers = Outliers.countAtOrAbove(run.summary().getOps().get(0).getLatency(), 10_000_000L);
        HtmlReport.Scatter write = run.scatter().get(0);
        assertThat(write.op()).isEqualTo("WRITE");
        assertThat(write.total()).isEqualTo(run.summary().getIoCount());
        long shownOutliers =
                Arrays.stream(write.latencyMs()).filter(ms -> ms >= 10).count();
        assertThat(shownOutliers)
                .as("every I/O >= 10 ms is drawn")
                .isEqualTo(outliers)
                .isPositive();
        assertThat(write.shown() - shownOutliers)
                .as("the sample thinned to the budget")
                .isBetween(10_000L, 20_000L);
    }

    @Test
    void aSetOfRunsGetsTheSeedComparisons() {
        List<HtmlReport.RunData> runs = List.of(
                ReportRuns.run("r-erased", -1, 1, "none"),
                ReportRuns.run("r-0gb", 0, 1, "none"),
                ReportRuns.run("r-8gb", 8, 1, "mq-deadline"),
                ReportRuns.run("r-16gb", 16, 32, "mq-deadline"));
        String html = HtmlReport.render("set", runs);
        assertThat(html)
                .contains("id=\"free-flash\"")
                .contains("id=\"schedulers\"")
                .contains("id=\"queue-depths\"")
                .contains("secure-erased");
        // more free flash, less WA: the report's WA column is each run's test-phase WA
        double wa0 = testWa(runs.get(1));
        double wa16 = testWa(runs.get(3));
        assertThat(wa0).isGreaterThan(wa16);
        assertThat(HtmlReport.freeFlashGb(runs.get(2).started())).isCloseTo(8.0, within(1e-9));
        assertThat(HtmlReport.freeFlashGb(runs.get(0).started())).isCloseTo(100.0, within(1e-9));
        // steady MB/s: the mean of the last 300 s of the test phase, here the whole 200-s phase after the cliff's
        // start; each window's MB/s is its bytes over its length
        PhaseSummary test = runs.get(2).summary().getPhases().stream()
                .filter(p -> p.getKind() == PhaseKind.TEST)
                .findFirst()
                .orElseThrow();
        assertThat(HtmlReport.steadyMbPerSec(runs.get(2), test)).isNotNull().isPositive();
    }

    private static double testWa(HtmlReport.RunData run) {
        return run.summary().getPhases().stream()
                .filter(p -> p.getKind() == PhaseKind.TEST)
                .findFirst()
                .orElseThrow()
                .getWriteAmplification();
    }
}
