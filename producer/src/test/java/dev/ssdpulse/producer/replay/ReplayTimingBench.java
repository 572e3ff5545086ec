package dev.ssdpulse.producer.replay;

import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.PhaseOutcome;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.LibaioIoEngine;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.engine.SyncDirectIoEngine;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The replay engine's timing accuracy against recorded timestamps (bench/replay-timing.sh): a trace of COUNT 4 KiB
 * reads at unique offsets, recorded gaps drawn from a fixed seed (70 % 100-500 us, 25 % 1-5 ms, 5 % 10-30 ms of
 * think time), replayed with recorded timing at QD 32 by the device runner. Per I/O, d = its submit time (the engine's
 * stamp, as the sink receives it) minus its recorded time; the issue-time error is d minus the smallest d of the
 * run, so the most punctual I/O defines the replay's time origin: how far the replay moved each I/O from where the
 * trace put it, relative to the others (a lower bound of the lag from the true origin by that I/O's own lag, the
 * wake-up latency). The runner's own measure, the lag from the phase's origin at the moment it submits, is printed
 * too. ENGINE timer is the host's floor: no I/O and no runner, one thread parking until each recorded time (as the
 * runner parks) and noting when it woke. Usage: ReplayTimingBench ENGINE(timer|null|libaio|psync) COUNT WORK_DIR
 */
public final class ReplayTimingBench {
    private ReplayTimingBench() {}

    public static void main(String[] args) throws Exception {
        String engineName = args[0];
        int count = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        long[] recordedUs = writeTrace(dir.resolve("timing.iolog"), count);
        if (engineName.equals("timer")) {
            timer(recordedUs);
            return;
        }
        long target = (long) count * 4096 + (1 << 20);
        Path file = dir.resolve("timing-target.bin");
        if (!engineName.equals("null") && (!Files.exists(file) || Files.size(file) < target)) {
            try (var ch = java.nio.channels.FileChannel.open(
                    file, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 << 20);
                for (long pos = 0; pos < target; pos += b.capacity()) {
                    b.clear();
                    ch.write(b, pos);
                }
            }
        }
        Path workload = dir.resolve("timing.yaml");
        Files.writeString(
                workload,
                "name: timing\nphases:\n  - {name: t, kind: REPLAY, trace: timing.iolog, timing: recorded,"
                        + " queueDepth: 32, remap: none}\n");
        WorkloadSpec spec = new WorkloadLoader().load(workload);
        long[] submitNs = new long[count];
        Arrays.fill(submitNs, Long.MIN_VALUE);
        IoCompletionSink sink = (worker, phase, op, offset, size, submit, latency, qd, status) ->
                submitNs[(int) (offset / 4096)] = submit;
        ReplayResult[] replay = new ReplayResult[1];
        DeviceRunListener listener = new DeviceRunListener() {
            @Override
            public void onPhaseEnded(ScheduledPhase phase, PhaseOutcome outcome) {
                replay[0] = outcome.replay();
            }
        };
        try (IoEngine engine = engine(engineName)) {
            engine.open(engineName.equals("null") ? null : file, target, true, false);
            DeviceRunResult r = new DeviceRunner(engine, DeviceRunOptions.forTarget(target, false, false))
                    .run(spec, sink, listener);
            if (r.status() != DeviceRunResult.Status.COMPLETED) {
                throw new IllegalStateException(r.reason());
            }
        }
        long[] d = new long[count];
        for (int i = 0; i < count; i++) {
            if (submitNs[i] == Long.MIN_VALUE) {
                throw new IllegalStateException("I/O " + i + " was not replayed");
            }
            d[i] = submitNs[i] - recordedUs[i] * 1000;
        }
        long origin = Arrays.stream(d).min().orElseThrow();
        long[] errorNs = Arrays.stream(d).map(v -> v - origin).sorted().toArray();
        System.out.printf(
                Locale.ROOT,
                "%s: %d I/Os over %.1f s recorded; issue-time error p50 %.1f us, p99 %.1f us, max %.1f us;"
                        + " runner's lag p50 %.1f us, p99 %.1f us, late (> 1 ms) %d%n",
                engineName,
                count,
                (recordedUs[count - 1] - recordedUs[0]) / 1e6,
                errorNs[(int) Math.ceil(0.50 * count) - 1] / 1e3,
                errorNs[(int) Math.ceil(0.99 * count) - 1] / 1e3,
                errorNs[count - 1] / 1e3,
                replay[0].issueLagP50Ns() / 1e3,
                replay[0].issueLagP99Ns() / 1e3,
                replay[0].lateIssueCount());
    }

    /** Parks until each recorded time relative to the first, as the runner does, and reports the wake-up error. */
    private static void timer(long[] recordedUs) {
        int count = recordedUs.length;
        long[] errorNs = new long[count];
        long origin = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long due = origin + (recordedUs[i] - recordedUs[0]) * 1000;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            errorNs[i] = System.nanoTime() - due;
        }
        long min = Arrays.stream(errorNs).min().orElseThrow();
        long[] sorted = Arrays.stream(errorNs).map(v -> v - min).sorted().toArray();
        long late = Arrays.stream(errorNs)
                .filter(v -> v > ReplayGenerator.LATE_THRESHOLD_NS)
                .count();
        System.out.printf(
                Locale.ROOT,
                "timer: %d wake-ups over %.1f s recorded; issue-time error p50 %.1f us, p99 %.1f us, max %.1f us;"
                        + " late (> 1 ms) %d%n",
                count,
                (recordedUs[count - 1] - recordedUs[0]) / 1e6,
                sorted[(int) Math.ceil(0.50 * count) - 1] / 1e3,
                sorted[(int) Math.ceil(0.99 * count) - 1] / 1e3,
                sorted[count - 1] / 1e3,
                late);
    }

    private static IoEngine engine(String name) {
        return switch (name) {
            case "null" -> NullIoEngine.queued(512, 32);
            case "libaio" -> new LibaioIoEngine(32);
            case "psync" -> new SyncDirectIoEngine();
            default -> throw new IllegalArgumentException("engine null, libaio or psync, not " + name);
        };
    }

    /** The trace; returns each I/O's recorded time in microseconds. */
    static long[] writeTrace(Path trace, int count) throws IOException {
        SplittableRandom r = new SplittableRandom(39);
        long[] times = new long[count];
        long t = 0;
        try (BufferedWriter w = Files.newBufferedWriter(trace, StandardCharsets.US_ASCII)) {
            w.write("fio version 3 iolog\n0 /dev/x add\n");
            for (int i = 0; i < count; i++) {
                int kind = r.nextInt(100);
                t += kind < 70
                        ? 100 + r.nextInt(401)
                        : kind < 95 ? 1_000 + r.nextInt(4_001) : 10_000 + r.nextInt(20_001);
                times[i] = t;
                w.write(t + " /dev/x read " + (long) i * 4096 + " 4096\n");
            }
        }
        return times;
    }
}
