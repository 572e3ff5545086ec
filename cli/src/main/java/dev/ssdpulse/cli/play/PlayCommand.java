package dev.ssdpulse.cli.play;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.producer.playback.PlaybackPlan;
import dev.ssdpulse.producer.playback.RunPlayback;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse play --run ID [--speed 10x]}: re-emits a stored run under a new run id (RunStarted.originRunId =
 * ID), paced by its own event times, so the live analytics and the dashboard show it unfolding. Ctrl-C ends the
 * played run with RunFinished(ABORTED).
 */
@Command(name = "play", description = "Play a stored run back as a new live run, paced by its event times.")
public final class PlayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--run",
            required = true,
            paramLabel = "ID",
            description = "A stored run to play back; repeatable (the runs play at the same time, one thread each).")
    List<String> runIds = new ArrayList<>();

    @Option(
            names = "--speed",
            defaultValue = "1x",
            paramLabel = "FACTOR",
            description = "Run time per wall time, e.g. 10x (faster) or 0.5x (slower) (default: ${DEFAULT-VALUE}).")
    String speed;

    @Option(
            names = "--new-run-id",
            paramLabel = "ID",
            description = "Id of the played run, with a single --run (default: play-<time>-<rand>).")
    String newRunId;

    @Option(
            names = "--read-timeout",
            defaultValue = "5m",
            paramLabel = "DURATION",
            description = "Give up reading the stored run after this long (default: ${DEFAULT-VALUE}).")
    Duration readTimeout;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        runIds.forEach(RunIds::validate);
        if (new HashSet<>(runIds).size() != runIds.size()) {
            throw new IllegalArgumentException("--run names a run twice");
        }
        double factor = PlaybackPlan.parseSpeed(speed);
        if (newRunId != null && runIds.size() > 1) {
            throw new IllegalArgumentException("--new-run-id needs a single --run");
        }
        List<String> targets = new ArrayList<>();
        for (String runId : runIds) {
            String target = newRunId != null ? RunIds.validate(newRunId) : RunIds.newRunId("play");
            while (targets.contains(target)) {
                target = RunIds.newRunId("play");
            }
            if (target.equals(runId)) {
                throw new IllegalArgumentException("--new-run-id must differ from the played run");
            }
            targets.add(target);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TopicSetup.ensure(kafka.clientProperties(), Topics.all());
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stop.set(true);
                    try {
                        // let the playbacks send RunFinished(ABORTED) and flush before the JVM exits
                        done.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "ssdpulse-play-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        List<RunPlayback.Report> reports = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(runIds.size());
        try (var registry = kafka.registryClient()) {
            RunPlayback playback = new RunPlayback(kafka.clientProperties(), registry, readTimeout);
            List<Future<RunPlayback.Report>> futures = new ArrayList<>();
            for (int i = 0; i < runIds.size(); i++) {
                String runId = runIds.get(i);
                String target = targets.get(i);
                out.printf("playing run %s as %s at %sx%n", runId, target, trim(factor));
                futures.add(pool.submit(() -> playback.play(runId, target, factor, stop::get, line -> {
                    synchronized (err) {
                        err.println(line);
                        err.flush();
                    }
                })));
            }
            out.flush();
            for (var f : futures) {
                try {
                    reports.add(f.get());
                } catch (ExecutionException e) {
                    stop.set(true);
                    throw e.getCause() instanceof Exception ex ? ex : e;
                }
            }
        } finally {
            pool.shutdownNow();
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for us
            }
        }
        for (RunPlayback.Report report : reports) {
            out.printf(
                    Locale.ROOT,
                    "played run %s (of %s): %s, %,d I/Os, %.1f s of run time in %.1f s%n",
                    report.runId(),
                    report.originRunId(),
                    report.status(),
                    report.ioCount(),
                    report.runTimeNs() / 1e9,
                    report.wallNs() / 1e9);
        }
        out.flush();
        return 0;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
