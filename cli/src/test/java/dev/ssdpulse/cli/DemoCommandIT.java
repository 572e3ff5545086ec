package dev.ssdpulse.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's main command, scripted: {@code demo} brings up its own broker, registry, analytics and
 * dashboard, streams a short showcase run, serves the run through the API with a summary, and stops by
 * itself (--exit-after) leaving no broker process behind.
 */
class DemoCommandIT {
    private static final Pattern DASHBOARD = Pattern.compile("dashboard : (http://\\S+)");

    @Test
    void demoServesAPopulatedDashboardAndStopsCleanly() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        // Other tests of this JVM may have their own broker running: only processes the demo starts count.
        var preexisting = ProcessHandle.current().descendants().map(ProcessHandle::pid).toList();
        int[] exit = {-1};
        Thread demo = new Thread(() -> exit[0] = cli.execute("demo", "--port", "0", "--duration", "15s", "--speed", "15",
                "--free-flash-gb", "0", "--exit-after", "90s"));
        demo.start();
        String url = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (url == null && System.nanoTime() < deadline) {
            Matcher m = DASHBOARD.matcher(out.toString());
            if (m.find()) {
                url = m.group(1);
            }
            Thread.sleep(200);
        }
        assertThat(url).as("dashboard URL printed\n" + out + err).isNotNull();
        HttpClient http = HttpClient.newHttpClient();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body())
                .contains("ssdpulse");
        String runs = "";
        while (!runs.contains("\"COMPLETED\"") && System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(60)) {
            runs = http.send(HttpRequest.newBuilder(URI.create(url + "api/runs")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Thread.sleep(500);
        }
        assertThat(runs).contains("demo-1-free-0GB").contains("\"COMPLETED\"");
        var summary = http.send(HttpRequest.newBuilder(URI.create(url + "api/runs/demo-1-free-0GB/summary")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(summary.statusCode()).isEqualTo(200);
        assertThat(summary.body()).contains("\"ioCount\"");
        var demoProcesses = ProcessHandle.current().descendants()
                .filter(p -> !preexisting.contains(p.pid())).toList();
        assertThat(demoProcesses).as("the demo's broker runs as a child JVM").isNotEmpty();
        demo.join(TimeUnit.SECONDS.toMillis(150));
        assertThat(demo.isAlive()).as("demo stops after --exit-after").isFalse();
        assertThat(exit[0]).as(out.toString() + err).isZero();
        long deadline2 = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (demoProcesses.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline2) {
            Thread.sleep(100);
        }
        assertThat(demoProcesses).as("the demo's broker child JVM is gone").noneMatch(ProcessHandle::isAlive);
    }
}
