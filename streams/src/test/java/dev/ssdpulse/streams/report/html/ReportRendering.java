package dev.ssdpulse.streams.report.html;

import java.nio.file.Path;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

/**
 * How long a browser takes to show a report file: from asking for the page to its first frame on screen after
 * the load event (the HTML parsed, the styles applied, every SVG laid out and every embedded picture decoded —
 * the load event waits for images — then two animation frames, so that the drawing is painted). The browser's
 * own navigation timing is kept beside the wall time.
 */
final class ReportRendering {
    private ReportRendering() {}

    /**
     * @param wallMs   driver.get to the painted frame, ms (the driver's round trips included)
     * @param loadMs   the navigation's start to the end of its load event, by the browser's clock, ms
     * @param elements elements of the page
     */
    record Timing(double wallMs, double loadMs, long elements) {}

    static Timing open(WebDriver driver, Path file) {
        // the browser and its renderer up before the clock starts: what is timed is the report, not Chromium's start
        driver.get("about:blank");
        long start = System.nanoTime();
        driver.get(file.toUri().toString());
        ((JavascriptExecutor) driver)
                .executeAsyncScript("var done = arguments[0];"
                        + "requestAnimationFrame(function () { requestAnimationFrame(function () { done(); }); });");
        double wallMs = (System.nanoTime() - start) / 1e6;
        @SuppressWarnings("unchecked")
        Map<String, Object> nav = (Map<String, Object>) ((JavascriptExecutor) driver)
                .executeScript("var n = performance.getEntriesByType('navigation')[0];"
                        + "return {load: n.loadEventEnd, elements: document.getElementsByTagName('*').length};");
        return new Timing(wallMs, ((Number) nav.get("load")).doubleValue(), ((Number) nav.get("elements")).longValue());
    }
}
