package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ssdpulse.producer.device.DeviceRunnerTest.RecordingListener;
import dev.ssdpulse.producer.device.DeviceRunnerTest.RecordingSink;
import dev.ssdpulse.producer.device.engine.CpuList;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.producer.device.engine.IoStatus;
import dev.ssdpulse.producer.device.engine.IoUringIoEngine;
import dev.ssdpulse.producer.device.engine.LibaioIoEngine;
import dev.ssdpulse.producer.device.engine.LockedMemory;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.engine.SyncDirectIoEngine;
import dev.ssdpulse.producer.device.engine.ThreadAffinity;
import dev.ssdpulse.producer.device.engine.ThreadCapabilities;
import dev.ssdpulse.producer.device.testing.FaultInjectingIoEngine;
import dev.ssdpulse.producer.device.testing.LoopDevice;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's submit/reap loop (asynchronous engines) and its handling of device errors. */
class AsyncDeviceRunnerTest {
    private static final long TARGET = 64L << 20;
    private static final long MS = 1_000_000L;

    private static PhaseSpec.Builder io(String name, int readPercent, int workers, int qd) {
        return PhaseSpec.builder(name, PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, readPercent, 100))
                .workers(workers)
                .queueDepth(qd);
    }

    private static WorkloadSpec spec(long size, PhaseSpec... phases) {
        return new WorkloadSpec("t", "test", 1, OptionalLong.of(size), List.of(phases));
    }

    private static NullIoEngine queuedNull(int depth) {
        NullIoEngine e = NullIoEngine.queued(512, depth);
        e.open(null, TARGET, true, true);
        return e;
    }

    @Test
    void nullQueuedEngineKeepsTheQueueFullAndCountsExactly() {
        for (int submitBatch : new int[] {1, 5, 32}) {
            RecordingSink sink = new RecordingSink();
            RecordingListener listener = new RecordingListener();
            DeviceRunResult r = new DeviceRunner(
                            queuedNull(32),
                            new DeviceRunOptions(
                                    TARGET,
                                    false,
                                    false,
                                    DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                                    DeviceRunOptions.DEFAULT_IO_TIMEOUT_NS,
                                    submitBatch,
                                    null))
                    .run(
                            spec(
                                    TARGET,
                                    io("fill", 0, 2, 32)
                                            .totalBytes(Amount.ofBytes(16L << 20))
                                            .build()),
                            sink,
                            listener);
            assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
            assertThat(r.totalIos()).isEqualTo(4096).isEqualTo(sink.count.get());
            assertThat(r.bytesWritten()).isEqualTo(16L << 20);
            assertThat(sink.overlapped).isFalse();
            assertThat(sink.timesOrdered).isTrue();
            assertThat(sink.maxQueueDepth.get())
                    .as("one thread per worker keeps all 32 slots queued, submit batch " + submitBatch)
                    .isEqualTo(32);
            assertThat(listener.events).containsExactly("start fill", "end fill BYTES");
        }
    }

    /**
     * The queued null engine, claiming (or not) that its waiting reap submits, counting the reaps that only submit,
     * the reaps that wait and the requests queued.
     */
    private static final class SubmitCountingEngine implements IoEngine {
        private final NullIoEngine inner;
        private final boolean submitsWhileWaiting;
        final AtomicLong submitOnlyReaps = new AtomicLong();
        final AtomicLong waitingReaps = new AtomicLong();
        final AtomicLong queuedIos = new AtomicLong();

        SubmitCountingEngine(int depth, boolean submitsWhileWaiting) {
            this.inner = queuedNull(depth);
            this.submitsWhileWaiting = submitsWhileWaiting;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public boolean asynchronous() {
            return true;
        }

        @Override
        public int maxQueueDepth() {
            return inner.maxQueueDepth();
        }

        @Override
        public boolean submitsWhileWaiting() {
            return submitsWhileWaiting;
        }

        @Override
        public void open(Path target, long sizeBytes, boolean direct, boolean writable) {}

        @Override
        public int alignmentBytes() {
            return inner.alignmentBytes();
        }

        @Override
        public boolean supportsTrim() {
            return false;
        }

        @Override
        public boolean submit(IoSlot slot) {
            boolean done = inner.submit(slot);
            if (!done) {
                queuedIos.incrementAndGet();
            }
            return done;
        }

        @Override
        public int reap(IoSlot[] out, int min, int max, long timeoutNs) {
            (max == 0 ? submitOnlyReaps : waitingReaps).incrementAndGet();
            return inner.reap(out, min, max, timeoutNs);
        }

        @Override
        public String lastError() {
            return null;
        }

        @Override
        public void close() {}
    }

    @Test
    void whereTheWaitingReapSubmitsTheRunnerLeavesItsLastRequestsToIt() {
        for (int depth : new int[] {1, 8}) {
            WorkloadSpec w = spec(
                    TARGET,
                    io("qd", 50, 1, depth)
                            .totalBytes(Amount.ofBytes(4096L * 2000))
                            .build());
            SubmitCountingEngine separate = new SubmitCountingEngine(depth, false);
            SubmitCountingEngine merged = new SubmitCountingEngine(depth, true);
            for (SubmitCountingEngine e : List.of(separate, merged)) {
                RecordingSink sink = new RecordingSink();
                DeviceRunResult r = new DeviceRunner(
                                e,
                                new DeviceRunOptions(
                                        TARGET,
                                        false,
                                        false,
                                        DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                                        DeviceRunOptions.DEFAULT_IO_TIMEOUT_NS,
                                        1,
                                        null))
                        .run(w, sink, DeviceRunListener.NONE);
                assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
                assertThat(r.totalIos())
                        .isEqualTo(2000)
                        .isEqualTo(sink.count.get())
                        .isEqualTo(e.queuedIos.get());
                assertThat(sink.timesOrdered).isTrue();
                assertThat(sink.maxQueueDepth.get()).isEqualTo(depth);
            }
            // fio's way (iodepth_batch_submit=1): every request is submitted on its own, then the runner waits
            assertThat(separate.submitOnlyReaps.get()).as("depth " + depth).isEqualTo(2000);
            if (depth == 1) {
                // each I/O goes to the kernel with the wait for it: one call per I/O instead of two
                assertThat(merged.submitOnlyReaps.get()).isZero();
                assertThat(merged.waitingReaps.get())
                        .isEqualTo(separate.waitingReaps.get())
                        .isEqualTo(2000);
            } else {
                // the request that takes the last free slot goes with the wait; the others still go at once
                assertThat(merged.submitOnlyReaps.get()).isEqualTo(2000 - merged.waitingReaps.get());
                assertThat(merged.waitingReaps.get()).isPositive();
            }
        }
    }

    @Test
    void cpusAllowedPinsEveryIoThreadAndACpuThatIsNotThereFailsThePhase() throws Exception {
        assumeTrue(ThreadAffinity.unavailableReason() == null, () -> ThreadAffinity.unavailableReason());
        BitSet mine = ThreadAffinity.allowedCpus();
        CpuList last = CpuList.parse(Integer.toString(mine.length() - 1));
        Set<String> seen = ConcurrentHashMap.newKeySet();
        IoCompletionSink sink = (worker, phase, op, offset, size, submit, latency, qd, status) -> {
            try {
                seen.add(Thread.currentThread().getName() + " " + CpuList.format(ThreadAffinity.allowedCpus()));
            } catch (IOException e) {
                seen.add(e.toString());
            }
        };
        WorkloadSpec twoWorkers = spec(
                TARGET,
                io("pinned", 50, 2, 8).totalBytes(Amount.ofBytes(1L << 20)).build());
        for (IoEngine e : List.<IoEngine>of(queuedNull(8), new NullIoEngine())) {
            seen.clear();
            DeviceRunResult r = new DeviceRunner(
                            e,
                            new DeviceRunOptions(
                                    TARGET,
                                    false,
                                    false,
                                    DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                                    DeviceRunOptions.DEFAULT_IO_TIMEOUT_NS,
                                    1,
                                    last))
                    .run(twoWorkers, sink, DeviceRunListener.NONE);
            assertThat(r.status()).isEqualTo(DeviceRunResult.Status.COMPLETED);
            // async: one thread per worker; psync: one per worker and slot (a slot's thread may find the budget
            // spent before its first I/O); every thread that recorded an I/O was pinned
            assertThat(seen).hasSizeBetween(2, e.asynchronous() ? 2 : 16).allMatch(s -> s.endsWith(" " + last));
        }
        assertThat(CpuList.format(ThreadAffinity.allowedCpus()))
                .as("the caller's thread is untouched")
                .isEqualTo(CpuList.format(mine));

        assumeTrue(!mine.get(CpuList.MAX_CPU_ID));
        DeviceRunResult refused = new DeviceRunner(
                        queuedNull(8),
                        new DeviceRunOptions(
                                TARGET,
                                false,
                                false,
                                DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                                DeviceRunOptions.DEFAULT_IO_TIMEOUT_NS,
                                1,
                                CpuList.parse("4095")))
                .run(twoWorkers, (w, p, o, off, sz, sub, lat, qd, st) -> {}, DeviceRunListener.NONE);
        assertThat(refused.status()).isEqualTo(DeviceRunResult.Status.FAILED);
        assertThat(refused.reason()).contains("cannot pin the I/O thread to CPUs 4095");
    }

    @Test
    void queueDepthAboveTheEnginesIsRefusedBeforeAnyIo() {
        RecordingSink sink = new RecordingSink();
        assertThatThrownBy(() -> new DeviceRunner(queuedNull(16), DeviceRunOptions.forTarget(TARGET, false, false))
                        .run(spec(TARGET, io("deep", 100, 1, 32).durationNs(MS).build()), sink, DeviceRunListener.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue depth 32 exceeds");
        assertThat(sink.count.get()).isZero();
    }

    @Test
    void durationRateLimitAndCancelWorkOnTheAsyncLoop() throws Exception {
        DeviceRunResult paced = new DeviceRunner(queuedNull(8), DeviceRunOptions.forTarget(TARGET, false, false))
                .run(
                        spec(
                                TARGET,
                                io("paced", 100, 2, 4)
                                        .rateLimitIops(OptionalLong.of(2_000))
                                        .durationNs(1_000 * MS)
                                        .build()),
                        new RecordingSink(),
                        DeviceRunListener.NONE);
        assertThat(paced.totalIos()).isBetween(1_200L, 2_010L);
        assertThat(paced.phases().get(0).endReason()).isEqualTo(PhaseOutcome.EndReason.DURATION);

        DeviceRunner runner = new DeviceRunner(queuedNull(8), DeviceRunOptions.forTarget(TARGET, false, false));
        RecordingSink sink = new RecordingSink();
        // cancelled once I/Os are flowing, however long the machine takes to get there
        Thread canceller = new Thread(() -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> sink.count.get() > 0);
            runner.cancel();
        });
        canceller.start();
        DeviceRunResult r = runner.run(
                spec(TARGET, io("long", 50, 2, 8).durationNs(60_000 * MS).build()), sink, DeviceRunListener.NONE);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.ABORTED);
        assertThat(r.phases().get(0).endReason()).isEqualTo(PhaseOutcome.EndReason.CANCELLED);
        assertThat(r.phases().get(0).endNs() - r.phases().get(0).startNs())
                .as("ended before its 60 s")
                .isLessThan(60_000 * MS);
        assertThat(r.totalIos()).isEqualTo(sink.count.get()).isPositive();
    }

    @Test
    void eioEndsThePhaseAndTheRunWithEveryErrorCounted() throws Exception {
        for (IoEngine inner : List.<IoEngine>of(queuedNull(16), new NullIoEngine())) {
            inner.open(null, TARGET, true, true);
            FaultInjectingIoEngine e = FaultInjectingIoEngine.failing(inner, 1000, IoStatus.EIO);
            RecordingSink sink = new RecordingSink();
            RecordingListener listener = new RecordingListener();
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(TARGET, false, false))
                    .run(
                            spec(
                                    TARGET,
                                    io("test", 50, 2, 16)
                                            .durationNs(30_000 * MS)
                                            .build(),
                                    io("next", 50, 1, 1).durationNs(30_000 * MS).build()),
                            sink,
                            listener);
            assertThat(r.status()).as(inner.name()).isEqualTo(DeviceRunResult.Status.FAILED);
            assertThat(r.phases()).hasSize(1);
            PhaseOutcome p = r.phases().get(0);
            assertThat(p.endReason()).isEqualTo(PhaseOutcome.EndReason.FAILED);
            assertThat(p.endNs() - p.startNs())
                    .as("ended by the error, not by its 30 s")
                    .isLessThan(30_000 * MS);
            assertThat(p.note()).contains("device error").contains("errno 5").contains(" I/Os failed)");
            assertThat(r.reason()).startsWith("phase 'test' failed: device error");
            assertThat(p.errors())
                    .as("every failed I/O is counted and recorded")
                    .isPositive()
                    .isEqualTo(sink.errors.get());
            assertThat(p.ios()).isEqualTo(sink.count.get()).isEqualTo(1000 + p.errors());
            assertThat(listener.events).containsExactly("start test", "end test FAILED");
        }
    }

    @Test
    void aStalledDeviceFailsThePhaseAfterTheIoTimeoutInsteadOfHanging() {
        FaultInjectingIoEngine e = FaultInjectingIoEngine.hanging(queuedNull(8), 500);
        RecordingSink sink = new RecordingSink();
        DeviceRunResult r = new DeviceRunner(e, new DeviceRunOptions(TARGET, false, false, 1_000 * MS, 300 * MS))
                .run(spec(TARGET, io("test", 100, 1, 8).durationNs(60_000 * MS).build()), sink, DeviceRunListener.NONE);
        assertThat(r.status()).isEqualTo(DeviceRunResult.Status.FAILED);
        PhaseOutcome p = r.phases().get(0);
        assertThat(p.endNs() - p.startNs())
                .as("not before the 300 ms I/O timeout, and long before the 60 s phase")
                .isGreaterThanOrEqualTo(300 * MS)
                .isLessThan(60_000 * MS);
        assertThat(r.reason())
                .contains("8 I/Os outstanding saw no completion")
                .contains("stopped responding")
                .contains("injected hang");
        assertThat(sink.count.get()).isEqualTo(500);
    }

    @Test
    void libaioAndIoUringOnAFileRunMixedIoAtQd32WithTwoJobs(@TempDir Path dir) throws Exception {
        assumeTrue(LibaioIoEngine.unavailableReason() == null, LibaioIoEngine.unavailableReason());
        Path f = dir.resolve("t.dat");
        long size = 8L << 20;
        Files.write(f, new byte[(int) size]);
        for (int submitBatch : new int[] {1, 16}) { // each I/O on its own (fio's default), and batches of 16
            List<IoEngine> engines = new ArrayList<>(List.of(new LibaioIoEngine(32)));
            if (IoUringIoEngine.unavailableReason() == null) {
                engines.add(new IoUringIoEngine(32));
            }
            for (IoEngine e : engines) {
                RecordingSink sink = new RecordingSink();
                try (e) {
                    e.open(f, size, true, true);
                    DeviceRunResult r = new DeviceRunner(
                                    e,
                                    new DeviceRunOptions(
                                            size,
                                            false,
                                            false,
                                            DeviceRunOptions.DEFAULT_PROGRESS_INTERVAL_NS,
                                            DeviceRunOptions.DEFAULT_IO_TIMEOUT_NS,
                                            submitBatch,
                                            null))
                            .run(
                                    spec(
                                            size,
                                            io("mixed", 50, 2, 32)
                                                    .totalBytes(Amount.ofBytes(8L << 20))
                                                    .build()),
                                    sink,
                                    DeviceRunListener.NONE);
                    String what = e.name() + ", submit batch " + submitBatch;
                    assertThat(r.status()).as(what + ": " + r.reason()).isEqualTo(DeviceRunResult.Status.COMPLETED);
                    assertThat(r.totalErrors())
                            .as(String.valueOf(r.lastError()))
                            .isZero();
                    assertThat(r.totalIos()).as(what).isEqualTo(2048).isEqualTo(sink.count.get());
                    assertThat(r.bytesRead() + r.bytesWritten()).isEqualTo(8L << 20);
                    assertThat(sink.overlapped).isFalse();
                    assertThat(sink.maxQueueDepth.get()).as(what).isBetween(2, 32);
                }
            }
        }
        assertThat(Files.size(f)).isEqualTo(size);
    }

    /**
     * Where the kernel refuses io_uring's registered buffers (locked memory over RLIMIT_MEMLOCK, for a thread without
     * CAP_IPC_LOCK: the runner's phase threads inherit the caller's capabilities), the run still completes with
     * every I/O, unregistered, and the user is told once per run, not once per phase or per worker.
     */
    @Test
    void aRefusedBufferRegistrationIsNoticedOncePerRunAndTheRunCompletes(@TempDir Path dir) throws Exception {
        assumeTrue(IoUringIoEngine.unavailableReason() == null, IoUringIoEngine.unavailableReason());
        int transferBytes = 1 << 20;
        int qd = LockedMemory.buffersOverTheLimit(transferBytes); // each worker's slots: more than the limit
        long size = 64L << 20;
        Path f = dir.resolve("t.dat");
        Files.write(f, new byte[(int) size]);
        RecordingSink sink = new RecordingSink();
        RecordingListener listener = new RecordingListener();
        AtomicReference<DeviceRunResult> result = new AtomicReference<>();
        // the engine is created inside: the kernel checks the capability of the ring's creator
        ThreadCapabilities.inThreadWithout(ThreadCapabilities.CAP_IPC_LOCK, () -> {
            try (IoUringIoEngine e = new IoUringIoEngine(qd)) {
                e.open(f, size, true, true);
                PhaseSpec.Builder write = PhaseSpec.builder("write", PhaseKind.TEST)
                        .accessSpec(AccessSpec.of(transferBytes, 100, 0, 100))
                        .workers(2)
                        .queueDepth(qd);
                PhaseSpec.Builder read = PhaseSpec.builder("read", PhaseKind.TEST)
                        .accessSpec(AccessSpec.of(transferBytes, 100, 100, 100))
                        .workers(2)
                        .queueDepth(qd);
                result.set(new DeviceRunner(e, DeviceRunOptions.forTarget(size, false, true))
                        .run(
                                spec(
                                        size,
                                        write.totalBytes(Amount.ofBytes(32L << 20))
                                                .build(),
                                        read.totalBytes(Amount.ofBytes(32L << 20))
                                                .build()),
                                sink,
                                listener));
            }
        });
        DeviceRunResult r = result.get();
        assertThat(r.status()).as(r.reason()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        assertThat(r.totalErrors()).as(String.valueOf(r.lastError())).isZero();
        assertThat(r.totalIos()).isEqualTo(64).isEqualTo(sink.count.get());
        assertThat(listener.events)
                .filteredOn(ev -> ev.startsWith("notice "))
                .singleElement()
                .asString()
                .contains("io_uring runs without its registered resources")
                .contains("errno 12 (ENOMEM")
                .contains("RLIMIT_MEMLOCK is too low");
    }

    /**
     * A real device error without device-mapper: a loop device over a sparse 64 MiB image on an 8 MiB tmpfs.
     * Writing past the tmpfs's capacity makes the loop driver fail the writes (ENOSPC from the backing file,
     * reported by the block layer as an I/O error).
     */
    @Test
    void aLoopDeviceRunningOutOfBackingSpaceFailsThePhaseWithTheErrorsCounted(@TempDir Path dir) throws Exception {
        assumeTrue(LibaioIoEngine.unavailableReason() == null, LibaioIoEngine.unavailableReason());
        Path mount = Files.createDirectory(dir.resolve("small"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString()), "cannot mount tmpfs");
        try {
            Path image = mount.resolve("disk.img");
            long size = 64L << 20;
            assumeTrue(run("truncate", "-s", String.valueOf(size), image.toString()), "truncate failed");
            try (LoopDevice loop = LoopDevice.attachExisting(image);
                    LibaioIoEngine e = new LibaioIoEngine(16)) {
                e.open(loop.path(), size, true, true);
                RecordingSink sink = new RecordingSink();
                DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(size, true, true))
                        .run(
                                spec(
                                        size,
                                        PhaseSpec.builder("fill", PhaseKind.TEST)
                                                .accessSpec(AccessSpec.of(131072, 100, 0, 0))
                                                .queueDepth(16)
                                                .totalBytes(Amount.ofPercent(100))
                                                .build()),
                                sink,
                                DeviceRunListener.NONE);
                assertThat(r.status()).isEqualTo(DeviceRunResult.Status.FAILED);
                PhaseOutcome p = r.phases().get(0);
                assertThat(p.note()).contains("device error").contains("WRITE");
                assertThat(p.errors()).isPositive().isEqualTo(sink.errors.get());
                assertThat(p.bytesWritten())
                        .as("ended near the 8 MiB of backing space, not at 64 MiB")
                        .isLessThan(16L << 20)
                        .isPositive();
            }
        } finally {
            run("umount", "-l", mount.toString());
        }
    }

    /**
     * TRIMs complete inside submit (hole punches on a file), each freeing its slot at once: a TRIM pass of more
     * I/Os than the queue depth, after reads whose completions are still held, records every I/O.
     */
    @Test
    void aTrimPassLongerThanTheQueueDepthRecordsEveryTrim(@TempDir Path dir) throws Exception {
        assumeTrue(LibaioIoEngine.unavailableReason() == null, LibaioIoEngine.unavailableReason());
        Path f = dir.resolve("t.dat");
        long size = 4L << 20;
        Files.write(f, new byte[(int) size]);
        RecordingSink sink = new RecordingSink();
        try (LibaioIoEngine e = new LibaioIoEngine(2)) {
            e.open(f, size, true, true);
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(size, false, false))
                    .run(
                            spec(
                                    size,
                                    PhaseSpec.builder("mixed", PhaseKind.TEST)
                                            .accessSpec(AccessSpec.of(4096, 100, 50, 0))
                                            .queueDepth(2)
                                            .trim(true)
                                            .totalBytes(Amount.ofBytes(1L << 20))
                                            .build()),
                            sink,
                            DeviceRunListener.NONE);
            assertThat(r.status()).as(r.reason()).isEqualTo(DeviceRunResult.Status.COMPLETED);
            assertThat(sink.count.get()).isEqualTo(256);
            assertThat(r.phases().get(0).bytesTrimmed() + r.phases().get(0).bytesRead())
                    .isEqualTo(1L << 20);
        }
    }

    private static boolean run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void psyncEngineAlsoStopsOnADeviceError(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("t.dat");
        long size = 4L << 20;
        Files.write(f, new byte[(int) size]);
        try (SyncDirectIoEngine inner = new SyncDirectIoEngine()) {
            inner.open(f, size, true, true);
            FaultInjectingIoEngine e = FaultInjectingIoEngine.failing(inner, 200, IoStatus.ENOSPC);
            RecordingSink sink = new RecordingSink();
            DeviceRunResult r = new DeviceRunner(e, DeviceRunOptions.forTarget(size, false, false))
                    .run(spec(size, io("w", 0, 1, 4).durationNs(30_000 * MS).build()), sink, DeviceRunListener.NONE);
            assertThat(r.status()).isEqualTo(DeviceRunResult.Status.FAILED);
            assertThat(r.reason()).contains("errno 28");
            assertThat(r.phases().get(0).errors()).isBetween(1L, 4L).isEqualTo(sink.errors.get());
        }
    }
}
