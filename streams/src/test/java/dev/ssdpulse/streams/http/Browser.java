package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Headless Chromium for the dashboard's browser tests, and the few interactions they share. */
public final class Browser {
    /** Debian's chromium and chromedriver (`.ci/run` installs them); Selenium Manager never downloads anything. */
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Browser() {}

    public static boolean installed() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    /** A headless Chromium with its profile under {@code temp}. */
    public static WebDriver chrome(Path temp) throws IOException {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1500,2600",
                "--user-data-dir=" + Files.createDirectories(temp.resolve("chrome")));
        // the page's console, for failedLoads
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** Lists are re-rendered when runs change: retries a click whose element was replaced or not there yet. */
    static void click(WebDriverWait wait, By by) {
        wait.until(d -> {
            try {
                d.findElement(by).click();
                return true;
            } catch (StaleElementReferenceException | NoSuchElementException e) {
                return false;
            }
        });
    }

    /** Saves a screenshot under target/screenshots (a build artefact). */
    public static void screenshot(WebDriver driver, String name) throws IOException {
        File shot = ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", "screenshots", name);
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
        assertThat(Files.size(target)).isGreaterThan(10_000);
    }

    /** Resources the page failed to load (Chromium logs each failed request, a 404 among them, to the console). */
    public static List<String> failedLoads(WebDriver driver) {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(m -> m.contains("Failed to load resource"))
                .toList();
    }

    /**
     * Waits until the page has drawn everything it asked for (no request under way, no drawing scheduled: the
     * dashboard's {@code <html data-pending>} is 0) and that drawing is on screen (two animation frames later):
     * what a screenshot should show.
     */
    static void settled(WebDriver driver, WebDriverWait wait) {
        wait.until(d -> "0".equals(d.findElement(By.tagName("html")).getAttribute("data-pending")));
        ((JavascriptExecutor) driver)
                .executeAsyncScript("var done = arguments[0];"
                        + "requestAnimationFrame(function () { requestAnimationFrame(function () { done(); }); });");
    }

    /** Points drawn on a chart canvas (the dashboard publishes the count as data-points). */
    static int points(WebElement canvas) {
        String v = canvas.getAttribute("data-points");
        return v == null ? 0 : Integer.parseInt(v);
    }
}
