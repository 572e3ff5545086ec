package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One producer process of the cluster load (run as a child JVM): streams several simulated runs at once, each
 * exactly as {@code ssdpulse simulate [--realtime --speed X]} streams one (the same {@link SimulatedRunDriver} and
 * {@link StreamedRunOutput}, so one Kafka producer per run, acks=all, idempotent), and writes, when all are done,
 * a result file that {@link ClusterLoad} reads:
 * <pre>
 * run RUNID IO_COMPLETED IO_PUBLISHED FIRST_IO_WALL_MS EXIT_CODE START_WALL_MS
 * window RUNID WINDOW_INDEX LAST_IO_WALL_MS     (one line per window that has I/Os)
 * </pre>
 * Usage: {@code LoadProducerMain BOOTSTRAP REGISTRY_URL RESULT_FILE SPEED RUN...} with RUN as {@link LoadRun#arg()};
 * SPEED 0 = as fast as possible.
 */
public final class LoadProducerMain {
    static final long WINDOW_NS = 1_000_000_000L; // the analytics' default --window
    private static final long SMART_INTERVAL_NS = 1_000_000_000L;

    private LoadProducerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            throw new IllegalArgumentException("usage: LoadProducerMain BOOTSTRAP REGISTRY_URL RESULT_FILE SPEED "
                    + "RUNID:SEED:RATE_IOPS:DURATION_S..., got " + Arrays.toString(args));
        }
        KafkaOptions kafka = new KafkaOptions().with(args[0], args[1]);
        Path resultFile = Path.of(args[2]);
        double speed = Double.parseDouble(args[3]);
        List<LoadRun> runs = new ArrayList<>();
        for (int i = 4; i < args.length; i++) {
            runs.add(LoadRun.parse(args[i]));
        }
        ExecutorService pool = Executors.newFixedThreadPool(runs.size());
        try {
            List<Future<String>> results = new ArrayList<>();
            for (LoadRun run : runs) {
                results.add(pool.submit(() -> stream(kafka, run, speed)));
            }
            StringBuilder out = new StringBuilder();
            for (Future<String> f : results) {
                out.append(f.get());
            }
            Files.writeString(resultFile, out.toString());
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("LoadProducerMain: %d runs streamed, results in %s%n", runs.size(), resultFile);
    }

    private static String stream(KafkaOptions kafka, LoadRun run, double speed) throws IOException {
        SsdConfig config = new SsdPresets().resolve(LoadRun.SSD);
        WorkloadSpec spec = run.spec();
        SimulatedDrive drive = new SimulatedDrive(config, spec.seed());
        RunStarted started = SimulatedRunDriver.runStarted(run.runId(), config, drive, spec, SMART_INTERVAL_NS);
        StringWriter printed = new StringWriter();
        int exit;
        WindowClock clock;
        PublishReport report;
        try (StreamedRunOutput output = new StreamedRunOutput(
                kafka.clientProperties(),
                started,
                SimulatedRunDriver.maxWorkers(spec),
                OverflowPolicy.BLOCK,
                512,
                new PrintWriter(printed, true))) {
            clock = new WindowClock(output, WINDOW_NS, System::currentTimeMillis);
            exit = new SimulatedRunDriver(drive, spec, SMART_INTERVAL_NS, speed, null, () -> false)
                    .run(clock, RunStartTime.of(started));
            report = output.publisher().report();
        }
        System.out.print(printed);
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                "run %s %d %d %d %d %d%n",
                run.runId(),
                clock.ioCount(),
                report.ioPublished(),
                clock.firstIoWallMs(),
                exit,
                RunStartTime.of(started).toEpochMilli()));
        long[] lastIoWallMs = clock.lastIoWallMs();
        for (int w = 0; w < lastIoWallMs.length; w++) {
            if (lastIoWallMs[w] > 0) {
                out.append(String.format("window %s %d %d%n", run.runId(), w, lastIoWallMs[w]));
            }
        }
        return out.toString();
    }
}
