package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.http.HttpApiConfig;
import dev.ssdpulse.streams.http.HttpApiServer;
import java.time.Duration;

/** The analytics application and its HTTP API in this JVM (the uninterrupted reference of a test). */
final class InProcessAnalytics implements AutoCloseable {
    private final AnalyticsApp app;
    private final HttpApiServer http;
    private final ApiClient api;

    private InProcessAnalytics(AnalyticsApp app, HttpApiServer http) {
        this.app = app;
        this.http = http;
        this.api = new ApiClient(http.url().toString());
    }

    static InProcessAnalytics start(AnalyticsConfig config) throws Exception {
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        AnalyticsApp app = new AnalyticsApp(config);
        try {
            app.start();
            app.awaitRunning(Duration.ofMinutes(2));
            return new InProcessAnalytics(app, HttpApiServer.start(app, HttpApiConfig.localhost(0)));
        } catch (Exception | Error e) {
            app.close();
            throw e;
        }
    }

    ApiClient api() {
        return api;
    }

    AnalyticsApp app() {
        return app;
    }

    @Override
    public void close() {
        try {
            http.close();
        } finally {
            app.close();
        }
    }
}
