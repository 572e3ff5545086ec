package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.producer.playback.RunPlayback;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Playback against a real broker: a stored 60-s run played at 10x takes about 6 s of wall time and is analysed
 * live as a new run linked to the original, with the same results; a playback stopped early ends ABORTED.
 */
@ExtendWith(KafkaTestEnvironment.class)
class PlaybackIT {
    @TempDir
    Path temp;

    @Test
    void aStoredRunPlaysBackPacedByItsEventTimes(TestStack stack) throws Exception {
        AnalyticsConfig config = AnalyticsConfig.defaults(stack.bootstrapServers(), stack.schemaRegistryUrl(),
                temp.resolve("state")).withApplicationId("playback-it-" + UUID.randomUUID());
        AnalyticsApp.ensureTopics(config, (short) 1);
        String origin = "stored-" + UUID.randomUUID();
        ResultSetsIT.publishAlternatingRun(stack, origin, 60);
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());

        try (AnalyticsApp app = new AnalyticsApp(config);
             HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            AnalyticsViews views = app.views();
            ResultSetsIT.await(() -> views.summary(origin).isPresent());
            RunSummary stored = views.summary(origin).orElseThrow();

            RunPlayback playback = new RunPlayback(props, registry, Duration.ofMinutes(1));
            String played = "played-" + UUID.randomUUID();
            long t0 = System.nanoTime();
            RunPlayback.Report report = playback.play(origin, played, 10.0, () -> false, s -> { });
            double wallS = (System.nanoTime() - t0) / 1e9;
            System.out.printf("played a 60-s run at 10x in %.2f s of wall time%n", wallS);
            // pacing is a functional property: 60 s of run time at 10x is ~6 s; a generous band for a noisy machine
            assertThat(wallS).as("wall time of a 60-s run played at 10x").isBetween(0.6 * 6, 3 * 6.0);
            assertThat(report.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(report.ioCount()).isEqualTo(stored.getIoCount());

            ResultSetsIT.await(() -> views.summary(played).isPresent());
            RunSummary summary = views.summary(played).orElseThrow();
            assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
            assertThat(summary.getIoCount()).isEqualTo(stored.getIoCount());
            assertThat(summary.getOps().toString().replace(played, origin)).isEqualTo(stored.getOps().toString());
            ResultSetsIT.await(() -> views.run(played).isPresent());
            RunStarted link = views.run(played).orElseThrow();
            assertThat(link.getOriginRunId()).isEqualTo(origin);
            assertThat(link.getLabels()).containsEntry("playbackOf", origin);
            assertThat(views.series(played, 0, 0, Long.MAX_VALUE)).hasSameSizeAs(views.series(origin, 0, 0, Long.MAX_VALUE));

            // stopped after ~1.5 s of wall time (Ctrl-C in the CLI): ABORTED, with what was sent
            String stopped = "stopped-" + UUID.randomUUID();
            // (the clock starts at the first pacing check: reading the stored run comes before it)
            java.util.concurrent.atomic.AtomicLong firstCheck = new java.util.concurrent.atomic.AtomicLong();
            RunPlayback.Report aborted = playback.play(origin, stopped, 10.0, () -> {
                firstCheck.compareAndSet(0, System.nanoTime());
                return System.nanoTime() - firstCheck.get() > 1_500_000_000L;
            }, s -> { });
            assertThat(aborted.status()).isEqualTo(RunStatus.ABORTED);
            assertThat(aborted.ioCount()).isPositive().isLessThan(stored.getIoCount());
            ResultSetsIT.await(() -> views.summary(stopped).isPresent());
            assertThat(views.summary(stopped).orElseThrow().getStatus()).isEqualTo(RunStatus.ABORTED);
            assertThat(views.summary(stopped).orElseThrow().getIoCount()).isEqualTo(aborted.ioCount());
        }
    }
}
