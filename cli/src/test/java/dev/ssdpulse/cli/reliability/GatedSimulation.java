package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated run streamed to Kafka exactly as {@code ssdpulse simulate} streams it (same driver, same
 * {@link StreamedRunOutput}), that stops at gates: the first I/O completing at or after a gate's simulated time
 * waits until the test opens that gate. The run's events do not depend on when gates open (the simulator's
 * clock is virtual), so a test can crash or restart things at a known point of the run, deterministically.
 */
final class GatedSimulation {
    private final String runId;
    private final Thread thread;
    private final long[] gateNs;
    private final CountDownLatch[] reached;
    private final CountDownLatch[] opened;
    private final AtomicInteger nextGate = new AtomicInteger();
    private final AtomicLong ioCount = new AtomicLong();
    private final StringWriter out = new StringWriter();
    private volatile StreamedRunOutput streamed;
    private volatile int exitCode = -1;
    private volatile Throwable failure;
    private final CountDownLatch finishing = new CountDownLatch(1);

    /**
     * @param workload  a workload preset with its variables
     * @param gatesS    simulated times (s of run time) of the gates, ascending
     */
    GatedSimulation(
            String bootstrapServers,
            String schemaRegistryUrl,
            String runId,
            String workload,
            Map<String, String> variables,
            double... gatesS) {
        this.runId = runId;
        this.gateNs = new long[gatesS.length];
        this.reached = new CountDownLatch[gatesS.length];
        this.opened = new CountDownLatch[gatesS.length];
        for (int i = 0; i < gatesS.length; i++) {
            gateNs[i] = (long) (gatesS[i] * 1e9);
            reached[i] = new CountDownLatch(1);
            opened[i] = new CountDownLatch(1);
        }
        SsdConfig config = new SsdPresets().resolve("tiny-test");
        WorkloadSpec spec = new WorkloadPresets().load(workload, variables);
        SimulatedDrive drive = new SimulatedDrive(config, spec.seed());
        long smartIntervalNs = 1_000_000_000L;
        RunStarted started = SimulatedRunDriver.runStarted(runId, config, drive, spec, smartIntervalNs);
        KafkaOptions kafka = new KafkaOptions().with(bootstrapServers, schemaRegistryUrl);
        this.thread = new Thread(
                () -> {
                    try (StreamedRunOutput output = new StreamedRunOutput(
                            kafka.clientProperties(),
                            started,
                            SimulatedRunDriver.maxWorkers(spec),
                            OverflowPolicy.BLOCK,
                            512,
                            new PrintWriter(out, true))) {
                        streamed = output;
                        exitCode = new SimulatedRunDriver(drive, spec, smartIntervalNs, 0, null, () -> false)
                                .run(new Gated(output));
                    } catch (Throwable e) {
                        failure = e;
                    }
                },
                "gated-simulation-" + runId);
    }

    String runId() {
        return runId;
    }

    GatedSimulation start() {
        thread.start();
        return this;
    }

    /** Waits until the run is held at gate {@code i}. */
    void awaitGate(int i, Duration timeout) throws InterruptedException {
        if (!reached[i].await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("run " + runId + " did not reach gate " + i + " within " + timeout
                    + (failure == null ? "" : ": " + failure) + "\n" + out);
        }
    }

    /** Waits until the simulation is over and the run is being finished (RunFinished handed to the publisher). */
    void awaitFinishing(Duration timeout) throws InterruptedException {
        if (!finishing.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("run " + runId + " not finishing within " + timeout + "\n" + out);
        }
    }

    void open(int i) {
        opened[i].countDown();
    }

    boolean isFinished() {
        return !thread.isAlive();
    }

    /** I/Os the simulator completed so far. */
    long ioCount() {
        return ioCount.get();
    }

    /** Waits for the end of the run (RunFinished published and acknowledged); the command's exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
            throw new AssertionError("run " + runId + " still going after " + timeout + "\n" + out);
        }
        if (failure != null) {
            throw new AssertionError("run " + runId + " failed: " + failure + "\n" + out, failure);
        }
        return exitCode;
    }

    PublishReport report() {
        return streamed.publisher().report();
    }

    /** What the command printed ("run ID: COMPLETED, N I/Os, N published ..."). */
    String output() {
        return out.toString();
    }

    /** Opens every gate, e.g. when a test fails, so the thread ends. */
    void openAll() {
        for (CountDownLatch l : opened) {
            l.countDown();
        }
    }

    private final class Gated extends ForwardingRunOutput {
        Gated(RunOutput delegate) {
            super(delegate);
        }

        @Override
        public void onIoCompleted(
                int worker,
                int phaseIndex,
                byte op,
                long offsetBytes,
                int sizeBytes,
                long submitTimeNs,
                long latencyNs,
                int queueDepth,
                int status) {
            int gate = nextGate.get();
            if (gate < gateNs.length && submitTimeNs + latencyNs >= gateNs[gate]) {
                nextGate.incrementAndGet();
                reached[gate].countDown();
                try {
                    opened[gate].await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted at gate " + gate, e);
                }
            }
            ioCount.incrementAndGet();
            delegate.onIoCompleted(
                    worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
        }

        @Override
        public int finish(RunStatus status, String reason, long durationNs) {
            finishing.countDown();
            return delegate.finish(status, reason, durationNs);
        }
    }
}
