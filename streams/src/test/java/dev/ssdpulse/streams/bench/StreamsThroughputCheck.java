package dev.ssdpulse.streams.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.platform.LocalStack;
import dev.ssdpulse.platform.TopicCreation;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.awaitility.Awaitility;

/**
 * End-to-end throughput (not a test): the embedded broker and registry, AnalyticsApp (exactly_once_v2 unless
 * told otherwise) and a producer in this JVM at the same time. Publishes {@code ios} I/Os of {@code runs} runs
 * (interleaved, ~100 k IOPS of run time each, 4 KiB, 70 % reads) in batches of {@code batch}, and times from
 * the first send to the last run's RunSummary in the summary store.
 *
 * Further arguments: {@code warmup=N} first streams N I/Os of other runs through the whole pipeline and measures
 * only afterwards (JIT compilation in the app and the broker JVMs costs tens of CPU seconds at first); any other
 * KEY=VALUE is a Kafka Streams property (extraProperties). Besides wall time it reports CPU time per I/O by
 * thread group and in the broker's JVM: steadier than wall time on a shared machine.
 *
 * <pre>
 * ./mvnw -q -o -pl streams -am test-compile
 * java -Xmx1g -Dorg.apache.avro.SERIALIZABLE_PACKAGES=dev.ssdpulse.schemas.avro \
 *     -cp "$(cat streams/target/cp.txt):streams/target/classes:streams/target/test-classes" \
 *     dev.ssdpulse.streams.bench.StreamsThroughputCheck \
 *     IOS BATCH RUNS THREADS [at_least_once] [warmup=N] [KEY=VALUE...]
 * </pre>
 */
public final class StreamsThroughputCheck {
    public static void main(String[] args) throws Exception {
        long ios = Long.parseLong(args[0]);
        int batch = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        AnalyticsConfig.Guarantee guarantee = AnalyticsConfig.Guarantee.EXACTLY_ONCE_V2;
        Map<String, String> extra = new HashMap<>();
        long warmupIos = 0;
        for (int i = 4; i < args.length; i++) {
            if (args[i].startsWith("warmup=")) {
                warmupIos = Long.parseLong(args[i].substring("warmup=".length()));
            } else if (args[i].contains("=")) {
                extra.put(args[i].substring(0, args[i].indexOf('=')), args[i].substring(args[i].indexOf('=') + 1));
            } else {
                guarantee = AnalyticsConfig.Guarantee.parse(args[i]);
            }
        }
        Path stateDir = Files.createTempDirectory("ssdpulse-bench-");
        try (LocalStack stack = LocalStack.start()) {
            AnalyticsConfig config = AnalyticsConfig.defaults(
                            stack.bootstrapServers(), stack.schemaRegistryUrl(), stateDir)
                    .withApplicationId("bench-" + System.nanoTime())
                    .withThreads(threads)
                    .withGuarantee(guarantee)
                    .withExtraProperties(extra);
            TopicCreation.createCatalogueIfMissing(config.bootstrapServers(), (short) 1);
            Map<String, Object> props = new HashMap<>();
            props.put("bootstrap.servers", stack.bootstrapServers());
            props.put("compression.type", "lz4");
            props.put("linger.ms", 10);
            props.put("batch.size", 512 * 1024);
            props.put("buffer.memory", 64L * 1024 * 1024);
            props.put("max.request.size", 4 * 1024 * 1024);
            props.put("acks", "all");
            try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl());
                    AnalyticsApp app = new AnalyticsApp(config);
                    KafkaProducer<String, IoStreamRecord> producer = new KafkaProducer<>(
                            props, new StringSerializer(), new SpecificAvroSerializer<>(registry, props, false))) {
                app.start();
                app.awaitRunning(Duration.ofSeconds(60));
                if (warmupIos > 0) {
                    // JIT compilation of the app, the producer and the broker costs tens of CPU seconds at first
                    // (C2 alone ~20 s measured); a 5,000-s run pays it once, so measure after it
                    long warm = publishAndAwait(app, producer, warmupIos, batch, runs);
                    System.out.printf(Locale.ROOT, "warm-up: %d I/Os processed%n", warm);
                }
                CpuSnapshot cpu0 = CpuSnapshot.take(stack);
                long t0 = System.nanoTime();
                long perRun = ios / runs;
                long processed = publishAndAwait(app, producer, ios, batch, runs);
                long tDone = System.nanoTime();
                CpuSnapshot cpu1 = CpuSnapshot.take(stack);
                Runtime rt = Runtime.getRuntime();
                System.out.printf(
                        Locale.ROOT,
                        "ios=%d batch=%d runs=%d threads=%d guarantee=%s warmup=%d: "
                                + "end-to-end %.2f s = %.3f M I/O events/s; summaries count %d I/Os; "
                                + "heap used %d MiB%n",
                        perRun * runs,
                        batch,
                        runs,
                        threads,
                        guarantee.streamsValue(),
                        warmupIos,
                        (tDone - t0) / 1e9,
                        perRun * runs / ((tDone - t0) / 1e9) / 1e6,
                        processed,
                        (rt.totalMemory() - rt.freeMemory()) >> 20);
                cpu1.minus(cpu0).print(perRun * runs);
            }
        }
    }

    /** Publishes IOS I/Os of RUNS interleaved runs and waits until every run's summary is in the store. */
    private static long publishAndAwait(
            AnalyticsApp app, KafkaProducer<String, IoStreamRecord> producer, long ios, int batch, int runs)
            throws InterruptedException {
        String[] runIds = new String[runs];
        IoBatchBuilder[] builders = new IoBatchBuilder[runs];
        long[] timeNs = new long[runs];
        for (int r = 0; r < runs; r++) {
            runIds[r] = "bench-run-" + r + "-" + System.nanoTime();
            builders[r] = new IoBatchBuilder(runIds[r], 0, batch);
            producer.send(new ProducerRecord<>(
                    Topics.IO.name(),
                    runIds[r],
                    new IoStreamRecord(new PhaseChanged(runIds[r], 0, "test", PhaseKind.TEST, 0L))));
        }
        SplittableRandom random = new SplittableRandom(1);
        long perRun = ios / runs;
        for (long i = 0; i < perRun; i++) {
            for (int r = 0; r < runs; r++) {
                timeNs[r] += 10_000;
                long latency = 20_000 + random.nextInt(200_000);
                IoBatch full = builders[r].add(
                        0,
                        (byte) (random.nextInt(10) < 7 ? 0 : 1),
                        4096L * i,
                        4096,
                        timeNs[r] - latency,
                        latency,
                        32,
                        0);
                if (full != null) {
                    producer.send(new ProducerRecord<>(Topics.IO.name(), runIds[r], new IoStreamRecord(full)));
                }
            }
        }
        for (int r = 0; r < runs; r++) {
            IoBatch rest = builders[r].flush();
            if (rest != null) {
                producer.send(new ProducerRecord<>(Topics.IO.name(), runIds[r], new IoStreamRecord(rest)));
            }
            producer.send(new ProducerRecord<>(
                    Topics.IO.name(),
                    runIds[r],
                    new IoStreamRecord(RunFinished.newBuilder()
                            .setRunId(runIds[r])
                            .setStatus(RunStatus.COMPLETED)
                            .setTimeNs(timeNs[r])
                            .setWallClockEpochMs(Instant.ofEpochMilli(System.currentTimeMillis()))
                            .setIoCount(perRun)
                            .setIoCountPerWorker(List.of(perRun))
                            .setBatchCountPerWorker(List.of(builders[r].nextBatchSequence()))
                            .setBytesRead(0L)
                            .setBytesWritten(0L)
                            .build())));
        }
        producer.flush();
        long processed = 0;
        for (String runId : runIds) {
            RunSummary s = await(app, runId);
            processed += s.getIoCount();
        }
        return processed;
    }

    /**
     * CPU time (user + system) consumed, by where it ran: the stream threads, the benchmark's producer (main
     * thread + producer I/O thread), the rest of this JVM (GC, JIT, registry, Streams' own producer/consumer I/O
     * threads), and the broker's JVM. CPU per I/O is far steadier than wall time on a shared machine, and its
     * inverse over two cores is the throughput ceiling if nothing ever waited.
     */
    private record CpuSnapshot(
            long processNs, long streamThreadsNs, long producerNs, long brokerNs, Map<String, Long> byThread) {
        static CpuSnapshot take(LocalStack stack) {
            var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            var threads = ManagementFactory.getThreadMXBean();
            long stream = 0;
            long producer = 0;
            Map<String, Long> byThread = new HashMap<>();
            for (ThreadInfo info : threads.dumpAllThreads(false, false)) {
                long ns = Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
                String name = info.getThreadName();
                byThread.merge(
                        name.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "ID").replaceAll("\\d+", "N"), ns, Long::sum);
                if (name.contains("-StreamThread-")) {
                    stream += ns;
                } else if (name.equals("main") || name.equals("kafka-producer-network-thread | producer-1")) {
                    producer += ns;
                }
            }
            long broker = stack.broker()
                    .processHandle()
                    .flatMap(h -> h.info().totalCpuDuration())
                    .map(Duration::toNanos)
                    .orElse(0L);
            return new CpuSnapshot(os.getProcessCpuTime(), stream, producer, broker, byThread);
        }

        CpuSnapshot minus(CpuSnapshot before) {
            Map<String, Long> delta = new HashMap<>(byThread);
            before.byThread.forEach((name, ns) -> delta.merge(name, -ns, Long::sum));
            return new CpuSnapshot(
                    processNs - before.processNs,
                    streamThreadsNs - before.streamThreadsNs,
                    producerNs - before.producerNs,
                    brokerNs - before.brokerNs,
                    delta);
        }

        void print(long ios) {
            double total = (processNs + brokerNs) / (double) ios;
            System.out.printf(
                    Locale.ROOT,
                    "CPU per I/O: stream threads %.0f ns, producer %.0f ns, rest of the app JVM "
                            + "%.0f ns, broker %.0f ns; total %.0f ns = ceiling %.2f M I/O/s on 2 cores%n",
                    streamThreadsNs / (double) ios,
                    producerNs / (double) ios,
                    (processNs - streamThreadsNs - producerNs) / (double) ios,
                    brokerNs / (double) ios,
                    total,
                    2e9 / total / 1e6);
            long javaThreads =
                    byThread.values().stream().mapToLong(Long::longValue).sum();
            byThread.entrySet().stream()
                    .filter(e -> e.getValue() > processNs / 50)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .forEach(e -> System.out.printf(
                            Locale.ROOT, "    %6.0f ns/IO  %s%n", e.getValue() / (double) ios, e.getKey()));
            System.out.printf(
                    Locale.ROOT,
                    "    %6.0f ns/IO  (JVM threads not listed: GC, JIT compilers, VM)%n",
                    (processNs - javaThreads) / (double) ios);
        }
    }

    /** The run's summary as soon as the views have it (polled every 20 ms: the figure is the time to it). */
    private static RunSummary await(AnalyticsApp app, String runId) {
        // restoring or rebalancing: the store is not queryable yet, try again
        return Awaitility.await("the summary of " + runId)
                .forever()
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20))
                .ignoreException(InvalidStateStoreException.class)
                .until(() -> app.views().summary(runId), Optional::isPresent)
                .get();
    }
}
