package dev.ssdpulse.streams.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.streams.http.Browser;
import dev.ssdpulse.streams.report.Outliers;
import dev.ssdpulse.streams.report.chart.Palette;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The HTML report as a reader sees it: the file opened from disk in headless Chromium (no server, no network),
 * every chart drawn, the tables' numbers the summaries'. Two drives' 5,000-s QD32 runs: at most 5 MB, on screen
 * within 10 s, as wide as the window. Saves target/screenshots/html-report.png (the seeds' set views),
 * html-report-two-drives.png (the whole page of the two drives) and html-report-two-drives.txt (size and time).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HtmlReportBrowserIT {
    private static final long MAX_BYTES = 5_000_000;
    private static final double MAX_RENDER_MS = 10_000;

    @TempDir
    Path temp;

    @Test
    void twoDrivesFiveThousandSecondRunsOpenInSecondsAsWideAsTheWindow() throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        List<HtmlReport.RunData> runs = List.of(
                LongRuns.run("qd32-drive-a", "sata-mlc-120gb-2012", 120_000_000_000L, 400),
                LongRuns.run("qd32-drive-b", "sata-240gb", 240_000_000_000L, 900));
        Path file = temp.resolve("two-drives.html");
        Files.writeString(file, HtmlReport.render("ssdpulse report: two drives, QD32, 5,000 s", runs));
        long bytes = Files.size(file);
        assertThat(bytes).isLessThanOrEqualTo(MAX_BYTES);
        long points = runs.stream().mapToLong(r -> r.scatter().pointsDrawn()).sum();

        WebDriver driver = Browser.chrome(temp);
        try {
            driver.manage().window().setSize(new Dimension(1500, 1200));
            ReportRendering.Timing timing = ReportRendering.open(driver, file);
            assertThat(timing.wallMs()).as("ms to the painted page").isLessThanOrEqualTo(MAX_RENDER_MS);
            assertThat(Browser.failedLoads(driver)).isEmpty();

            // the comparison first: a column per drive, a line per drive
            WebElement comparison = driver.findElement(By.id("comparison"));
            assertThat(comparison.findElements(By.cssSelector("table.side-by-side thead th")))
                    .extracting(WebElement::getText)
                    .containsExactly("run", "qd32-drive-a", "qd32-drive-b");
            for (WebElement chart : comparison.findElements(By.cssSelector("svg.chart[data-x-min]"))) {
                assertThat(chart.findElements(By.cssSelector("path.series"))).hasSize(2);
            }
            // as wide as the page allows: every full-width chart within a card's padding of the window's width
            long windowWidth = ((Number)
                            ((JavascriptExecutor) driver).executeScript("return document.documentElement.clientWidth;"))
                    .longValue();
            for (WebElement chart : driver.findElements(By.cssSelector("svg.chart[data-x-min]"))) {
                assertThat(chart.getSize().getWidth()).isGreaterThan((int) (0.9 * windowWidth));
            }
            // the scatter picture decoded and drawn: its plot area holds the drive's write colour in its shades
            WebElement scatter = driver.findElement(By.cssSelector("#run-qd32-drive-a svg.chart:has(image.raster)"));
            @SuppressWarnings("unchecked")
            Map<String, Number> box = (Map<String, Number>) ((JavascriptExecutor) driver)
                    .executeScript(
                            "arguments[0].scrollIntoView(); var r = arguments[0].getBoundingClientRect();"
                                    + " return {x: r.x, y: r.y, w: r.width, h: r.height};",
                            scatter);
            BufferedImage shot = ImageIO.read(
                    new ByteArrayInputStream(((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES)));
            Rectangle area = new Rectangle(
                    box.get("x").intValue(),
                    box.get("y").intValue(),
                    box.get("h").intValue(),
                    box.get("w").intValue());
            assertThat(writePixels(shot, area)).isGreaterThan(10_000);

            // no sideways scrolling on a 1,280-px screen
            driver.manage().window().setSize(new Dimension(1280, 1200));
            assertThat((Boolean) ((JavascriptExecutor) driver)
                            .executeScript("return document.documentElement.scrollWidth"
                                    + " <= document.documentElement.clientWidth;"))
                    .isTrue();

            driver.manage().window().setSize(new Dimension(1500, 1200));
            long height = ((Number) ((JavascriptExecutor) driver)
                            .executeScript("return document.documentElement.scrollHeight;"))
                    .longValue();
            driver.manage().window().setSize(new Dimension(1500, (int) Math.min(height, 16_000)));
            ((JavascriptExecutor) driver).executeScript("window.scrollTo(0, 0);");
            Browser.screenshot(driver, "html-report-two-drives.png");
            String figures = String.format(
                    Locale.ROOT,
                    "%s two 5,000-s QD32 runs (LongRuns): %,d bytes, %,d scatter points drawn, %,d elements;"
                            + " headless Chromium at 1500 px: %.0f ms to the painted page (load event at %.0f ms)%n",
                    Instant.now(),
                    bytes,
                    points,
                    timing.elements(),
                    timing.wallMs(),
                    timing.loadMs());
            Files.writeString(
                    Path.of("target", "screenshots", "html-report-two-drives.txt"), figures, StandardCharsets.UTF_8);
            System.out.print(figures);
        } finally {
            driver.quit();
        }
    }

    @Test
    void replayedLoadsAndAQuantisedWaOpenWithTheirBarsAndRangesDrawn() throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        List<HtmlReport.RunData> runs = List.of(
                ReportRuns.replay("app-drive-a", "drive-a", ReportRuns.Replay.APP, 300, 0),
                ReportRuns.replay("app-drive-b", "drive-b", ReportRuns.Replay.APP, 9_000, 412),
                ReportRuns.run("qd1-1gib-steps", 16, 1, "none", 0, ReportRuns.Counters.NAND_STEP_1_GIB));
        Path file = temp.resolve("loads.html");
        Files.writeString(file, HtmlReport.render("ssdpulse report: load times", runs));

        WebDriver driver = Browser.chrome(temp);
        try {
            driver.manage().window().setSize(new Dimension(1500, 1200));
            driver.get(file.toUri().toString());
            WebElement comparison = driver.findElement(By.id("comparison"));
            WebElement loads = comparison.findElement(By.xpath(".//*[local-name()='svg'][*[local-name()='title']"
                    + "[starts-with(., \"Load time of 'app-start'\")]]"));
            List<WebElement> bars = loads.findElements(By.cssSelector("rect.bar"));
            assertThat(bars).extracting(b -> b.getAttribute("data-key")).containsExactly("app-drive-a", "app-drive-b");
            // laid out: the slower drive's bar the longer, its badge drawn beside it
            assertThat(bars.get(1).getSize().getWidth())
                    .isGreaterThan(bars.get(0).getSize().getWidth())
                    .isGreaterThan(0);
            WebElement badge = loads.findElement(By.cssSelector("g.badge"));
            assertThat(badge.getSize().getWidth()).isGreaterThan(10);
            assertThat(badge.getLocation().getX())
                    .isGreaterThan(bars.get(1).getLocation().getX()
                            + bars.get(1).getSize().getWidth());
            // the coarse counters' range shaded under the cumulative WA
            WebElement range = driver.findElement(By.cssSelector("#run-qd1-1gib-steps div.wa path.bounds"));
            assertThat(range.getSize().getHeight()).isGreaterThan(5);
            assertThat(driver.findElement(By.cssSelector("#run-qd1-1gib-steps td[data-column=wa]"))
                            .getText())
                    .isNotNull();
            ((JavascriptExecutor) driver).executeScript("arguments[0].scrollIntoView();", loads);
            Browser.screenshot(driver, "html-report-load-times.png");
        } finally {
            driver.quit();
        }
    }

    /** Pixels in {@code area} of the WRITE colour or one of its darker shades (same hue, same proportions). */
    private static int writePixels(BufferedImage shot, Rectangle area) {
        Color write = Palette.awt(Palette.op("WRITE"));
        float[] hsb = Color.RGBtoHSB(write.getRed(), write.getGreen(), write.getBlue(), null);
        int n = 0;
        for (int y = Math.max(0, area.getY()); y < Math.min(shot.getHeight(), area.getY() + area.getHeight()); y++) {
            for (int x = Math.max(0, area.getX()); x < Math.min(shot.getWidth(), area.getX() + area.getWidth()); x++) {
                int rgb = shot.getRGB(x, y);
                float[] p = Color.RGBtoHSB((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, null);
                n += Math.abs(p[0] - hsb[0]) < 0.02 && p[1] > 0.6 ? 1 : 0;
            }
        }
        return n;
    }

    @Test
    void theSeedsSetViewsOpenOfflineWithEveryChartDrawnAndTheSummariesNumbers() throws Exception {
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
            for (String section : List.of("comparison", "free-flash", "schedulers", "queue-depths")) {
                assertThat(driver.findElements(By.id(section))).as(section).hasSize(1);
            }
            List<WebElement> charts = driver.findElements(By.cssSelector("svg.chart"));
            // per run: IOPS, MB/s, scatter, latency trend, bins, WA; the comparison: MB/s, IOPS, p99, WA, two bar
            // charts; the set views: WA and MB/s against free flash, IOPS by QD
            assertThat(charts).hasSize(3 * 6 + 6 + 3);
            for (WebElement chart : charts) {
                assertThat(Long.parseLong(chart.getAttribute("data-points")))
                        .as(chart.findElement(By.tagName("title")).getAttribute("textContent"))
                        .isPositive();
                // drawn by the browser, not only present in the markup: the chart has a laid-out size
                assertThat(chart.getSize().getHeight()).isGreaterThan(100);
                assertThat(chart.findElements(By.cssSelector(".series, .bar, image.raster")))
                        .isNotEmpty();
            }
            for (HtmlReport.RunData run : runs) {
                WebElement section = driver.findElement(By.id("run-" + run.runId()));
                OpSummary write = run.summary().getOps().get(0);
                WebElement whole = section.findElement(By.xpath(".//table[thead/tr/th[@data-column='count_ge_10ms']]"
                        + "/tbody/tr[td[@data-column='scope']='run']"));
                for (long threshold : Outliers.THRESHOLDS_NS) {
                    WebElement cell = whole.findElement(
                            By.cssSelector("td[data-column='count_ge_" + Outliers.label(threshold) + "']"));
                    assertThat(Long.parseLong(cell.getAttribute("data-value")))
                            .as("I/Os >= %s", Outliers.label(threshold))
                            .isEqualTo(Outliers.countAtOrAbove(write.getLatency(), threshold));
                }
                WebElement latency = section.findElement(By.xpath(".//table[thead/tr/th[@data-column='latency_p99_us']]"
                        + "/tbody/tr[td[@data-column='scope']='run']"));
                assertThat(Long.parseLong(latency.findElement(By.cssSelector("td[data-column='io_count']"))
                                .getText()
                                .replace(",", "")))
                        .isEqualTo(write.getIoCount());
                // data-value: the CSV's cell (at most 6 decimals)
                assertThat(Double.parseDouble(latency.findElement(By.cssSelector("td[data-column='iops']"))
                                .getAttribute("data-value")))
                        .isCloseTo(write.getIops(), Offset.offset(1e-6));
            }
            Browser.screenshot(driver, "html-report.png");
        } finally {
            driver.quit();
        }
    }
}
