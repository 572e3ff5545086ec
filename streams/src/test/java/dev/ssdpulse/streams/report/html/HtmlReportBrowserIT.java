package dev.ssdpulse.streams.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.streams.http.Browser;
import dev.ssdpulse.streams.report.Outliers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The HTML report as a reader sees it: the file opened from disk in headless Chromium (no server, no network),
 * every chart drawn, the tables' numbers the summaries'. Saves target/screenshots/html-report.png.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HtmlReportBrowserIT {
    @TempDir
    Path temp;

    @Test
    void theReportOpensOfflineWithEveryChartDrawnAndTheSummariesNumbers() throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        List<HtmlReport.RunData> runs = List.of(
                ReportRuns.run("qd1-0gb", 0, 1, "none"),
                ReportRuns.run("qd1-8gb", 8, 1, "none"),
                ReportRuns.run("qd32-16gb", 16, 32, "mq-deadline"));
        Path file = temp.resolve("report.html");
        Files.writeString(file, HtmlReport.render("ssdpulse report: 3 runs", runs));

        WebDriver driver = Browser.chrome(temp);
        try {
            driver.get(file.toUri().toString());
            assertThat(driver.getTitle()).isEqualTo("ssdpulse report: 3 runs");
            for (String section : List.of("free-flash", "schedulers", "queue-depths")) {
                assertThat(driver.findElements(By.id(section))).as(section).hasSize(1);
            }
            List<WebElement> charts = driver.findElements(By.cssSelector("svg.chart"));
            // per run: IOPS, MB/s, scatter, latency trend, bins, WA; for the set: WA and MB/s against free flash,
            // IOPS by QD
            assertThat(charts).hasSize(3 * 6 + 3);
            for (WebElement chart : charts) {
                assertThat(Integer.parseInt(chart.getAttribute("data-points")))
                        .as(chart.findElement(By.tagName("title")).getAttribute("textContent"))
                        .isPositive();
                // drawn by the browser, not only present in the markup: the chart has a laid-out size
                assertThat(chart.getSize().getHeight()).isGreaterThan(100);
                assertThat(chart.findElements(By.cssSelector(".series, .bar"))).isNotEmpty();
            }
            for (HtmlReport.RunData run : runs) {
                WebElement section = driver.findElement(By.id("run-" + run.runId()));
                OpSummary write = run.summary().getOps().get(0);
                List<WebElement> tables = section.findElements(By.tagName("table"));
                // outliers first: op, then the counts at or above 10/30/50/100/200 ms
                List<WebElement> cells = tables.get(0).findElements(By.cssSelector("tbody td"));
                assertThat(cells.get(0).getText()).isEqualTo("WRITE");
                for (int i = 0; i < Outliers.THRESHOLDS_NS.length; i++) {
                    assertThat(Long.parseLong(cells.get(i + 1).getText()))
                            .as("I/Os >= %s", Outliers.label(Outliers.THRESHOLDS_NS[i]))
                            .isEqualTo(Outliers.countAtOrAbove(write.getLatency(), Outliers.THRESHOLDS_NS[i]));
                }
                assertThat(Outliers.countAtOrAbove(write.getLatency(), 10_000_000L))
                        .isPositive();
                // then the percentiles: op, io_count, iops
                List<WebElement> latency = tables.get(1).findElements(By.cssSelector("tbody td"));
                assertThat(Long.parseLong(latency.get(1).getText())).isEqualTo(write.getIoCount());
                // data-value: the CSV's cell (at most 6 decimals)
                assertThat(Double.parseDouble(latency.get(2).getAttribute("data-value")))
                        .isCloseTo(write.getIops(), Offset.offset(1e-6));
            }
            Browser.screenshot(driver, "html-report.png");
        } finally {
            driver.quit();
        }
    }
}
