package dev.ssdpulse.streams.report.html;

import dev.ssdpulse.streams.http.Browser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;

/**
 * {@code bench/report-size.sh}'s timer: opens report files in headless Debian Chromium at 1500 px, each in turn
 * for the given rounds (files alternated, so that a busy spell of the machine hits each alike), and prints each
 * round's time to the painted page ({@link ReportRendering}) and the median per file. A file the browser cannot
 * show within the timeout (its load, or its first frame after the load) counts as that timeout.
 *
 * <p>Usage: {@code ReportRenderMain ROUNDS TIMEOUT_S FILE...}
 */
public final class ReportRenderMain {
    private ReportRenderMain() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        int timeoutS = Integer.parseInt(args[1]);
        List<Path> files = Arrays.stream(args).skip(2).map(Path::of).toList();
        double[][] ms = new double[files.size()][rounds];
        Path profile = Files.createTempDirectory("report-render");
        WebDriver driver = Browser.chrome(profile);
        try {
            driver.manage().window().setSize(new Dimension(1500, 1200));
            driver.manage()
                    .timeouts()
                    .pageLoadTimeout(Duration.ofSeconds(timeoutS))
                    .scriptTimeout(Duration.ofSeconds(timeoutS));
            for (int round = 0; round < rounds; round++) {
                for (int f = 0; f < files.size(); f++) {
                    try {
                        ReportRendering.Timing t = ReportRendering.open(driver, files.get(f));
                        ms[f][round] = t.wallMs();
                        System.out.printf(
                                Locale.ROOT,
                                "round %d %s: %,d bytes, %.0f ms to the painted page (load event %.0f ms, %,d "
                                        + "elements)%n",
                                round + 1,
                                files.get(f),
                                Files.size(files.get(f)),
                                t.wallMs(),
                                t.loadMs(),
                                t.elements());
                    } catch (WebDriverException e) {
                        ms[f][round] = timeoutS * 1000.0;
                        System.out.printf(
                                Locale.ROOT,
                                "round %d %s: not shown within %d s (%s)%n",
                                round + 1,
                                files.get(f),
                                timeoutS,
                                e.getClass().getSimpleName());
                        driver.quit();
                        driver = Browser.chrome(Files.createTempDirectory("report-render"));
                        driver.manage().window().setSize(new Dimension(1500, 1200));
                        driver.manage()
                                .timeouts()
                                .pageLoadTimeout(Duration.ofSeconds(timeoutS))
                                .scriptTimeout(Duration.ofSeconds(timeoutS));
                    }
                }
            }
        } finally {
            driver.quit();
        }
        for (int f = 0; f < files.size(); f++) {
            List<Double> sorted = new ArrayList<>();
            for (double v : ms[f]) {
                sorted.add(v);
            }
            sorted.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "median of %d %s: %.0f ms (min %.0f, max %.0f)%n",
                    rounds,
                    files.get(f),
                    sorted.get(sorted.size() / 2),
                    sorted.get(0),
                    sorted.get(sorted.size() - 1));
        }
    }
}
