package dev.ssdpulse.cli.demo;

import dev.ssdpulse.cli.command.HandledKafkaRetries;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.kafka.BrokerSettings;
import dev.ssdpulse.platform.kafka.LoopbackPorts;
import dev.ssdpulse.producer.device.ShutdownCancellation;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.replay.ReplayTraces;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.WorkloadOverrides;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.http.HttpApiConfig;
import dev.ssdpulse.streams.http.HttpApiServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse demo}: the whole pipeline on one machine — embedded Kafka broker and schema registry, the
 * analytics, the HTTP API and dashboard — and a showcase: seed 000's free-space experiment on the simulated
 * 2012 120 GB drive (secure-erased, then 0/4/8/16 GB of free flash), each run streamed live at a multiple of
 * real time, so the dashboard shows the write cliff and how free flash softens it.
 */
@Command(name = "demo", description = "Start everything locally and stream a simulated showcase to the live dashboard.")
public final class DemoCommand implements Callable<Integer> {
    private static final String WORKLOAD = "seed000-exp1-random-write";

    @Spec
    CommandSpec spec;

    @Option(
            names = "--port",
            defaultValue = "8080",
            paramLabel = "PORT",
            description = "Dashboard port; the next free one is used when it is taken (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--duration",
            defaultValue = "240s",
            paramLabel = "DURATION",
            description = "Simulated length of each showcase run's random-write test (default: ${DEFAULT-VALUE}; seed "
                    + "000: 20m).")
    Duration duration;

    @Option(
            names = "--speed",
            defaultValue = "10",
            paramLabel = "X",
            description = "Simulated seconds per wall second (default: ${DEFAULT-VALUE}).")
    double speed;

    @Option(
            names = "--free-flash-gb",
            split = ",",
            defaultValue = "secure-erased,0,4,8,16",
            paramLabel = "LIST",
            description = "Showcase runs: 'secure-erased' and/or GB of free flash (default: ${DEFAULT-VALUE}).")
    List<String> freeFlash;

    @Option(
            names = "--exit-after",
            paramLabel = "DURATION",
            description = "Stop everything after this long (scripts); default: serve until Ctrl-C.")
    Duration exitAfter;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description = "Keep the broker's data here (default: a temporary directory).")
    Path dataDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long t0 = System.nanoTime();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> stopReason = new AtomicReference<>("interrupted (Ctrl-C)");
        CountDownLatch stopped = new CountDownLatch(1);
        out.println("ssdpulse demo: starting the embedded Kafka broker (KRaft) and schema registry...");
        out.flush();
        BrokerSettings broker = BrokerSettings.defaults().withHeapMb(512);
        if (dataDir != null) {
            broker = broker.withDataDir(dataDir.toAbsolutePath());
        }
        Path stateDir = Files.createTempDirectory("ssdpulse-demo-state-");
        boolean interrupted = false;
        // Ctrl-C: stop the showcase, then close everything; the hook waits until the stack is down (ctrlC is
        // closed last).
        try (ShutdownCancellation ctrlC = ShutdownCancellation.install(
                        () -> {
                            stop.set(true);
                            stopped.countDown();
                        },
                        Duration.ofSeconds(60));
                LocalStack stack = LocalStack.start(broker, 0)) {
            stack.createTopics(
                    Topics.all().stream().map(t -> t.toNewTopic((short) 1)).toList());
            AnalyticsConfig config = AnalyticsConfig.defaults(
                            stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                    .withApplicationId("ssdpulse-demo");
            try (AnalyticsApp app = new AnalyticsApp(config)) {
                app.start();
                app.awaitRunning(Duration.ofMinutes(2));
                try (HttpApiServer http = HttpApiServer.start(app, HttpApiConfig.localhost(freePortFrom(port)))) {
                    out.printf(
                            "%n  dashboard : %s%n  API       : %sapi/runs%n  metrics   : %smetrics%n"
                                    + "  Kafka     : %s   schema registry: %s%n  ready in %.1f s%n%n",
                            http.url(),
                            http.url(),
                            http.url(),
                            stack.bootstrapServers(),
                            stack.schemaRegistryUrl(),
                            (System.nanoTime() - t0) / 1e9);
                    out.flush();
                    if (exitAfter != null) {
                        Thread timer = new Thread(
                                () -> {
                                    try {
                                        if (!stopped.await(exitAfter.toMillis(), TimeUnit.MILLISECONDS)) {
                                            stopReason.set("stopped by --exit-after " + exitAfter.toSeconds() + "s");
                                            stop.set(true);
                                            stopped.countDown();
                                        }
                                    } catch (InterruptedException e) {
                                        Thread.currentThread().interrupt();
                                    }
                                },
                                "ssdpulse-demo-exit-after");
                        timer.setDaemon(true);
                        timer.start();
                    }
                    List<String> runIds = showcase(stack, stop, stopReason, out);
                    printComparison(app, runIds, out);
                    if (!stop.get()) {
                        out.printf("Showcase done; the dashboard keeps serving at %s. Ctrl-C to stop.%n", http.url());
                        out.flush();
                    }
                    try {
                        stopped.await();
                    } catch (InterruptedException e) {
                        // the caller's way to stop an embedded demo (tests, tools running the CLI in-process):
                        // a stop like Ctrl-C, the interrupt kept for after the clean close
                        interrupted = true;
                    }
                }
            }
        } finally {
            deleteRecursively(stateDir);
        }
        String retries = HandledKafkaRetries.summaryLine();
        if (retries != null) {
            out.println(retries);
        }
        out.println("ssdpulse demo stopped.");
        out.flush();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private List<String> showcase(
            LocalStack stack, AtomicBoolean stop, AtomicReference<String> stopReason, PrintWriter out) {
        KafkaOptions kafka = new KafkaOptions().with(stack.bootstrapServers(), stack.schemaRegistryUrl());
        SsdConfig drive = new SsdPresets().builtIn("sata-mlc-120gb-2012");
        WorkloadPresets presets = new WorkloadPresets();
        List<String> runIds = new ArrayList<>();
        int n = 0;
        for (String variant : freeFlash) {
            if (stop.get()) {
                break;
            }
            boolean erased = variant.trim().equals("secure-erased");
            WorkloadSpec workload = erased
                    ? presets.load("seed000-exp1-secure-erased")
                    : presets.load(WORKLOAD, Map.of("freeFlashGB", variant.trim()));
            workload =
                    WorkloadOverrides.none().withDurationNs(duration.toNanos()).apply(workload, "demo --duration");
            String runId = String.format("demo-%d-%s", ++n, erased ? "secure-erased" : "free-" + variant.trim() + "GB");
            SimulatedDrive simulated = new SimulatedDrive(drive, workload.seed());
            out.printf(
                    "run %s: seed 000 exp. 1, %s, 4 KiB random writes QD1 on 24 GB for %s simulated at %.0fx%n",
                    runId, erased ? "secure-erased drive" : variant.trim() + " GB of free flash", duration, speed);
            out.flush();
            StringWriter quiet = new StringWriter();
            try (StreamedRunOutput output = new StreamedRunOutput(
                    kafka.clientProperties(),
                    SimulatedRunDriver.runStarted(runId, drive, simulated, workload, 1_000_000_000L),
                    SimulatedRunDriver.maxWorkers(workload),
                    OverflowPolicy.BLOCK,
                    512,
                    new PrintWriter(quiet))) {
                new SimulatedRunDriver(
                                simulated,
                                workload,
                                ReplayTraces.NONE,
                                1_000_000_000L,
                                speed,
                                null,
                                stop::get,
                                stopReason::get)
                        .run(output);
            }
            out.print("  " + quiet);
            out.flush();
            runIds.add(runId);
        }
        return runIds;
    }

    private static void printComparison(AnalyticsApp app, List<String> runIds, PrintWriter out)
            throws InterruptedException {
        if (runIds.isEmpty()) {
            return;
        }
        Map<String, RunSummary> summaries = new HashMap<>();
        for (String runId : runIds) {
            Optional<RunSummary> summary = Optional.empty();
            for (int i = 0; i < 40 && summary.isEmpty(); i++) {
                try {
                    summary = app.views().summary(runId);
                } catch (RuntimeException rebalancing) {
                    summary = Optional.empty();
                }
                if (summary.isEmpty()) {
                    Thread.sleep(250);
                }
            }
            summary.ifPresent(s -> summaries.put(runId, s));
        }
        out.println();
        out.print(DemoComparison.format(runIds, summaries));
        out.println();
        out.flush();
    }

    private static int freePortFrom(int preferred) {
        if (preferred == 0) {
            return 0;
        }
        for (int p = preferred; p < preferred + 20 && p <= 65535; p++) {
            if (LoopbackPorts.isFree(p)) {
                return p;
            }
        }
        return 0;
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
