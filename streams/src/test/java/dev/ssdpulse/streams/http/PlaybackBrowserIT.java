package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.Reanalysis;
import dev.ssdpulse.streams.playback.RunPlayback;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium on the dashboard: a stored run played back at 4x shows its IOPS chart growing like a
 * live run; the stored run's result set (10-s windows) is picked in the result-set picker and compared with the
 * live results. Saves target/screenshots/playback*.png. Needs chromium and chromium-driver (fails without them).
 */
@ExtendWith(KafkaTestEnvironment.class)
class PlaybackBrowserIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path temp;

    @Test
    void aPlayedBackRunGrowsOnTheDashboardAndResultSetsArePickedAndCompared(TestStack stack) throws Exception {
        assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(),
                temp.resolve("state")).withApplicationId("playback-browser-it-" + UUID.randomUUID());
        AnalyticsApp.ensureTopics(config, (short) 1);
        String stored = "stored-" + UUID.randomUUID();
        String played = "played-" + UUID.randomUUID();
        ResultSetsIT.publishAlternatingRun(stack, stored, 60);

        try (AnalyticsApp app = new AnalyticsApp(config);
             HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            ResultSetsIT.await(() -> app.views().summary(stored).isPresent());
            Reanalysis.run(config.withSteadyState(10 * S, config.fioCriteria()).withWindow(10 * S, config.graceNs()),
                    Set.of(stored), "w10s", Duration.ofMinutes(3));
            try (HttpApiServer server = HttpApiServer.start(app, HttpApiConfig.localhost(0))) {
                RunPlayback playback = new RunPlayback(Map.of("bootstrap.servers", stack.bootstrapServers()), registry,
                        Duration.ofMinutes(1));
                CompletableFuture<RunPlayback.Report> play = CompletableFuture.supplyAsync(() -> {
                    try {
                        return playback.play(stored, played, 4.0, () -> false, s -> { });
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                });
                WebDriver driver = chrome();
                try {
                    driver.get(server.url().toString());
                    WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                    By playedRow = By.cssSelector("tr[data-run='" + played + "']");
                    wait.until(d -> !d.findElements(playedRow).isEmpty());
                    click(wait, playedRow);
                    WebElement iops = driver.findElement(By.id("chart-iops"));
                    wait.until(d -> points(iops) >= 2);
                    int first = points(iops);
                    assertThat(play).as("the playback is still going").isNotDone();
                    wait.until(d -> points(iops) > first);
                    assertThat(points(iops)).as("the played run's IOPS chart grew").isGreaterThan(first);
                    wait.until(d -> d.findElement(By.id("run-facts")).getText().contains("played back from " + stored));
                    screenshot(driver, "playback-live.png");
                    assertThat(play.get(90, TimeUnit.SECONDS).ioCount()).isPositive();
                    wait.until(d -> d.findElement(By.id("run-status")).getText().equals("COMPLETED"));
                    wait.until(d -> points(iops) == 120);

                    click(wait, By.cssSelector("tr[data-run='" + stored + "']"));
                    wait.until(d -> d.findElement(By.id("run-title")).getText().equals("alternating")
                            && !d.findElements(By.cssSelector("#rs-select option[value='w10s']")).isEmpty());
                    wait.until(d -> points(iops) == 120);
                    new Select(driver.findElement(By.id("rs-select"))).selectByValue("w10s");
                    wait.until(d -> points(d.findElement(By.id("chart-iops"))) == 12);
                    wait.until(d -> d.findElement(By.id("run-facts")).getText().contains("result set w10s (window 10 s"));
                    click(wait, By.cssSelector("input[data-compare-rs='live']"));
                    click(wait, By.cssSelector("input[data-compare-rs='w10s']"));
                    WebElement compare = driver.findElement(By.id("chart-compare"));
                    wait.until(d -> points(compare) == 60 + 6);
                    wait.until(d -> d.findElement(By.id("compare-table")).getText().contains("[w10s]"));
                    screenshot(driver, "playback-result-sets.png");
                } finally {
                    driver.quit();
                    play.cancel(true);
                }
            }
        }
    }

    private static void click(WebDriverWait wait, By by) {
        wait.until(d -> {
            try {
                d.findElement(by).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException | org.openqa.selenium.NoSuchElementException e) {
                return false;
            }
        });
    }

    private static void screenshot(WebDriver driver, String name) throws java.io.IOException {
        File shot = ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", "screenshots", name);
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(target)).isGreaterThan(10_000);
    }

    private static int points(WebElement canvas) {
        String v = canvas.getAttribute("data-points");
        return v == null ? 0 : Integer.parseInt(v);
    }

    private WebDriver chrome() throws Exception {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1500,2600", "--user-data-dir=" + Files.createDirectories(temp.resolve("chrome")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }
}
