package dev.ssdpulse.producer.playback;

import dev.ssdpulse.producer.pacing.RunTimePacer;
import dev.ssdpulse.producer.pacing.WallClock;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.registry.SchemaRegistryClient;
import dev.ssdpulse.schemas.runs.RunStartTime;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Plays a stored run back as a new run: RunStarted under the new id with {@code originRunId} set to the stored
 * run, then the stored events (run id rewritten, wall-clock fields set to now) paced by their own event times
 * divided by the speed, so the analytics and the dashboard see it unfold as if live. Stopping early (Ctrl-C)
 * ends the new run with RunFinished(ABORTED) after what was sent. The stored run is only read.
 */
public final class RunPlayback {
    /** A stop request (Ctrl-C) is seen within this much wall time while waiting for the next record. */
    private static final long MAX_SLEEP_NS = 50_000_000L;

    /**
     * @param runId       the new run
     * @param originRunId the stored run played back
     * @param status      the played RunFinished's status, ABORTED when stopped early
     * @param ioCount     I/Os sent
     * @param runTimeNs   run time reached
     * @param wallNs      wall time from RunStarted to the last record sent
     */
    public record Report(
            String runId, String originRunId, RunStatus status, long ioCount, long runTimeNs, long wallNs) {}

    private final Map<String, Object> clientProperties;
    private final SchemaRegistryClient registry;
    private final Duration readTimeout;
    private final WallClock clock;

    public RunPlayback(Map<String, Object> clientProperties, SchemaRegistryClient registry, Duration readTimeout) {
        this(clientProperties, registry, readTimeout, WallClock.system());
    }

    /** @param clock paces the playback (a test's manual clock plays a run without waiting) */
    public RunPlayback(
            Map<String, Object> clientProperties,
            SchemaRegistryClient registry,
            Duration readTimeout,
            WallClock clock) {
        this.clientProperties = clientProperties;
        this.registry = registry;
        this.readTimeout = readTimeout;
        this.clock = clock;
    }

    /**
     * Reads the stored run (throws IllegalArgumentException when it is unknown) and plays it under newRunId. The
     * io records stream from the topic while they are played (a long run never sits in memory); SMART samples
     * are read first.
     */
    public Report play(
            String originRunId, String newRunId, double speed, BooleanSupplier stop, Consumer<String> progress)
            throws InterruptedException {
        List<RunStarted> started = RunRecords.read(clientProperties, registry, Topics.RUNS, originRunId, readTimeout);
        if (started.isEmpty()) {
            throw new IllegalArgumentException("no run '" + originRunId + "' in " + Topics.RUNS.name());
        }
        List<SmartSample> smart = RunRecords.read(clientProperties, registry, Topics.SMART, originRunId, readTimeout);
        PlaybackPlan.Merger plan = new PlaybackPlan.Merger(smart);
        RunStarted original = started.get(started.size() - 1);
        Map<String, String> labels = new TreeMap<>();
        original.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        labels.put("playbackOf", originRunId);
        labels.put("playbackSpeed", String.format(Locale.ROOT, "%sx", speed));

        Map<String, Object> props = new HashMap<>(clientProperties);
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "ssdpulse-playback");
        try (Producer<String, SpecificRecord> producer = RunProducers.create(props, registry)) {
            Sender sender = new Sender(producer, newRunId, speed, clock, stop, progress);
            boolean[] interrupted = {false};
            boolean completed =
                    RunRecords.forEach(clientProperties, registry, Topics.IO, originRunId, readTimeout, record -> {
                        if (!sender.started) {
                            // the copy starts with its first event, so an unknown or empty run sends nothing
                            producer.send(new ProducerRecord<>(
                                    Topics.RUNS.name(),
                                    newRunId,
                                    RunStartTime.stamp(
                                                    RunStarted.newBuilder(original),
                                                    Instant.ofEpochMilli(System.currentTimeMillis()))
                                            .setRunId(newRunId)
                                            .setOriginRunId(originRunId)
                                            // a played-back run is a run of its own, in no group
                                            .setGroup(null)
                                            .setMember(null)
                                            .setLabels(new HashMap<>(labels))
                                            .build()));
                            sender.start();
                        }
                        try {
                            return sender.sendAll(plan.next(record));
                        } catch (InterruptedException e) {
                            interrupted[0] = true;
                            return false;
                        }
                    });
            if (!sender.started) {
                throw new IllegalArgumentException("run '" + originRunId + "' has no events in " + Topics.IO.name());
            }
            if (completed && !interrupted[0]) {
                sender.sendAll(plan.rest());
            }
            if (sender.status == null) {
                // stopped early, or the stored run never finished: the played run ends here
                sender.status = RunStatus.ABORTED;
                producer.send(new ProducerRecord<>(
                        Topics.IO.name(),
                        newRunId,
                        new IoStreamRecord(sender.counts.finished(
                                newRunId,
                                sender.lastDueNs,
                                sender.stopped || interrupted[0]
                                        ? "playback stopped at run time " + sender.lastDueNs / 1_000_000_000L + " s"
                                        : "the stored run " + originRunId + " has no RunFinished"))));
            }
            producer.flush();
            if (interrupted[0]) {
                Thread.currentThread().interrupt();
            }
            return new Report(
                    newRunId,
                    originRunId,
                    sender.status,
                    sender.counts.ios,
                    sender.lastDueNs,
                    sender.started ? sender.pacer.elapsedWallNs() : 0);
        }
    }

    /** Paces and sends the plan's steps. */
    private static final class Sender {
        final Producer<String, SpecificRecord> producer;
        final String runId;
        final double speed;
        final WallClock clock;
        final BooleanSupplier stop;
        final Consumer<String> progress;
        final Counts counts = new Counts();
        boolean started;
        boolean stopped;
        RunTimePacer pacer;
        long lastProgressNs;
        long lastDueNs;
        RunStatus status;

        Sender(
                Producer<String, SpecificRecord> producer,
                String runId,
                double speed,
                WallClock clock,
                BooleanSupplier stop,
                Consumer<String> progress) {
            this.producer = producer;
            this.runId = runId;
            this.speed = speed;
            this.clock = clock;
            this.stop = stop;
            this.progress = progress;
        }

        void start() {
            started = true;
            pacer = new RunTimePacer(clock, speed, MAX_SLEEP_NS);
            lastProgressNs = 0;
        }

        /** @return false when stopped */
        boolean sendAll(List<PlaybackPlan.Step> steps) throws InterruptedException {
            for (PlaybackPlan.Step step : steps) {
                if (!pacer.awaitRunTime(step.dueNs(), stop)) {
                    stopped = true;
                    return false;
                }
                lastDueNs = step.dueNs();
                if (step.value() instanceof SmartSample s) {
                    producer.send(new ProducerRecord<>(
                            Topics.SMART.name(),
                            runId,
                            SmartSample.newBuilder(s).setRunId(runId).build()));
                } else {
                    IoStreamRecord rewritten = rewrite((IoStreamRecord) step.value(), runId, counts);
                    producer.send(new ProducerRecord<>(Topics.IO.name(), runId, rewritten));
                    if (rewritten.getEvent() instanceof RunFinished f) {
                        status = f.getStatus();
                    }
                }
                if (pacer.elapsedWallNs() - lastProgressNs > 2_000_000_000L) {
                    lastProgressNs = pacer.elapsedWallNs();
                    progress.accept(String.format(
                            Locale.ROOT,
                            "playback %s: run time %.0f s, %,d I/Os sent",
                            runId,
                            lastDueNs / 1e9,
                            counts.ios));
                }
            }
            return true;
        }
    }

    private static IoStreamRecord rewrite(IoStreamRecord record, String runId, Counts counts) {
        Object event = record.getEvent();
        long nowMs = System.currentTimeMillis();
        if (event instanceof IoBatch b) {
            counts.add(b);
            return new IoStreamRecord(IoBatch.newBuilder(b).setRunId(runId).build());
        }
        if (event instanceof PhaseChanged p) {
            return new IoStreamRecord(PhaseChanged.newBuilder(p).setRunId(runId).build());
        }
        if (event instanceof RunHeartbeat h) {
            return new IoStreamRecord(RunHeartbeat.newBuilder(h)
                    .setRunId(runId)
                    .setWallClockEpochMs(Instant.ofEpochMilli(nowMs))
                    .setMembership(null)
                    .build());
        }
        RunFinished f = (RunFinished) event;
        return new IoStreamRecord(RunFinished.newBuilder(f)
                .setRunId(runId)
                .setWallClockEpochMs(Instant.ofEpochMilli(nowMs))
                .build());
    }

    /** What was sent, for a RunFinished(ABORTED) that matches it. */
    private static final class Counts {
        final IoBatchReader reader = new IoBatchReader();
        final TreeMap<Integer, long[]> perWorker = new TreeMap<>(); // {ios, batches}
        long ios;
        long bytesRead;
        long bytesWritten;
        long bytesTrimmed;

        void add(IoBatch b) {
            long[] w = perWorker.computeIfAbsent(b.getWorker(), k -> new long[2]);
            w[0] += b.getIoCount();
            w[1]++;
            ios += b.getIoCount();
            reader.reset(b);
            while (reader.next()) {
                switch (reader.opOrdinal()) {
                    case 0 -> bytesRead += reader.sizeBytes();
                    case 1 -> bytesWritten += reader.sizeBytes();
                    case 2 -> bytesTrimmed += reader.sizeBytes();
                    default -> {}
                }
            }
        }

        RunFinished finished(String runId, long timeNs, String reason) {
            int workers = perWorker.isEmpty() ? 0 : perWorker.lastKey() + 1;
            List<Long> iosPerWorker = new ArrayList<>();
            List<Long> batchesPerWorker = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                long[] c = perWorker.getOrDefault(w, new long[2]);
                iosPerWorker.add(c[0]);
                batchesPerWorker.add(c[1]);
            }
            return RunFinished.newBuilder()
                    .setRunId(runId)
                    .setStatus(RunStatus.ABORTED)
                    .setReason(reason)
                    .setTimeNs(timeNs)
                    .setWallClockEpochMs(Instant.ofEpochMilli(System.currentTimeMillis()))
                    .setIoCount(ios)
                    .setIoCountPerWorker(iosPerWorker)
                    .setBatchCountPerWorker(batchesPerWorker)
                    .setBytesRead(bytesRead)
                    .setBytesWritten(bytesWritten)
                    .setBytesTrimmed(bytesTrimmed)
                    .setIoNotPublished(0)
                    .build();
        }
    }
}
