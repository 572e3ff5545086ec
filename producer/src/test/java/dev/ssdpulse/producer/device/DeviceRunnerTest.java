package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.engine.SyncDirectIoEngine;
import dev.ssdpulse.producer.device.testing.LoopDevice;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceRunnerTest {
    private static final long TARGET = 64L << 20;
    private static final long MS = 1_000_000L;

    /** Records everything and fails if one worker's completions are ever delivered concurrently. */
    static final class RecordingSink implements IoCompletionSink {
        final AtomicBoolean[] inCall = new AtomicBoolean[64];
        final AtomicLong count = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final AtomicInteger maxQueueDepth = new AtomicInteger();
        final AtomicInteger errors = new AtomicInteger();
        final List<Integer> phases = Collections.synchronizedList(new ArrayList<>());
        volatile boolean overlapped;
        volatile boolean timesOrdered = true;
        final long[] lastSubmit = new long[64];

        RecordingSink() {
            for (int i = 0; i < inCall.length; i++) {
                inCall[i] = new AtomicBoolean();
            }
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
            if (!inCall[worker].compareAndSet(false, true)) {
                overlapped = true;
            }
            count.incrementAndGet();
            bytes.addAndGet(sizeBytes);
            maxQueueDepth.accumulateAndGet(queueDepth, Math::max);
            if (status != 0) {
                errors.incrementAndGet();
            }
            if (submitTimeNs < 0 || latencyNs < 0 || offsetBytes < 0 || offsetBytes + sizeBytes > TARGET) {
                timesOrdered = false;
            }
            if (phases.isEmpty() || phases.get(phases.size() - 1) != phaseIndex) {
                phases.add(phaseIndex);
            }
            inCall[worker].set(false);
        }
    }

    static class RecordingListener implements DeviceRunListener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<DeviceProgress> progress = new CopyOnWriteArrayList<>();

        @Override
        public void onPhaseStarted(ScheduledPhase phase, long timeNs) {
            events.add("start " + phase.name());
        }

        @Override
        public void onPhaseEnded(ScheduledPhase phase, PhaseOutcome outcome) {
            events.add("end " + phase.name() + " " + outcome.endReason());
        }

        @Override
        public void onProgress(DeviceProgress p) {
            progress.add(p);
        }

        @Override
        public void onNotice(String message) {
            events.add("notice " + message);
        }
    }

    private static PhaseSpec.Builder io(String name, int readPercent, int workers, int qd) {
        return PhaseSpec.builder(name, PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, readPercent, 100))
                .workers(workers)
                .queueDepth(qd);
    }

    private static WorkloadSpec spec(PhaseSpec... phases) {
        return new WorkloadSpec("t", "test", 1, OptionalLong.of(TARGET), List.of(phases));
    }

    private static DeviceRunner runner(long progressNs) {
        NullIoEngine e = new NullIoEngine();
        e.open(null, TARGET, true, true);
        return new DeviceRunner(e, new DeviceRunOptions(TARGET, false, false, progressNs));
    }

    @Test
    void byteBudgetEndsThePhaseWithExactCountsAndQueueDepth() {
        RecordingSink sink = new RecordingSink();
        RecordingListener listener = new RecordingListener();
        DeviceRunResult r = runner(DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS)
                .run(
                        spec(io("fill", 0, 2, 4)
                                .totalBytes(Amount.ofBytes(8L << 20))
                                .build()),
                        sink,
                        listener);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        assertThat(r.totalIos()).isEqualTo(2048).isEqualTo(sink.count.get());
        assertThat(r.bytesWritten()).isEqualTo(8L << 20);
        assertThat(r.phases().get(0).endReason()).isEqualTo(PhaseOutcome.EndReason.BYTES);
        assertThat(sink.overlapped).as("per-worker sink calls never overlap").isFalse();
        assertThat(sink.timesOrdered).isTrue();
        assertThat(sink.maxQueueDepth.get()).isBetween(1, 4);
        assertThat(listener.events).containsExactly("start fill", "end fill BYTES");
    }

    @Test
    void phasesRunInOrderWithCallbacksAndIdleAndPurgeOnAFile() {
        RecordingSink sink = new RecordingSink();
        RecordingListener listener = new RecordingListener();
        PhaseSpec purge = PhaseSpec.builder("purge", PhaseKind.PURGE).build();
        PhaseSpec pre = io("pre", 0, 1, 2).totalBytes(Amount.ofPercent(10)).build();
        PhaseSpec idle =
                PhaseSpec.builder("pause", PhaseKind.IDLE).durationNs(100 * MS).build();
        PhaseSpec test = io("test", 70, 2, 2).durationNs(100 * MS).build();
        DeviceRunResult r =
                runner(DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS).run(spec(purge, pre, idle, test), sink, listener);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        assertThat(listener.events)
                .containsExactly(
                        "start purge",
                        "notice PURGE on a file target: nothing to purge (a file has no FTL state to reset); skipped",
                        "end purge SKIPPED",
                        "start pre",
                        "end pre BYTES",
                        "start pause",
                        "end pause IDLE",
                        "start test",
                        "end test DURATION");
        assertThat(sink.phases).containsExactly(1, 3);
        assertThat(r.phases())
                .extracting(PhaseOutcome::ios)
                .element(1)
                .isEqualTo(((TARGET / 10) + 4095) / 4096); // the budget may be overshot by < 1 request
        // Timed phases end on their duration, never before it, on the runner's own clock. How long after depends on
        // the machine's load, so there is no upper band: the end reasons say the duration ended them, and the test's
        // time limit catches a phase that never ends.
        PhaseOutcome pause = r.phases().get(2);
        assertThat(pause.endNs() - pause.startNs()).isGreaterThanOrEqualTo(100 * MS);
        PhaseOutcome t = r.phases().get(3);
        assertThat(t.endNs() - t.startNs()).isGreaterThanOrEqualTo(100 * MS);
        assertThat(r.phases()).extracting(PhaseOutcome::startNs).isSorted();
        assertThat(r.phases().get(3).startNs()).isGreaterThanOrEqualTo(pause.endNs());
        assertThat(t.ios()).isPositive();
        assertThat(t.bytesRead() + t.bytesWritten()).isEqualTo(t.ios() * 4096);
    }

    @Test
    void purgeOfABlockDeviceNeedsPermissionAndThenDiscardsTheWholeDevice() {
        NullIoEngine e = new NullIoEngine();
        e.open(null, TARGET, true, true);
        WorkloadSpec s = spec(PhaseSpec.builder("purge", PhaseKind.PURGE).build());
        DeviceRunResult refused = new DeviceRunner(e, DeviceRunOptions.forTarget(TARGET, true, false))
                .run(s, new RecordingSink(), DeviceRunListener.NONE);
        assertThat(refused.status()).isEqualTo(DeviceRunResult.Status.FAILED);
        assertThat(refused.reason()).contains("--allow-destroy-data");
        RecordingListener l = new RecordingListener();
        DeviceRunResult allowed =
                new DeviceRunner(e, DeviceRunOptions.forTarget(TARGET, true, true)).run(s, new RecordingSink(), l);
        assertThat(allowed.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        assertThat(allowed.phases().get(0).note())
                .contains("whole device discarded")
                .contains("not a secure erase");
        assertThat(allowed.phases().get(0).bytesTrimmed()).isEqualTo(TARGET);
        assertThat(l.events).anyMatch(ev -> ev.contains("as blkdiscard does"));
    }

    @Test
    void purgeOfARealBlockDeviceLeavesItReadingZeros(@TempDir Path dir) throws Exception {
        int sizeBytes = 8 << 20;
        byte[] image = new byte[sizeBytes];
        Arrays.fill(image, (byte) 0x5a);
        Path imageFile = dir.resolve("disk.img");
        RecordingSink sink = new RecordingSink();
        try (LoopDevice loop = LoopDevice.attach(imageFile, image, false);
                SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(loop.path(), sizeBytes, true, true);
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(sizeBytes, true, true))
                    .run(spec(PhaseSpec.builder("purge", PhaseKind.PURGE).build()), sink, DeviceRunListener.NONE);
            assertThat(r.status()).as(String.valueOf(r.reason())).isEqualTo(DeviceRunResult.Status.COMPLETED);
            assertThat(r.phases().get(0).bytesTrimmed()).isEqualTo(sizeBytes);
            assertThat(sink.count.get()).as("the discard is recorded as an I/O").isEqualTo(1);
        }
        byte[] after = Files.readAllBytes(imageFile);
        for (int i = 0; i < after.length; i += 4096) {
            assertThat(after[i]).as("byte %d after the purge", i).isZero();
        }
    }

    @Test
    void cancelEndsTheRunAsAbortedAfterOutstandingIosFinish() {
        RecordingSink sink = new RecordingSink();
        DeviceRunner runner = runner(50 * MS);
        // Cancelled from the first progress tick that saw I/O: the run is cancelled mid-phase with I/Os in flight,
        // whatever the machine's speed (no sleep guessing when that is).
        RecordingListener listener = new RecordingListener() {
            @Override
            public void onProgress(DeviceProgress p) {
                super.onProgress(p);
                if (p.intervalIops() > 0) {
                    runner.cancel();
                }
            }
        };
        DeviceRunResult r = runner.run(
                spec(
                        io("long", 50, 2, 8).durationNs(60_000 * MS).build(),
                        io("never", 50, 1, 1).durationNs(60_000 * MS).build()),
                sink,
                listener);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.ABORTED);
        assertThat(r.reason()).isEqualTo("cancelled by the user");
        assertThat(r.phases()).hasSize(1);
        assertThat(r.phases().get(0).endReason()).isEqualTo(PhaseOutcome.EndReason.CANCELLED);
        assertThat(r.phases().get(0).endNs() - r.phases().get(0).startNs())
                .as("ended before its 60 s")
                .isLessThan(60_000 * MS);
        assertThat(r.totalIos()).isEqualTo(sink.count.get()).isPositive();
        assertThat(listener.events).containsExactly("start long", "end long CANCELLED");
        assertThat(listener.progress).isNotEmpty();
        DeviceProgress p = listener.progress.get(listener.progress.size() - 1);
        assertThat(p.phaseName()).isEqualTo("long");
        // the last tick may fall after the cancel, when the I/O threads have stopped (0 IOPS in its interval)
        assertThat(listener.progress).anyMatch(t -> t.intervalIops() > 0);
        // the two counters are read one after the other while I/O threads run: equal within the I/Os in flight
        assertThat(p.totalBytes()).isCloseTo(p.totalIos() * 4096, Offset.offset(64L * 4096));
    }

    @Test
    void cancelDuringIdleReturnsPromptly() {
        DeviceRunner runner = runner(DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS);
        RecordingListener listener = new RecordingListener();
        Thread canceller = new Thread(() -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> listener.events.contains("start idle"));
            runner.cancel("Ctrl-C");
        });
        canceller.start();
        DeviceRunResult r = runner.run(
                spec(PhaseSpec.builder("idle", PhaseKind.IDLE)
                        .durationNs(30_000 * MS)
                        .build()),
                new RecordingSink(),
                listener);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.ABORTED);
        assertThat(r.reason()).isEqualTo("Ctrl-C");
        PhaseOutcome idle = r.phases().get(0);
        assertThat(idle.endReason()).isEqualTo(PhaseOutcome.EndReason.CANCELLED);
        assertThat(idle.endNs() - idle.startNs())
                .as("ended by the cancel, not by its 30 s")
                .isLessThan(30_000 * MS);
    }

    @Test
    void rateLimitPacesSubmits() {
        RecordingSink sink = new RecordingSink();
        DeviceRunResult r = runner(DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS)
                .run(
                        spec(io("paced", 100, 2, 4)
                                .rateLimitIops(OptionalLong.of(2_000))
                                .durationNs(1_000 * MS)
                                .build()),
                        sink,
                        DeviceRunListener.NONE);
        // 2,000 IOPS for 1 s = 2,000 I/Os: the limit holds (at most the 8 I/Os in flight over it) however loaded
        // the machine is, and pacing does not starve the run. The exact count on a synthetic clock is
        // SubmitPacingTest's; a real clock only bounds it from above.
        assertThat(r.totalIos()).isPositive().isLessThanOrEqualTo(2_010L);
    }

    @Test
    void aPowerCutPhaseIsRefusedBeforeAnyIoOnADevice() {
        NullIoEngine e = new NullIoEngine();
        e.open(null, TARGET, true, true);
        RecordingSink sink = new RecordingSink();
        PhaseSpec cut = PhaseSpec.builder("cut", PhaseKind.POWER_CUT)
                .accessSpec(AccessSpec.of(4096, 100, 0, 100))
                .durationNs(MS)
                .build();
        WorkloadSpec workload = spec(io("w", 0, 1, 1).durationNs(MS).build(), cut);
        assertThatThrownBy(() -> new DeviceRunner(e, DeviceRunOptions.forTarget(TARGET, false, false))
                        .run(workload, sink, DeviceRunListener.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("phase 'cut': a POWER_CUT phase cuts the power of a simulated drive only")
                .hasMessageContaining("ssdpulse verify");
        assertThat(sink.count.get()).isZero();
    }

    @Test
    void misalignedWorkloadIsRejectedBeforeAnyIo() {
        NullIoEngine e = new NullIoEngine(4096);
        e.open(null, TARGET, true, true);
        RecordingSink sink = new RecordingSink();
        PhaseSpec bad = PhaseSpec.builder("small", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(512, 100, 100, 100))
                .durationNs(MS)
                .build();
        assertThatThrownBy(() -> new DeviceRunner(e, DeviceRunOptions.forTarget(TARGET, false, false))
                        .run(spec(bad), sink, DeviceRunListener.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("phase 'small'")
                .hasMessageContaining("transfer size 512")
                .hasMessageContaining("multiples of the block size 4096");
        assertThat(sink.count.get()).isZero();
    }

    @Test
    void realEngineOnAFileRunsAMixedPhaseWithoutErrors(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.dat");
        long size = 4L << 20;
        Files.write(f, new byte[(int) size]);
        RecordingSink sink = new RecordingSink();
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(f, size, true, true);
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(size, false, false))
                    .run(
                            new WorkloadSpec(
                                    "t",
                                    "t",
                                    3,
                                    OptionalLong.of(size),
                                    List.of(io("mixed", 50, 2, 4)
                                            .totalBytes(Amount.ofBytes(2L << 20))
                                            .build())),
                            sink,
                            DeviceRunListener.NONE);
            assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
            assertThat(r.totalErrors()).as(String.valueOf(r.lastError())).isZero();
            assertThat(r.totalIos()).isEqualTo(512);
            assertThat(r.bytesRead() + r.bytesWritten()).isEqualTo(2L << 20);
        }
        assertThat(Files.size(f)).isEqualTo(size);
    }

    @Test
    void trimOnAFileIsIssuedAsHolePunchesOverTheRequestedBytes(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.dat");
        byte[] ones = new byte[1 << 20];
        Arrays.fill(ones, (byte) 1);
        Files.write(f, ones);
        RecordingSink sink = new RecordingSink();
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(f, 1 << 20, true, true);
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(1 << 20, false, false))
                    .run(
                            new WorkloadSpec(
                                    "t",
                                    "t",
                                    3,
                                    OptionalLong.of(1 << 20),
                                    List.of(PhaseSpec.builder("trim", PhaseKind.TEST)
                                            .accessSpec(AccessSpec.of(4096, 100, 0, 0))
                                            .workers(1)
                                            .queueDepth(1)
                                            .trim(true)
                                            .totalBytes(Amount.ofBytes(64 * 1024))
                                            .build())),
                            sink,
                            DeviceRunListener.NONE);
            assertThat(r.totalIos()).isEqualTo(16);
            assertThat(r.totalErrors())
                    .as(e.lastError() == null ? "" : e.lastError())
                    .isZero();
            assertThat(r.bytesTrimmed()).isEqualTo(64 * 1024);
        }
        byte[] after = Files.readAllBytes(f);
        assertThat(after).hasSize(1 << 20);
        int zeros = 0;
        for (byte b : after) {
            zeros += b == 0 ? 1 : 0;
        }
        assertThat(zeros)
                .as("every trimmed byte (16 sequential 4-KiB TRIMs) reads as zero, nothing else does")
                .isEqualTo(64 * 1024);
        assertThat(IoOpCode.name(IoOpCode.TRIM)).isEqualTo("TRIM");
    }
}
