package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.playback.RunPlayback;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.Reanalysis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium on the dashboard: a stored run played back at 4x shows its IOPS chart growing like a
 * live run; the stored run's result set (10-s windows) is picked in the result-set picker and compared with the
 * live results. Saves target/screenshots/playback*.png. Needs chromium and chromium-driver (fails without them).
 */
@ExtendWith(KafkaTestEnvironment.class)
class PlaybackBrowserIT {

    @TempDir
    Path temp;

    @Test
    void aPlayedBackRunGrowsOnTheDashboardAndResultSetsArePickedAndCompared(TestStack stack) throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state"))
                .withApplicationId("playback-browser-it-" + UUID.randomUUID());
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String stored = "stored-" + UUID.randomUUID();
        String played = "played-" + UUID.randomUUID();
        ResultSetsIT.publishAlternatingRun(stack, stored, 60);

        try (AnalyticsApp app = new AnalyticsApp(config);
                HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            ResultSetsIT.awaitViews().until(() -> app.views().summary(stored).isPresent());
            Reanalysis.run(
                    config.withSteadyState(10 * S, config.analysisSettings().fioCriteria())
                            .withWindow(10 * S, config.analysisSettings().graceNs()),
                    Set.of(stored),
                    "w10s",
                    Duration.ofMinutes(3));
            try (HttpApiServer server = HttpApiServer.start(app, HttpApiConfig.localhost(0))) {
                RunPlayback playback = new RunPlayback(
                        Map.of("bootstrap.servers", stack.bootstrapServers()), registry, Duration.ofMinutes(1));
                CompletableFuture<RunPlayback.Report> play = CompletableFuture.supplyAsync(() -> {
                    try {
                        return playback.play(stored, played, 4.0, () -> false, s -> {});
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                });
                WebDriver driver = Browser.chrome(temp);
                try {
                    driver.get(server.url().toString());
                    WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                    By playedRow = By.cssSelector("tr[data-run='" + played + "']");
                    wait.until(d -> !d.findElements(playedRow).isEmpty());
                    Browser.click(wait, playedRow);
                    // the page shows the played run (picking it clears the charts of the run shown before, the stored
                    // run's 120 points when the page had picked that one by itself)
                    wait.until(d -> d.findElement(By.id("run-facts")).getText().contains("played back from " + stored));
                    WebElement iops = driver.findElement(By.id("chart-iops"));
                    wait.until(d -> Browser.points(iops) >= 2);
                    int first = Browser.points(iops);
                    assertThat(play).as("the playback is still going").isNotDone();
                    wait.until(d -> Browser.points(iops) > first);
                    assertThat(Browser.points(iops))
                            .as("the played run's IOPS chart grew")
                            .isGreaterThan(first);
                    Browser.screenshot(driver, "playback-live.png");
                    assertThat(play.get(90, TimeUnit.SECONDS).ioCount()).isPositive();
                    wait.until(d -> d.findElement(By.id("run-status")).getText().equals("COMPLETED"));
                    wait.until(d -> Browser.points(iops) == 120);

                    Browser.click(wait, By.cssSelector("tr[data-run='" + stored + "']"));
                    wait.until(d -> d.findElement(By.id("run-title")).getText().equals("alternating")
                            && !d.findElements(By.cssSelector("#rs-select option[value='w10s']"))
                                    .isEmpty());
                    wait.until(d -> Browser.points(iops) == 120);
                    new Select(driver.findElement(By.id("rs-select"))).selectByValue("w10s");
                    wait.until(d -> Browser.points(d.findElement(By.id("chart-iops"))) == 12);
                    wait.until(
                            d -> d.findElement(By.id("run-facts")).getText().contains("result set w10s (window 10 s"));
                    Browser.click(wait, By.cssSelector("input[data-compare-rs='live']"));
                    Browser.click(wait, By.cssSelector("input[data-compare-rs='w10s']"));
                    WebElement compare = driver.findElement(By.id("chart-compare"));
                    wait.until(d -> Browser.points(compare) == 60 + 6);
                    wait.until(
                            d -> d.findElement(By.id("compare-table")).getText().contains("[w10s]"));
                    Browser.screenshot(driver, "playback-result-sets.png");
                } finally {
                    driver.quit();
                    play.cancel(true);
                }
            }
        }
    }
}
