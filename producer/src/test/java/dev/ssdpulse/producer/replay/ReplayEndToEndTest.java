package dev.ssdpulse.producer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.PhaseOutcome;
import dev.ssdpulse.producer.device.engine.LibaioIoEngine;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.run.SimulationObserver;
import dev.ssdpulse.producer.sim.run.WorkloadSimulation;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace replayed on a file through the device engine and on the simulator issues the trace's I/Os: the same count,
 * bytes per op and order; with recorded timing, none before its time.
 */
class ReplayEndToEndTest {
    private static final long TARGET = 32L << 20;

    @TempDir
    Path dir;

    /** One I/O as the sink saw it. */
    record Io(byte op, long offset, int size, long submitNs, long latencyNs, int status) {}

    static final class Recorder implements IoCompletionSink, SimulationObserver {
        final List<Io> ios = Collections.synchronizedList(new ArrayList<>());
        final List<ReplayResult> replays = new ArrayList<>();
        final List<Long> phaseStarts = new ArrayList<>();

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
            ios.add(new Io(op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, status));
        }

        @Override
        public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
            phaseStarts.add(timeNs);
        }

        @Override
        public void onSmartSample(SimSmartCounters counters) {}

        @Override
        public void onReplayFinished(ReplayResult result) {
            replays.add(result);
        }
    }

    /** The trace's I/Os in file order, as (op, offset, size). */
    record Recorded(byte op, long offset, int size, long timeUs) {}

    /**
     * An application-load-like iolog v3: 4 KiB-aligned reads and writes within 16 MiB, a trim and a sync, recorded
     * every {@code gapUs} microseconds, with bursts of {@code burst} I/Os at the same time.
     */
    private List<Recorded> writeTrace(Path p, int count, long gapUs, int burst) throws IOException {
        List<Recorded> out = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(7);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(p))) {
            w.println("fio version 3 iolog");
            w.println("0 /dev/sdz add");
            w.println("0 /dev/sdz open");
            long t = 0;
            for (int i = 0; i < count; i++) {
                if (i % burst == 0) {
                    t += gapUs;
                }
                byte op;
                long offset = (long) random.nextInt(4096) * 4096;
                int size = 4096 << random.nextInt(4);
                if (i == count / 2) {
                    op = IoOpCode.FLUSH;
                    offset = 0;
                    size = 0;
                    w.printf("%d /dev/sdz sync 0 0%n", t);
                } else if (i == count / 3) {
                    op = IoOpCode.TRIM;
                    w.printf("%d /dev/sdz trim %d %d%n", t, offset, size);
                } else {
                    op = random.nextInt(4) == 0 ? IoOpCode.WRITE : IoOpCode.READ;
                    w.printf("%d /dev/sdz %s %d %d%n", t, op == IoOpCode.READ ? "read" : "write", offset, size);
                }
                out.add(new Recorded(op, offset, size, t));
            }
            w.println(t + " /dev/sdz close");
        }
        return out;
    }

    private WorkloadSpec workload(Path trace, String timing, int queueDepth) throws IOException {
        Path w = dir.resolve("w.yaml");
        Files.writeString(w, """
                name: replay-e2e
                targetSize: %d
                phases:
                  - name: load
                    kind: REPLAY
                    trace: %s
                    timing: %s
                    queueDepth: %d
                    remap: none
                """.formatted(TARGET, trace.getFileName(), timing, queueDepth));
        return new WorkloadLoader().load(w);
    }

    private static void assertSameIosInOrder(List<Io> seen, List<Recorded> trace) {
        assertThat(seen).hasSameSizeAs(trace);
        for (int i = 0; i < trace.size(); i++) {
            Recorded r = trace.get(i);
            Io io = seen.get(i);
            assertThat(io.op()).as("op of I/O %d", i).isEqualTo(r.op());
            assertThat(io.size()).as("size of I/O %d", i).isEqualTo(r.size());
            if (r.op() != IoOpCode.FLUSH) {
                assertThat(io.offset()).as("offset of I/O %d", i).isEqualTo(r.offset());
            }
        }
    }

    private static long bytes(List<Recorded> trace, byte op) {
        return trace.stream()
                .filter(r -> r.op() == op)
                .mapToLong(Recorded::size)
                .sum();
    }

    @Test
    void aFastReplayOnAFileIssuesTheTracesIosBytesAndOrder() throws Exception {
        Path trace = dir.resolve("app.iolog");
        List<Recorded> recorded = writeTrace(trace, 600, 100, 1);
        Path target = dir.resolve("target.bin");
        Files.write(target, new byte[(int) TARGET]);
        WorkloadSpec spec = workload(trace, "fast", 1);
        Recorder sink = new Recorder();
        List<PhaseOutcome> outcomes = new ArrayList<>();
        try (LibaioIoEngine engine = new LibaioIoEngine(8)) {
            engine.open(target, TARGET, true, true);
            DeviceRunResult r = new DeviceRunner(engine, DeviceRunOptions.forTarget(TARGET, false, false))
                    .run(spec, sink, new DeviceRunListener() {
                        @Override
                        public void onPhaseEnded(ScheduledPhase phase, PhaseOutcome outcome) {
                            outcomes.add(outcome);
                        }
                    });
            assertThat(r.status()).as(r.reason()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        }
        // QD1: completion order is issue order
        assertSameIosInOrder(sink.ios, recorded);
        assertThat(sink.ios).allSatisfy(io -> assertThat(io.status()).isZero());
        PhaseOutcome o = outcomes.get(0);
        assertThat(o.ios()).isEqualTo(recorded.size());
        assertThat(o.bytesRead()).isEqualTo(bytes(recorded, IoOpCode.READ));
        assertThat(o.bytesWritten()).isEqualTo(bytes(recorded, IoOpCode.WRITE));
        assertThat(o.bytesTrimmed()).isEqualTo(bytes(recorded, IoOpCode.TRIM));
        assertThat(o.replay().traceIoCount()).isEqualTo(recorded.size());
        assertThat(o.replay().issuedIoCount()).isEqualTo(recorded.size());
        assertThat(o.replay().recordedTiming()).isFalse();
    }

    @Test
    void aRecordedReplayIssuesNoIoBeforeItsTimeAndCountsWhatWasIssued() throws Exception {
        Path trace = dir.resolve("timed.iolog");
        List<Recorded> recorded = writeTrace(trace, 200, 1_000, 4); // 50 bursts of 4 I/Os, 1 ms apart
        WorkloadSpec spec = workload(trace, "recorded", 8);
        Recorder sink = new Recorder();
        List<PhaseOutcome> outcomes = new ArrayList<>();
        List<Long> phaseStarts = new ArrayList<>();
        try (NullIoEngine engine = NullIoEngine.queued(512, 16)) {
            engine.open(null, TARGET, true, true);
            new DeviceRunner(engine, DeviceRunOptions.forTarget(TARGET, false, false))
                    .run(spec, sink, new DeviceRunListener() {
                        @Override
                        public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
                            phaseStarts.add(timeNs);
                        }

                        @Override
                        public void onPhaseEnded(ScheduledPhase phase, PhaseOutcome outcome) {
                            outcomes.add(outcome);
                        }
                    });
        }
        List<Io> bySubmit = new ArrayList<>(sink.ios);
        bySubmit.sort(Comparator.comparingLong(Io::submitNs));
        assertThat(bySubmit).hasSize(recorded.size());
        long firstUs = recorded.get(0).timeUs();
        for (int i = 0; i < recorded.size(); i++) {
            long dueNs = (recorded.get(i).timeUs() - firstUs) * 1000;
            // sorted submit times against sorted due times: the i-th submit is never before the i-th due time
            assertThat(bySubmit.get(i).submitNs() - phaseStarts.get(0))
                    .as("submit %d", i)
                    .isGreaterThanOrEqualTo(dueNs);
        }
        ReplayResult replay = outcomes.get(0).replay();
        assertThat(replay.recordedTiming()).isTrue();
        assertThat(replay.issuedIoCount()).isEqualTo(recorded.size());
        assertThat(replay.issueLagMaxNs()).isGreaterThanOrEqualTo(replay.issueLagP99Ns());
    }

    @Test
    void theSimulatorReplaysTheSameIosInOrderAtTheirRecordedTimes() throws Exception {
        Path trace = dir.resolve("sim.iolog");
        List<Recorded> recorded = writeTrace(trace, 400, 2_000, 1);
        Recorder fast = new Recorder();
        WorkloadSimulation.prepare(
                        SimulatedDrive.fromPreset("tiny-test", 1), workload(trace, "fast", 1), 1_000_000_000L, fast)
                .run()
                .runToCompletion();
        assertSameIosInOrder(fast.ios, recorded);
        assertThat(fast.replays)
                .singleElement()
                .satisfies(r -> assertThat(r.issuedIoCount()).isEqualTo(recorded.size()));

        Recorder timed = new Recorder();
        WorkloadSimulation.prepare(
                        SimulatedDrive.fromPreset("tiny-test", 1),
                        workload(trace, "recorded", 32),
                        1_000_000_000L,
                        timed)
                .run()
                .runToCompletion();
        List<Io> bySubmit = new ArrayList<>(timed.ios);
        bySubmit.sort(Comparator.comparingLong(Io::submitNs));
        long firstUs = recorded.get(0).timeUs();
        // virtual time: every I/O is issued exactly at its recorded time (2 ms apart, far more than a command)
        for (int i = 0; i < recorded.size(); i++) {
            assertThat(bySubmit.get(i).submitNs() - timed.phaseStarts.get(0))
                    .isEqualTo((recorded.get(i).timeUs() - firstUs) * 1000);
        }
        assertThat(timed.replays.get(0).lateIssueCount()).isZero();
        assertThat(timed.replays.get(0).issueLagMaxNs()).isZero();
    }

    @Test
    void onTheSimulatorABurstBeyondTheQueueDepthCapIsIssuedLateAndCounted() throws Exception {
        Path trace = dir.resolve("burst.iolog");
        List<Recorded> recorded = writeTrace(trace, 300, 50_000, 300); // all 300 I/Os at one instant
        Recorder sink = new Recorder();
        WorkloadSimulation.prepare(
                        SimulatedDrive.fromPreset("tiny-test", 1), workload(trace, "recorded", 1), 1_000_000_000L, sink)
                .run()
                .runToCompletion();
        assertSameIosInOrder(sink.ios, recorded);
        ReplayResult r = sink.replays.get(0);
        assertThat(r.lateIssueCount()).isPositive().isLessThan(recorded.size());
        assertThat(r.issueLagMaxNs()).isGreaterThan(ReplayGenerator.LATE_THRESHOLD_NS);
    }
}
