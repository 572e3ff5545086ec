package dev.ssdpulse.cli.analytics;

import dev.ssdpulse.cli.command.HandledKafkaRetries;
import dev.ssdpulse.cli.command.UntilStopped;
import dev.ssdpulse.cli.options.AnalyticsOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.http.HttpApiConfig;
import dev.ssdpulse.streams.http.HttpApiServer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse streams}: the analytics Kafka Streams application, until Ctrl-C. Its state goes in a directory of
 * the Kafka cluster it runs against ({@code --state-dir}/cluster id), so a new cluster never sees another's runs.
 */
@Command(
        name = "streams",
        description = "Run the analytics (Kafka Streams): windows, latency, WA, steady state, summaries.")
public final class StreamsCommand implements Callable<Integer> {
    private static final String APPLICATION_SERVER = "application.server";

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Mixin
    AnalyticsOptions analytics;

    @Option(
            names = "--exit-after",
            paramLabel = "DURATION",
            description = "Stop by itself after this long (scripts, tests).")
    Duration exitAfter;

    @Option(
            names = "--http-port",
            paramLabel = "PORT",
            defaultValue = "8080",
            description =
                    "Port of the HTTP API and dashboard; 0 = any free port; -1 = no HTTP (default: ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(
            names = "--http-bind",
            paramLabel = "ADDRESS",
            defaultValue = "127.0.0.1",
            description = "Address the HTTP API listens on (default: ${DEFAULT-VALUE}: this host only).")
    String httpBind;

    @Option(
            names = "--api-token",
            paramLabel = "TOKEN",
            defaultValue = "${env:SSDPULSE_API_TOKEN}",
            description =
                    "Require 'Authorization: Bearer TOKEN' on /api and /metrics (default: env SSDPULSE_API_TOKEN).")
    String apiToken;

    @Override
    public Integer call() throws Exception {
        String clusterId = kafka.clusterId();
        AnalyticsConfig settings = analytics.toConfig(kafka);
        AdvertisedAddress advertised =
                AdvertisedAddress.of(settings.extraProperties().get(APPLICATION_SERVER), httpBind, httpPort);
        if (advertised.derived()) {
            Map<String, String> extra = new HashMap<>(settings.extraProperties());
            extra.put(APPLICATION_SERVER, advertised.hostPort());
            settings = settings.withExtraProperties(extra);
        }
        AnalyticsConfig config = settings.withStateDir(analytics.stateDirFor(clusterId));
        TopicSetup.ensure(kafka.clientProperties(), Topics.all());
        PrintWriter out = spec.commandLine().getOut();
        Path unbound = settings.stateDir().resolve(settings.applicationId());
        if (Files.isDirectory(unbound)) {
            spec.commandLine()
                    .getErr()
                    .printf(
                            "note: %s holds state that belongs to no known Kafka cluster (kept there by earlier"
                                    + " versions); it is no longer used and can be deleted%n",
                            unbound);
        }
        try (AnalyticsApp app = new AnalyticsApp(config)) {
            app.start();
            app.awaitRunning(Duration.ofMinutes(2));
            HttpApiServer http = httpPort < 0
                    ? null
                    : HttpApiServer.start(
                            app,
                            HttpApiConfig.localhost(advertised.httpPort())
                                    .withBindAddress(httpBind)
                                    .withBearerToken(apiToken == null || apiToken.isBlank() ? null : apiToken));
            if (http != null) {
                out.printf("dashboard and API: %s%n", http.url());
            }
            out.println(advertised.describe());
            out.printf(
                    "ssdpulse analytics running: application id %s, %d thread(s), %s, window %s, state in %s"
                            + " (Kafka cluster %s)%n",
                    config.applicationId(),
                    config.threads(),
                    config.guarantee().streamsValue(),
                    Duration.ofNanos(config.analysisSettings().windowSizeNs()),
                    config.stateDir(),
                    clusterId);
            out.println(exitAfter == null ? "Press Ctrl-C to stop." : "Stopping after " + exitAfter + ".");
            out.flush();
            // on a signal the JVM halts once the hooks are done: the API and the application (which leaves its
            // group and commits) are closed, and the stop announced, in the hook itself
            Runnable stop = () -> {
                if (http != null) {
                    http.close();
                }
                app.close();
                String retries = HandledKafkaRetries.summaryLine();
                if (retries != null) {
                    out.println(retries);
                }
                out.println("ssdpulse analytics stopped.");
                out.flush();
            };
            UntilStopped.awaitThenStop(exitAfter, stop, "ssdpulse-streams-ctrl-c");
        }
        return 0;
    }
}
