package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.SampleRecords;
import dev.ssdpulse.schemas.avro.WriteVerification;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The run page shows a run's power-loss verification (units per class, lost units per durability model, lost writes
 * by age, the oldest lost writes, the unsafe-shutdown counts) once the API has one, and nothing of it for a run
 * without one. Needs Debian's chromium and chromium-driver, like the other browser tests.
 */
class VerificationBrowserIT {
    @TempDir
    Path temp;

    @Test
    void theRunPageShowsTheVerificationOfARunThatHasOne() throws Exception {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        InMemoryRunViews views = new InMemoryRunViews();
        views.runs.put(
                "pl-1", TestRecords.runStarted("pl-1", "power loss", 1_000_204_886_016L, 1_764_547_200_000_000_000L));
        views.statuses.put("pl-1", "FAILED");
        views.runs.put(
                "plain",
                TestRecords.runStarted("plain", "no verification", 1_000_204_886_016L, 1_764_547_100_000_000_000L));
        views.statuses.put("plain", "COMPLETED");
        WriteVerification v = SampleRecords.writeVerification();
        v.setRunId("pl-1");
        views.verifications.put("pl-1", v);
        try (HttpApiServer server = new HttpApiServer(views, HttpApiConfig.localhost(0))) {
            WebDriver driver = Browser.chrome(temp);
            try {
                driver.get(server.url() + "#run=pl-1");
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                wait.until(d -> d.findElement(By.id("verification")).isDisplayed());
                String classes =
                        driver.findElement(By.id("verification-classes")).getText();
                assertThat(classes).contains("1,999,000", "600", "250", "41 → 42");
                String models = driver.findElement(By.id("verification-models")).getText();
                assertThat(models)
                        .contains("every acknowledged write 950 2,000,000 600 / 100 / 250")
                        .contains("acknowledged before the last FLUSH 3 1,990,000");
                String ages = driver.findElement(By.id("verification-ages")).getText();
                assertThat(ages).contains("≤ 100 µs 10", "≤ 10 ms 500", "> 1 s 0");
                assertThat(driver.findElement(By.id("verification-worst")).getText())
                        .contains("123,456", "REVERTED", "write 2998012 (older)", "10 ms");

                driver.findElement(By.cssSelector("tr[data-run='plain']")).click();
                wait.until(d -> d.findElement(By.id("run-title")).getText().contains("no verification"));
                wait.until(d -> !d.findElement(By.id("verification")).isDisplayed());
            } finally {
                driver.quit();
            }
        }
    }
}
