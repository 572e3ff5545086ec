package dev.ssdpulse.cli.runs;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ssdpulse runs ...}: inspect stored runs. */
@Command(
        name = "runs",
        description = "Inspect, delete and keep stored runs.",
        subcommands = {RunsCommand.Verify.class, DeleteRun.class, Retention.class})
public final class RunsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * Checks a run's raw event stream independently of the analytics: per worker, batch sequences 0..n-1
     * without gap or repeat and I/O sequences contiguous; the I/O total equal to what RunFinished reports.
     */
    @Command(
            name = "verify",
            description = "Check a run's raw I/O events are complete: no gap, no duplicate, totals match RunFinished.")
    static final class Verify implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--run", required = true, paramLabel = "ID", description = "The run.")
        String runId;

        @Option(
                names = "--timeout",
                defaultValue = "10m",
                paramLabel = "DURATION",
                description = "Give up reading after this long.")
        Duration timeout;

        @Mixin
        KafkaOptions kafka;

        @Override
        public Integer call() {
            RunIds.validate(runId);
            PrintWriter out = spec.commandLine().getOut();
            Map<Integer, long[]> perWorker = new TreeMap<>(); // worker -> {next batch sequence, next I/O sequence}
            long ios = 0;
            long gaps = 0;
            long duplicates = 0;
            RunFinished finished = null;
            List<IoStreamRecord> events;
            try (var registry = kafka.registryClient()) {
                events = RunRecords.read(kafka.clientProperties(), registry, Topics.IO, runId, timeout);
            }
            if (events.isEmpty()) {
                throw new UserInputException("no events of run '" + runId + "' in " + Topics.IO.name());
            }
            for (IoStreamRecord record : events) {
                if (record.getEvent() instanceof IoBatch batch) {
                    long[] w = perWorker.computeIfAbsent(batch.getWorker(), k -> new long[2]);
                    if (batch.getBatchSequence() < w[0]) {
                        duplicates++;
                        continue;
                    }
                    if (batch.getBatchSequence() > w[0] || batch.getFirstIoSequence() != w[1]) {
                        gaps++;
                    }
                    w[0] = batch.getBatchSequence() + 1;
                    w[1] = batch.getFirstIoSequence() + batch.getIoCount();
                    ios += batch.getIoCount();
                } else if (record.getEvent() instanceof RunFinished f) {
                    finished = f;
                }
            }
            out.printf(
                    "run %s: %,d I/O events in %,d records from %d worker(s); %d gap(s), %d duplicate batch(es)%n",
                    runId, ios, events.size(), perWorker.size(), gaps, duplicates);
            if (finished == null) {
                out.println("no RunFinished yet: the run is still going, or its producer died");
                out.flush();
                return 1;
            }
            out.printf(
                    "RunFinished: %s, %,d I/Os completed, %,d not published%n",
                    finished.getStatus(), finished.getIoCount(), finished.getIoNotPublished());
            boolean complete =
                    gaps == 0 && duplicates == 0 && ios == finished.getIoCount() - finished.getIoNotPublished();
            out.println(
                    complete
                            ? "complete: every completed I/O is in the topic exactly once"
                            : "INCOMPLETE: the topic does not hold every completed I/O exactly once");
            out.flush();
            return complete ? 0 : 1;
        }
    }
}
