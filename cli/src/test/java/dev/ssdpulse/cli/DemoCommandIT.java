package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's main command, scripted: {@code demo} brings up its own broker, registry, analytics and
 * dashboard, streams a short showcase run, serves the run through the API with a summary, and stops cleanly
 * when asked (an interrupt, as Ctrl-C), leaving no broker process behind. `--exit-after` is the distribution's
 * test (SourceLauncherIT).
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
        var preexisting =
                ProcessHandle.current().descendants().map(ProcessHandle::pid).toList();
        int[] exit = {-1};
        Thread demo = new Thread(() -> exit[0] = cli.execute(
                "demo",
                "--port",
                "0",
                "--duration",
                "15s",
                "--speed",
                "15",
                "--free-flash-gb",
                "0",
                "--exit-after",
                "180s"));
        demo.start();
        String url = await("dashboard URL printed")
                .atMost(Duration.ofSeconds(90))
                .until(() -> DASHBOARD.matcher(out.toString()), Matcher::find)
                .group(1);
        HttpClient http = HttpClient.newHttpClient();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                        .body())
                .contains("ssdpulse");
        String runs = await("a COMPLETED run on the dashboard")
                .atMost(Duration.ofSeconds(150))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> http.send(
                                        HttpRequest.newBuilder(URI.create(url + "api/runs"))
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .body(),
                        body -> body.contains("\"COMPLETED\""));
        assertThat(runs).contains("demo-1-free-0GB").contains("\"COMPLETED\"");
        var summary = http.send(
                HttpRequest.newBuilder(URI.create(url + "api/runs/demo-1-free-0GB/summary"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(summary.statusCode()).isEqualTo(200);
        assertThat(summary.body()).contains("\"ioCount\"");
        var demoProcesses = ProcessHandle.current()
                .descendants()
                .filter(p -> !preexisting.contains(p.pid()))
                .toList();
        assertThat(demoProcesses).as("the demo's broker runs as a child JVM").isNotEmpty();
        await("the showcase done")
                .atMost(Duration.ofSeconds(60))
                .until(() -> out.toString().contains("Showcase done"));
        demo.interrupt(); // a stop request, as Ctrl-C; --exit-after is only the cap of a test gone wrong
        demo.join(TimeUnit.SECONDS.toMillis(150));
        assertThat(demo.isAlive()).as("demo stops when interrupted").isFalse();
        assertThat(out.toString()).contains("ssdpulse demo stopped.");
        assertThat(exit[0]).as(out.toString() + err).isZero();
        await("the demo's broker child JVM is gone")
                .atMost(Duration.ofSeconds(30))
                .until(() -> demoProcesses.stream().noneMatch(ProcessHandle::isAlive));
    }
}
