package dev.ssdpulse.streams.http;

import static dev.ssdpulse.streams.http.TestRecords.S;

import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.Producer;

/**
 * Publishes a synthetic run through the real RunPublisher: a precondition phase (first third) then a test
 * phase, IOPS decaying towards a plateau (so a steady state can be found), 70 % reads, ~1-3 ms latencies with
 * rare 20-150 ms outliers, one SMART sample per run second with WA rising from 1 to ~3. A {@link Pacer} can
 * hold the run before each run second, so that a test sees it unfold live step by step.
 */
final class TestRunPublisher {
    private TestRunPublisher() {}

    /**
     * Asked before each run second is published. A live test holds the run here until it has seen what it checks
     * (e.g. permits of a semaphore it releases): paced by the test's own progress, not by wall time.
     */
    interface Pacer {
        Pacer NONE = runSecond -> {};

        void awaitRunSecond(int runSecond) throws InterruptedException;
    }

    /** @return the number of I/Os published */
    static long publish(TestStack stack, String runId, String name, int seconds, int baseIops, long seed)
            throws InterruptedException {
        return publish(stack, runId, name, seconds, baseIops, Pacer.NONE, seed, 0);
    }

    /**
     * @param tailNs when > 0, the run goes on that long into one more window (shorter than a window): one read
     *               completes in it and the run ends inside it, as a real run's last window does
     */
    static long publish(
            TestStack stack, String runId, String name, int seconds, int baseIops, Pacer pacer, long seed, long tailNs)
            throws InterruptedException {
        return publish(stack, runId, name, seconds, baseIops, pacer, seed, tailNs, true, Integer.MAX_VALUE);
    }

    /**
     * A drive that is not preconditioned (one test phase from the start, as fresh out of the box) and falls off a
     * write cliff at {@code cliffAtS}: its IOPS drop to a quarter, after a plateau a steady-state criterion meets.
     */
    static long publishCliff(
            TestStack stack, String runId, String name, int seconds, int baseIops, int cliffAtS, long seed)
            throws InterruptedException {
        return publish(stack, runId, name, seconds, baseIops, Pacer.NONE, seed, 0, false, cliffAtS);
    }

    private static long publish(
            TestStack stack,
            String runId,
            String name,
            int seconds,
            int baseIops,
            Pacer pacer,
            long seed,
            long tailNs,
            boolean precondition,
            int cliffAtS)
            throws InterruptedException {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", stack.bootstrapServers());
        RunStarted started =
                TestRecords.runStarted(runId, name, 480_103_981_056L, System.currentTimeMillis() * 1_000_000L);
        if (!precondition) { // the plan holds the test phase only
            started.getWorkload().setPhases(started.getWorkload().getPhases().subList(1, 2));
        }
        SplittableRandom random = new SplittableRandom(seed);
        long ios = 0;
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            Producer<String, SpecificRecord> producer = RunProducers.create(props, registry);
            RunPublisher publisher = new RunPublisher(
                    producer,
                    PublisherConfig.defaults(props, OverflowPolicy.BLOCK).withMaxBatchIos(128),
                    started,
                    1);
            int testStart = precondition ? seconds / 3 : 0;
            if (precondition) {
                publisher.phaseChanged(
                        new PhaseChanged(runId, 0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0L));
            }
            long hostBytes = 0;
            long nandBytes = 0;
            for (int t = 0; t < seconds; t++) {
                pacer.awaitRunSecond(t);
                if (t == testStart) {
                    publisher.phaseChanged(new PhaseChanged(runId, 1, "test", PhaseKind.TEST, t * S));
                }
                int n = (int) (baseIops
                        * (1 + 1.5 * Math.exp(-t / 4.0))
                        * (0.98 + 0.04 * random.nextDouble())
                        / (t >= cliffAtS ? 4 : 1));
                for (int i = 0; i < n; i++) {
                    long completionNs = t * S + (i + 1) * (S / (n + 1));
                    boolean read = random.nextInt(100) < 70;
                    long latencyNs = 800_000 + (long) (random.nextDouble() * random.nextDouble() * 2_500_000);
                    if (random.nextInt(2000) == 0) {
                        latencyNs = 20_000_000 + random.nextInt(130_000_000);
                    }
                    latencyNs = Math.min(latencyNs, completionNs);
                    publisher.onIoCompleted(
                            0,
                            t < testStart ? 0 : 1,
                            (byte) (read ? 0 : 1),
                            4096L * i,
                            4096,
                            completionNs - latencyNs,
                            latencyNs,
                            4,
                            0);
                    if (!read) {
                        hostBytes += 4096;
                    }
                    ios++;
                }
                nandBytes = (long) (hostBytes * (1 + 2 * (1 - Math.exp(-t / 6.0))));
                publisher.publishSmart(SmartSample.newBuilder()
                        .setRunId(runId)
                        .setTimeNs(t * S + S - 1)
                        .setSource(SmartSource.SIMULATOR)
                        .setHostBytesWritten(hostBytes)
                        .setNandBytesWritten(nandBytes)
                        .build());
            }
            if (tailNs > 0) {
                publisher.onIoCompleted(0, 1, (byte) 0, 0L, 4096, seconds * S + tailNs / 4, tailNs / 4, 4, 0);
                ios++;
            }
            PublishReport report = publisher.finish(RunStatus.COMPLETED, null, seconds * S + tailNs, 60_000);
            publisher.close();
            producer.close();
            if (report.ioPublished() != ios) {
                throw new IllegalStateException("published " + report.ioPublished() + " of " + ios + " I/Os");
            }
        }
        return ios;
    }
}
