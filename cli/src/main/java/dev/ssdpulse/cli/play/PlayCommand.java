package dev.ssdpulse.cli.play;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.playback.PlaybackPlan;
import dev.ssdpulse.streams.playback.RunPlayback;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ssdpulse play --run ID [--speed 10x]}: re-emits a stored run under a new run id (RunStarted.originRunId =
 * ID), paced by its own event times, so the live analytics and the dashboard show it unfolding. Ctrl-C ends the
 * played run with RunFinished(ABORTED).
 */
@Command(name = "play", description = "Play a stored run back as a new live run, paced by its event times.")
public final class PlayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--run", required = true, paramLabel = "ID", description = "The stored run to play back.")
    String runId;

    @Option(names = "--speed", defaultValue = "1x", paramLabel = "FACTOR",
            description = "Run time per wall time, e.g. 10x (faster) or 0.5x (slower) (default: ${DEFAULT-VALUE}).")
    String speed;

    @Option(names = "--new-run-id", paramLabel = "ID", description = "Id of the played run (default: play-<time>-<rand>).")
    String newRunId;

    @Option(names = "--read-timeout", defaultValue = "5m", paramLabel = "DURATION",
            description = "Give up reading the stored run after this long (default: ${DEFAULT-VALUE}).")
    Duration readTimeout;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        RunIds.validate(runId);
        double factor = PlaybackPlan.parseSpeed(speed);
        String target = newRunId != null ? RunIds.validate(newRunId) : RunIds.newRunId("play");
        if (target.equals(runId)) {
            throw new IllegalArgumentException("--new-run-id must differ from the played run");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TopicSetup.ensure(kafka.clientProperties(), Topics.all());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.set(true);
            try {
                // let the playback send RunFinished(ABORTED) and flush before the JVM exits
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ssdpulse-play-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        RunPlayback.Report report;
        try (var registry = new HttpSchemaRegistryClient(kafka.schemaRegistryUrl())) {
            out.printf("playing run %s as %s at %sx%n", runId, target, trim(factor));
            out.flush();
            report = new RunPlayback(kafka.clientProperties(), registry, readTimeout).play(runId, target, factor,
                    stop::get, line -> {
                        err.println(line);
                        err.flush();
                    });
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for us
            }
        }
        out.printf(Locale.ROOT, "played run %s (of %s): %s, %,d I/Os, %.1f s of run time in %.1f s%n", report.runId(),
                report.originRunId(), report.status(), report.ioCount(), report.runTimeNs() / 1e9, report.wallNs() / 1e9);
        out.flush();
        return 0;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
