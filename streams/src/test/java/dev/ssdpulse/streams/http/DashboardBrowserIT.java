package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium opens the dashboard while a run is being published live, selects it and sees its
 * IOPS chart and latency scatter gain points; then compares it with a finished run and saves
 * target/screenshots/dashboard.png; checks that the ended run's totals equal its summary, that nothing overflows at
 * 1,280 px, that a fresh drive's steady state lost at its cliff says so, and that the README's screenshot recipe
 * (dist/src/bin/dashboard-screenshot) draws the charts (target/screenshots/dashboard-recipe.png).
 * Needs the chromium and chromium-driver packages (installed by .ci/run); fails, never skips, without them.
 */
@ExtendWith(KafkaTestEnvironment.class)
class DashboardBrowserIT {

    @TempDir
    Path temp;

    @Test
    void aLiveRunGainsPointsOnTheDashboard(TestStack stack) throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state"))
                .withApplicationId("dashboard-it-" + UUID.randomUUID())
                // short SNIA rounds and a short fio window so the 30-s test runs reach steady state (shaded on the
                // charts)
                .withSteadyState(2 * S, List.of(FioCriterion.parse("iops:10%:8")));
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String baselineId = "baseline-" + UUID.randomUUID();
        String liveId = "live-" + UUID.randomUUID();
        String cliffId = "cliff-" + UUID.randomUUID();
        TestRunPublisher.publish(stack, baselineId, "baseline (mq-deadline)", 30, 260, 5);
        TestRunPublisher.publishCliff(stack, cliffId, "fresh drive, cliff at 34 s", 40, 260, 34, 11);

        try (AnalyticsApp app = new AnalyticsApp(config)) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            try (HttpApiServer server = HttpApiServer.start(app, HttpApiConfig.localhost(0))) {
                // the live run goes on as far as the test lets it: 8 run seconds, 4 more once the dashboard has
                // drawn them, the rest when it has seen the run grow
                Semaphore runSeconds = new Semaphore(8);
                CompletableFuture<Long> live = CompletableFuture.supplyAsync(() -> {
                    try {
                        return TestRunPublisher.publish(
                                stack, liveId, "live run (none)", 30, 200, t -> runSeconds.acquire(), 9, S / 2);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                });
                WebDriver driver = Browser.chrome(temp);
                try {
                    driver.get(server.url().toString());
                    WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                    By liveRow = By.cssSelector("tr[data-run='" + liveId + "']");
                    wait.until(d -> !d.findElements(liveRow).isEmpty());
                    Browser.click(wait, liveRow);
                    WebElement iops = driver.findElement(By.id("chart-iops"));
                    wait.until(d -> Browser.points(iops) >= 2);
                    int first = Browser.points(iops);
                    assertThat(live).as("the run is still being published").isNotDone();
                    runSeconds.release(4);
                    wait.until(d -> Browser.points(iops) > first);
                    int later = Browser.points(iops);
                    assertThat(later)
                            .as("the IOPS chart gained points while the run went on")
                            .isGreaterThan(first);
                    WebElement scatter = driver.findElement(By.id("chart-scatter"));
                    wait.until(d -> Browser.points(scatter) > 0);
                    int scatterFirst = Browser.points(scatter);
                    Browser.screenshot(driver, "dashboard-live.png");
                    runSeconds.release(30);

                    long liveIos = live.get(90, TimeUnit.SECONDS);
                    wait.until(d -> d.findElement(By.id("run-status")).getText().equals("COMPLETED"));
                    wait.until(d -> !d.findElement(By.id("summary")).getText().isEmpty());
                    // 30 whole windows per op; the run ended half-way into a 31st, which is not drawn as a dip
                    wait.until(d -> Browser.points(iops) == 60);
                    // the scatter accounts for every I/O of the run once its last window is in
                    wait.until(d -> d.findElement(By.id("scatter-note"))
                            .getText()
                            .replace(",", "")
                            .contains(" points of " + liveIos + " I/Os"));
                    assertThat(Browser.points(scatter))
                            .as("the scatter gained points after its first drawing")
                            .isGreaterThan(scatterFirst);
                    Browser.click(wait, By.cssSelector("input[data-compare='" + baselineId + "']"));
                    Browser.click(wait, By.cssSelector("input[data-compare='" + liveId + "']"));
                    WebElement compare = driver.findElement(By.id("chart-compare"));
                    wait.until(d -> Browser.points(compare) >= 40);
                    wait.until(
                            d -> d.findElement(By.id("compare-table")).getText().contains("mean of 2 runs"));
                    // seed 002's view: both runs recorded mq-deadline on the same device, one group of two
                    wait.until(d ->
                            d.findElement(By.id("compare-schedulers")).getText().contains("mq-deadline"));
                    assertThat(driver.findElement(By.id("compare-schedulers")).findElements(By.cssSelector("tr")))
                            .hasSize(2);
                    assertThat(driver.findElement(By.id("compare-schedulers")).getText())
                            .contains("OCZ Vertex 4");
                    assertThat(Browser.points(driver.findElement(By.id("chart-latency"))))
                            .isGreaterThan(0);
                    assertThat(Browser.points(driver.findElement(By.id("chart-bins"))))
                            .isGreaterThan(0);
                    // per WA interval: the cumulative WA, its lower and upper bound, the interval's own WA
                    int waIntervals = app.views().waSeries(liveId).size();
                    assertThat(waIntervals).isPositive();
                    wait.until(d -> Browser.points(d.findElement(By.id("chart-wa"))) == 4 * waIntervals);
                    assertThat(driver.findElement(By.id("thresholds")).getText())
                            .contains("≥ 10 ms");
                    assertThat(Browser.failedLoads(driver))
                            .as("every resource the page asks for exists")
                            .isEmpty();
                    Browser.settled(driver, wait);
                    Browser.screenshot(driver, "dashboard.png");

                    // once the run has ended its totals equal its summary: the last window, which the run ended
                    // half-way into, is counted and marked
                    assertThat(column(driver, "totals", 2))
                            .as("I/Os per op: totals")
                            .isEqualTo(column(driver, "summary", 1))
                            .isNotEmpty();
                    assertThat(driver.findElement(By.id("totals-title")).getText())
                            .isEqualTo("Totals");
                    assertThat(driver.findElement(By.id("totals-note")).getText())
                            .contains("is partial");
                    assertThat(driver.findElement(By.id("phases")).getText())
                            .as("every phase has its times")
                            .doesNotContain("—");

                    // at 1,280 px nothing is wider than the page, and no table runs out of its card
                    driver.manage().window().setSize(new Dimension(1280, 2600));
                    Browser.settled(driver, wait);
                    assertThat(overflowing(driver))
                            .as("elements beyond the page or their card")
                            .isEmpty();
                    Browser.screenshot(driver, "dashboard-1280.png");

                    // a steady state reached on a fresh drive before its cliff: the SNIA band says it is PTS's
                    // verdict on a fresh-out-of-box drive and that it was lost later, with a mark where
                    Browser.click(wait, By.cssSelector("tr[data-run='" + cliffId + "']"));
                    wait.until(d -> iops.getAttribute("data-bands").contains("later lost at"));
                    assertThat(iops.getAttribute("data-bands"))
                            .contains("by PTS while fresh-out-of-box, later lost at");
                    assertThat(iops.getAttribute("data-marks")).contains("steady state lost at");
                    Browser.settled(driver, wait);
                    Browser.screenshot(driver, "dashboard-cliff.png");

                    // the README's recipe: a screenshot without a driver, of the run and the comparison
                    Path png = Path.of("target", "screenshots", "dashboard-recipe.png");
                    Process recipe = new ProcessBuilder(
                                    Path.of("..", "dist", "src", "bin", "dashboard-screenshot")
                                            .toString(),
                                    "--run",
                                    liveId,
                                    "--compare",
                                    baselineId + "," + liveId,
                                    "--size",
                                    "1280x3300",
                                    server.url().toString(),
                                    png.toString())
                            .redirectErrorStream(true)
                            .start();
                    String said = new String(recipe.getInputStream().readAllBytes());
                    assertThat(recipe.waitFor(120, TimeUnit.SECONDS)).isTrue();
                    assertThat(recipe.exitValue()).as(said).isZero();
                    BufferedImage shot = ImageIO.read(png.toFile());
                    assertThat(shot.getWidth()).isEqualTo(1280);
                    assertThat(colourPixels(shot, 0xdd6b20))
                            .as("the WRITE series drawn (not 'no data yet')")
                            .isGreaterThan(500);
                    assertThat(colourPixels(shot, 0x2b6cb0))
                            .as("the READ series drawn")
                            .isGreaterThan(500);
                } finally {
                    driver.quit();
                    live.cancel(true);
                }
            }
        }
    }

    /** Op and the given column's text of each data row of a dashboard table. */
    private static List<String> column(WebDriver driver, String tableId, int column) {
        return ((List<?>) ((JavascriptExecutor) driver)
                        .executeScript(
                                "var id = arguments[0], c = arguments[1];"
                                        + "return Array.from(document.querySelectorAll('#' + id + ' tr')).slice(1)"
                                        + ".filter(function (r) { return r.cells.length > c; })"
                                        + ".map(function (r) { return r.cells[0].textContent + '=' + "
                                        + "r.cells[c].textContent; });",
                                tableId,
                                column))
                .stream().map(String::valueOf).toList();
    }

    /** Elements wider than the page, and data tables that run out of their card. */
    private static List<String> overflowing(WebDriver driver) {
        return ((List<?>) ((JavascriptExecutor) driver)
                        .executeScript("var de = document.documentElement, out = [];"
                                + "if (de.scrollWidth > de.clientWidth) "
                                + "out.push('page ' + de.scrollWidth + ' > ' + de.clientWidth);"
                                + "document.querySelectorAll('table.data').forEach(function (t) {"
                                + "  var card = t.closest('.card'); if (!card || card.hidden) return;"
                                + "  var r = t.getBoundingClientRect(), c = card.getBoundingClientRect();"
                                + "  if (r.width > 0 && r.right > c.right) "
                                + "out.push(t.id + ' ' + r.right + ' > ' + c.right); });"
                                + "return out;"))
                .stream().map(String::valueOf).toList();
    }

    /** Pixels of a colour (within a small tolerance for anti-aliasing). */
    private static int colourPixels(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) < 12
                        && Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff)) < 12
                        && Math.abs((p & 0xff) - (rgb & 0xff)) < 12) {
                    n++;
                }
            }
        }
        return n;
    }
}
