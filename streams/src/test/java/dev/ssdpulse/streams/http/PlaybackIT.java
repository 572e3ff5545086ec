package dev.ssdpulse.streams.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.playback.RunPlayback;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.views.AnalyticsViews;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        AnalyticsConfig config = AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), temp.resolve("state"))
                .withApplicationId("playback-it-" + UUID.randomUUID());
        TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
        String origin = "stored-" + UUID.randomUUID();
        // the stored run is a member of a group; its copy is a run of its own
        String group = "playback-group-" + UUID.randomUUID();
        ResultSetsIT.publishAlternatingRun(stack, origin, 60, group);
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());

        try (AnalyticsApp app = new AnalyticsApp(config);
                HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            app.start();
            app.awaitRunning(Duration.ofSeconds(60));
            AnalyticsViews views = app.views();
            ResultSetsIT.awaitViews().until(() -> views.summary(origin).isPresent());
            RunSummary stored = views.summary(origin).orElseThrow();

            RunPlayback playback = new RunPlayback(props, registry, Duration.ofMinutes(1));
            String played = "played-" + UUID.randomUUID();
            RunPlayback.Report report = playback.play(origin, played, 10.0, () -> false, s -> {});
            System.out.printf(
                    "played a %.0f-s run at 10x in %.2f s of wall time%n",
                    report.runTimeNs() / 1e9, report.wallNs() / 1e9);
            // Pacing: no event is sent before its run time / 10, so the last one not before. Exact on any machine;
            // how much later it went depends on the machine's load (an upper bound needs a clock in RunPlayback).
            assertThat(report.runTimeNs()).as("run time played").isGreaterThan(50_000_000_000L);
            assertThat(report.wallNs())
                    .as("wall time of the run played at 10x")
                    .isGreaterThanOrEqualTo(report.runTimeNs() / 10);
            assertThat(report.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(report.ioCount()).isEqualTo(stored.getIoCount());

            ResultSetsIT.awaitViews().until(() -> views.summary(played).isPresent());
            RunSummary summary = views.summary(played).orElseThrow();
            assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
            assertThat(summary.getIoCount()).isEqualTo(stored.getIoCount());
            assertThat(summary.getOps().toString().replace(played, origin))
                    .isEqualTo(stored.getOps().toString());
            ResultSetsIT.awaitViews().until(() -> views.run(played).isPresent());
            RunStarted link = views.run(played).orElseThrow();
            assertThat(link.getOriginRunId()).isEqualTo(origin);
            assertThat(link.getLabels()).containsEntry("playbackOf", origin);
            assertThat(link.getGroup()).as("a played-back run's group").isNull();
            assertThat(link.getMember()).isNull();
            assertThat(views.run(origin).orElseThrow().getGroup()).isEqualTo(group);
            ResultSetsIT.awaitViews()
                    .until(() -> views.group("group:" + group)
                            .map(g -> g.getStatus() != null)
                            .orElse(false));
            assertThat(views.group("group:" + group).orElseThrow().getMembers())
                    .as("the group's members after its member was played back")
                    .hasSize(1);
            assertThat(views.series(played, 0, 0, Long.MAX_VALUE))
                    .hasSameSizeAs(views.series(origin, 0, 0, Long.MAX_VALUE));

            // stopped part-way (Ctrl-C in the CLI): ABORTED, with what was sent. Stopped at the first progress
            // report that counts I/Os sent (every 2 s of wall time, 20 s of the 60-s run at 10x), whatever the
            // machine's speed: pacing holds the rest of the run back.
            String stopped = "stopped-" + UUID.randomUUID();
            Pattern sent = Pattern.compile("([\\d,]+) I/Os sent");
            AtomicBoolean ioSent = new AtomicBoolean();
            RunPlayback.Report aborted = playback.play(origin, stopped, 10.0, ioSent::get, s -> {
                Matcher m = sent.matcher(s);
                if (m.find() && Long.parseLong(m.group(1).replace(",", "")) > 0) {
                    ioSent.set(true);
                }
            });
            assertThat(aborted.status()).isEqualTo(RunStatus.ABORTED);
            assertThat(aborted.ioCount()).isPositive().isLessThan(stored.getIoCount());
            ResultSetsIT.awaitViews().until(() -> views.summary(stopped).isPresent());
            assertThat(views.summary(stopped).orElseThrow().getStatus()).isEqualTo(RunStatus.ABORTED);
            assertThat(views.summary(stopped).orElseThrow().getIoCount()).isEqualTo(aborted.ioCount());
        }
    }
}
