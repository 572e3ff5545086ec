package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoOp;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Headless Debian Chromium on the dashboard when the server answers late or refuses: switching runs never leaves
 * the previous run's charts under the new run's title, and a run whose views are not queryable for a while (503,
 * as Streams' stores are while they rebalance or restore, e.g. after the analytics instance restarted) is loaded
 * and streamed once they are, without a reload. The views are in memory, the server and the page are the real ones.
 */
class DashboardRecoveryBrowserIT {
    private static final String LONG = "long-completed-run";
    private static final String LIVE = "live-run";

    @TempDir
    Path temp;

    private final InMemoryRunViews views = new InMemoryRunViews();

    @BeforeEach
    void twoRuns() {
        assertThat(Browser.installed())
                .as("Debian chromium and chromium-driver are required: apt-get install -y chromium chromium-driver")
                .isTrue();
        views.runs.put(LONG, TestRecords.runStarted(LONG, "long", 480_103_981_056L, 1_700_000_000_000_000_000L));
        views.statuses.put(LONG, "COMPLETED");
        for (int t = 0; t < 100; t++) {
            views.windows.add(TestRecords.window(LONG, IoOp.READ, 0, t * S, 1000, 2_000_000L));
        }
        views.runs.put(LIVE, TestRecords.runStarted(LIVE, "live", 480_103_981_056L, 1_700_000_100_000_000_000L));
        views.statuses.put(LIVE, "RUNNING");
        addLiveWindows(0, 5);
    }

    @Test
    void switchingRunsClearsThePreviousRunsChartsAndARefusedLoadIsAskedAgain() throws Exception {
        try (HttpApiServer server = new HttpApiServer(views, HttpApiConfig.localhost(0))) {
            WebDriver driver = Browser.chrome(temp);
            try {
                driver.get(server.url().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                Browser.click(wait, By.cssSelector("tr[data-run='" + LONG + "']"));
                wait.until(d -> iopsPoints(d) == 100);

                views.unavailableFor(Duration.ofSeconds(4));
                Browser.click(wait, By.cssSelector("tr[data-run='" + LIVE + "']"));
                assertThat(iopsPoints(driver))
                        .as("the previous run's 100 points are gone as soon as another is picked")
                        .isZero();
                assertThat(driver.findElement(By.id("run-title")).getText()).isEqualTo(LIVE);

                wait.until(d -> iopsPoints(d) == 5);
                addLiveWindows(5, 7);
                wait.until(d -> iopsPoints(d) == 7);
            } finally {
                driver.quit();
            }
        }
    }

    @Test
    void aStreamRefusedAfterTheServerRestartedIsOpenedAgainFromItsLastPoint() throws Exception {
        HttpApiServer server = new HttpApiServer(views, HttpApiConfig.localhost(0));
        int port = server.port();
        WebDriver driver = Browser.chrome(temp);
        try {
            driver.get(server.url().toString());
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(40));
            // the page picks the running run by itself
            wait.until(d -> d.findElement(By.id("run-title")).getText().equals("live") && iopsPoints(d) == 5);

            // a restart: the stream ends, and the new instance's views restore for a while (EventSource reconnects
            // after ~3 s by itself and gets a 503, which ends it for good unless the page opens it again)
            views.unavailableFor(Duration.ofSeconds(8));
            server.close();
            server = new HttpApiServer(views, HttpApiConfig.localhost(port));

            addLiveWindows(5, 8);
            wait.until(d -> iopsPoints(d) == 8);
        } finally {
            driver.quit();
            server.close();
        }
    }

    private void addLiveWindows(int fromS, int toS) {
        for (int t = fromS; t < toS; t++) {
            views.windows.add(TestRecords.window(LIVE, IoOp.READ, 0, t * S, 800, 2_000_000L));
        }
    }

    private static int iopsPoints(WebDriver driver) {
        return Browser.points(driver.findElement(By.id("chart-iops")));
    }
}
