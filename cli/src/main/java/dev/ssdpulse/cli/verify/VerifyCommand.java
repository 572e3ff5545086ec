package dev.ssdpulse.cli.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.cli.run.VerificationText;
import dev.ssdpulse.producer.device.ReadBack;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoEngineChoice;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.integrity.Verification;
import dev.ssdpulse.producer.integrity.VerificationAvro;
import dev.ssdpulse.producer.integrity.VerificationReport;
import dev.ssdpulse.producer.integrity.WrongTargetException;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.smart.PowerLossCounts;
import dev.ssdpulse.producer.smart.SmartPoller;
import dev.ssdpulse.producer.smart.SmartReading;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadJson;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.report.AvroJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse verify --run ID --target PATH}: after a power cut, every 4 KiB unit a stamped run wrote is read
 * back (with the asynchronous engine, the target opened read-only) and checked against the run's log in Kafka, which
 * lived on another machine; the result goes to its own topic and is printed. The checks before any read: the run
 * exists, was stamped, ran on a device, is not still running (unless --force), and the target is at least as large
 * as the run's span.
 */
@Command(
        name = "verify",
        description = "After a power cut: check every unit a stamped run wrote on the target against the run's log"
                + " (intact, lost, torn, reverted, unlogged; lost writes per durability model).")
public final class VerifyCommand implements Callable<Integer> {
    /** Read size and depth of the read-back: sequential 1 MiB reads, 16 in flight, as one would ask fio for. */
    static final String DEFAULT_READ_SIZE = "1MiB";

    @Spec
    CommandSpec spec;

    @Option(names = "--run", required = true, paramLabel = "ID", description = "The run whose writes to check.")
    String runId;

    @Option(
            names = "--target",
            required = true,
            paramLabel = "PATH",
            description = "The file or block device the run wrote (after the power cycle). Opened read-only.")
    Path target;

    @Option(
            names = "--format",
            defaultValue = "text",
            paramLabel = "text|json",
            description = "Output: text (default) or json (the record published to the topic).")
    String format;

    @Option(
            names = "--force",
            description = "Verify a run that is still running (what its log holds so far), or a target that holds none"
                    + " of the run's stamps (reported as everything lost).")
    boolean force;

    @Option(
            names = "--engine",
            defaultValue = "auto",
            paramLabel = IoEngineChoice.NAMES,
            description = "Engine of the read-back: auto (libaio, else io_uring, else psync), as for `device`.")
    String engineName;

    @Option(
            names = "--queue-depth",
            defaultValue = "16",
            paramLabel = "N",
            description = "Reads in flight (default: ${DEFAULT-VALUE}).")
    int queueDepth;

    @Option(
            names = "--read-size",
            defaultValue = DEFAULT_READ_SIZE,
            paramLabel = "SIZE",
            description = "Largest read, a multiple of 4 KiB (default: ${DEFAULT-VALUE}).")
    String readSize;

    @Option(
            names = "--stale-after",
            defaultValue = "60s",
            paramLabel = "DURATION",
            description = "A run without RunFinished whose last heartbeat is older than this has stopped (its host"
                    + " lost power); a younger one is still running (default: ${DEFAULT-VALUE}, the analytics' heartbeat"
                    + " timeout).")
    Duration staleAfter;

    @Option(
            names = "--io-timeout",
            defaultValue = "60s",
            paramLabel = "DURATION",
            description = "Fail when reads see no completion for this long (default: ${DEFAULT-VALUE}).")
    Duration ioTimeout;

    @Option(
            names = "--timeout",
            defaultValue = "10m",
            paramLabel = "DURATION",
            description = "Give up reading Kafka after this long without progress.")
    Duration timeout;

    @Option(names = "--quiet", description = "No progress lines.")
    boolean quiet;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        RunIds.validate(runId);
        if (!format.equals("text") && !format.equals("json")) {
            throw new UserInputException("--format must be text or json, got '" + format + "'");
        }
        if (queueDepth < 1 || queueDepth > 4096) {
            throw new UserInputException("--queue-depth must be 1..4096, got " + queueDepth);
        }
        long readBytes = Units.parseBytes(readSize);
        if (readBytes < UnitStamp.UNIT_BYTES || readBytes % UnitStamp.UNIT_BYTES != 0 || readBytes > (64 << 20)) {
            throw new UserInputException("--read-size must be a multiple of 4 KiB up to 64 MiB, got " + readSize);
        }
        if (!Files.exists(target)) {
            throw new UserInputException("--target " + target + " does not exist");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, Object> props = kafka.clientProperties();
        try (HttpSchemaRegistryClient registry = kafka.registryClient()) {
            RunStarted started = runStarted(props, registry);
            long spanEnd = spanEnd(started);
            long targetSize = sizeOf(target);
            if (targetSize < spanEnd) {
                throw new UserInputException("--target " + target + " is " + Units.describeBytes(targetSize)
                        + ", smaller than run " + runId + "'s span, which reaches byte " + spanEnd + " ("
                        + Units.describeBytes(spanEnd) + "): it is not the device the run wrote");
            }
            KafkaRunLog log = new KafkaRunLog(props, registry, runId, timeout, ios -> {
                if (!quiet) {
                    err.printf("  reading the log: %,d I/Os%n", ios);
                    err.flush();
                }
            });
            Verification.LogSummary summary = Verification.summarize(log);
            if (log.events() == 0) {
                throw new UserInputException("run " + runId + " has no events in " + Topics.IO.name()
                        + ": nothing was written (or the topic's retention removed them)");
            }
            RunStatus status = log.finished() == null ? null : log.finished().getStatus();
            checkNotRunning(log, err);
            if (!summary.hasStampedWrites()) {
                throw new UserInputException("run " + runId + "'s log holds no stamped write although its workload"
                        + " asked for them: nothing on the target can be matched with it");
            }
            if (targetSize < summary.writtenEndBytes()) {
                throw new UserInputException("--target " + target + " is " + Units.describeBytes(targetSize)
                        + ", smaller than what run " + runId + " wrote (up to byte " + summary.writtenEndBytes() + ")");
            }
            if (log.missingBatches() > 0) {
                err.printf(
                        "note: %,d I/O batches of the run are missing from the log (published with --overflow drop?):"
                                + " their writes cannot be checked%n",
                        log.missingBatches());
            }
            IoEngineChoice choice;
            try {
                choice = IoEngineChoice.choose(engineName, queueDepth);
            } catch (IllegalArgumentException e) {
                throw new UserInputException(e.getMessage(), e);
            }
            VerificationReport report;
            ReadBack back;
            String engineUsed;
            try (IoEngine engine = choice.engine()) {
                // never for writing: verification reads only
                engine.open(target, targetSize, true, false);
                engineUsed = engine.name();
                if (!quiet) {
                    err.printf(
                            "reading back run %s's units from %s (%s, engine %s, %s reads, %d in flight)%n",
                            runId,
                            target,
                            Units.describeBytes(targetSize),
                            engineUsed,
                            Units.describeBytes(readBytes),
                            engine.asynchronous() ? queueDepth : 1);
                    err.flush();
                }
                back = new ReadBack(engine, (int) readBytes, queueDepth, ioTimeout.toNanos());
                Verification.Listener listener = new Verification.Listener() {
                    long lastNs = System.nanoTime();

                    @Override
                    public void unitsRead(long done, long total) {
                        long now = System.nanoTime();
                        if (!quiet && now - lastNs >= 1_000_000_000L) {
                            lastNs = now;
                            err.printf(
                                    Locale.ROOT,
                                    "  read back %,d of %,d units (%.0f %%), %.1f MB/s%n",
                                    done,
                                    total,
                                    100.0 * done / Math.max(1, total),
                                    back.bytesRead() * 1e3 / Math.max(1, back.readNanos() + (now - lastNs)));
                            err.flush();
                        }
                    }
                };
                try {
                    report = Verification.verify(
                            new Verification.Options(UnitStamp.runHash(runId), force, listener), summary, log, back);
                } catch (WrongTargetException e) {
                    throw new UserInputException("--target " + target + ": " + e.getMessage(), e);
                }
            }
            Counters counters = counters(props, registry, engineUsed);
            WriteVerification record = VerificationAvro.of(
                    report,
                    new VerificationAvro.Context(
                            runId,
                            Instant.now(),
                            target.toString(),
                            targetSize,
                            HostDescriptions.toolVersion(),
                            status,
                            force,
                            log.missingBatches(),
                            counters.before() == null ? null : counters.before().unsafeShutdowns(),
                            counters.after() == null ? null : counters.after().unsafeShutdowns(),
                            counters.before() == null ? null : counters.before().plpStartCount(),
                            counters.after() == null ? null : counters.after().plpStartCount(),
                            counters.note(),
                            back.bytesRead(),
                            back.readNanos()));
            publish(props, registry, record);
            if (format.equals("json")) {
                out.println(new ObjectMapper()
                        .enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(AvroJson.record(record)));
            } else {
                VerificationText.print(record, out);
                out.println("recorded in " + Topics.WRITE_VERIFICATION.name());
            }
            out.flush();
            return 0;
        }
    }

    private RunStarted runStarted(Map<String, Object> props, HttpSchemaRegistryClient registry) {
        List<RunStarted> found = RunRecords.read(props, registry, Topics.RUNS, runId, timeout);
        if (found.isEmpty()) {
            throw new UserInputException("no run '" + runId + "' in " + Topics.RUNS.name());
        }
        RunStarted started = found.get(found.size() - 1);
        if (started.getProducerKind() != ProducerKind.DEVICE) {
            throw new UserInputException("run " + runId + " is a " + started.getProducerKind() + " run: only a run"
                    + " on a device (ssdpulse device) wrote units a target can be checked for");
        }
        boolean stamped;
        try {
            stamped = WorkloadJson.fromCanonicalJson(started.getWorkload().getSpecJson())
                    .verify();
        } catch (RuntimeException e) {
            throw new UserInputException(
                    "run " + runId + "'s workload cannot be read (" + e.getMessage() + "): is it a run of another"
                            + " ssdpulse version?",
                    e);
        }
        if (!stamped) {
            throw new UserInputException("run " + runId + " was written without stamps: its workload has no verify:"
                    + " true and it was not run with --verify-writes, so nothing on the target can be matched with"
                    + " its log");
        }
        return started;
    }

    /** The end of the run's span: the furthest byte any phase with I/O could write. */
    static long spanEnd(RunStarted started) {
        long end = 0;
        for (PhaseSpec p : started.getWorkload().getPhases()) {
            if (!p.getAccessSpecs().isEmpty()) {
                end = Math.max(end, p.getSpanOffsetBytes() + p.getSpanSizeBytes());
            }
        }
        return end;
    }

    private void checkNotRunning(KafkaRunLog log, PrintWriter err) {
        if (log.finished() != null) {
            return;
        }
        Instant heartbeat = log.lastHeartbeat();
        Duration silent = heartbeat == null ? null : Duration.between(heartbeat, Instant.now());
        if (silent != null && silent.compareTo(staleAfter) < 0) {
            if (!force) {
                throw new UserInputException("run " + runId + " is still RUNNING: it has no RunFinished and its"
                        + " producer sent a heartbeat " + silent.toSeconds() + " s ago (less than --stale-after "
                        + staleAfter.toSeconds() + " s); wait for it to end or stop, or --force to verify what its log"
                        + " holds so far");
            }
            err.println("note: run " + runId + " is still running (--force): verifying what its log holds so far");
        } else if (!quiet) {
            err.println("note: run " + runId + " has no RunFinished: its producer stopped"
                    + (silent == null ? "" : " " + silent.toSeconds() + " s ago") + " (the host lost power, or was"
                    + " killed); the log covers what reached Kafka before");
        }
    }

    /** The target's size: a file's length, a block device's capacity. */
    static long sizeOf(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return Files.size(path);
        }
        try (FileChannel c = FileChannel.open(path, StandardOpenOption.READ)) {
            return c.size();
        }
    }

    private record Counters(PowerLossCounts before, PowerLossCounts after, String note) {}

    /** The drive's power-loss counters: in the run's first SMART sample, and now. */
    private Counters counters(Map<String, Object> props, HttpSchemaRegistryClient registry, String engineUsed) {
        PowerLossCounts before = null;
        String note = null;
        SmartSample[] first = {null};
        try {
            RunRecords.forEach(props, registry, Topics.SMART, runId, timeout, s -> {
                first[0] = s;
                return false;
            });
        } catch (RuntimeException e) {
            note = "the run's SMART samples cannot be read: " + e.getMessage();
        }
        if (first[0] != null) {
            before = PowerLossCounts.of(first[0].getRawAttributes());
        } else if (note == null) {
            note = "the run has no SMART sample (no smartctl or nvme-cli on its host, or not a drive)";
        }
        PowerLossCounts after = null;
        Path device = deviceOf(engineUsed);
        if (device == null) {
            note = join(note, "no block device under " + target + " to ask for SMART data");
        } else {
            SmartPoller poller = new SmartPoller(device, Duration.ofSeconds(10), () -> 0L, r -> {});
            if (!poller.hasTool()) {
                note = join(note, poller.availability().reason());
            } else {
                SmartReading reading = poller.pollOnce().orElse(null);
                if (reading == null) {
                    note = join(note, "SMART of " + device + " now: " + poller.lastError());
                } else {
                    after = PowerLossCounts.of(reading.rawAttributes());
                }
            }
        }
        if ((before != null && before.plpStartCount() == null) || (after != null && after.plpStartCount() == null)) {
            note = join(note, "no OCP SMART extended log (PLP start count) among the attributes");
        }
        return new Counters(before, after, note);
    }

    private Path deviceOf(String engineUsed) {
        if (!Files.isRegularFile(target)) {
            return target;
        }
        String disk = new HostFactsCollector().collect(target, true, engineUsed).blockDevice();
        return disk == null ? null : Path.of("/dev", disk);
    }

    private static String join(String a, String b) {
        return a == null ? b : a + "; " + b;
    }

    private void publish(Map<String, Object> props, HttpSchemaRegistryClient registry, WriteVerification record) {
        TopicSetup.ensure(props, List.of(Topics.WRITE_VERIFICATION));
        try (Producer<String, SpecificRecord> producer = RunProducers.create(props, registry)) {
            producer.send(new ProducerRecord<>(Topics.WRITE_VERIFICATION.name(), runId, record))
                    .get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing the verification", e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "could not publish the verification to " + Topics.WRITE_VERIFICATION.name() + ": " + e, e);
        }
    }
}
