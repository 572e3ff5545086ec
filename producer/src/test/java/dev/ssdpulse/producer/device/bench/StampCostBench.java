package dev.ssdpulse.producer.device.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.PhaseOutcome;
import dev.ssdpulse.producer.device.WriteStamps;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The cost of stamped writes (verify: true) on the tool's own ceiling: 4 KiB random writes on the queued null engine
 * (no device: what the runner, the data and the recording cost), unstamped (the incompressible data pattern) and
 * stamped, in alternated rounds of one JVM, each round a warm-up phase then a measured one. The sink records every
 * I/O into I/O batches as the publisher does (a stamped write's sequence and flags included), without Kafka.
 * Usage: {@code StampCostBench [SECONDS=5] [QD=1] [ROUNDS=5]}; prints each round and the medians (bench/stamp-cost.sh).
 */
public final class StampCostBench {
    private static final long TARGET = 64L << 30;

    private StampCostBench() {}

    /** Records into I/O batches and keeps nothing (a batch is dropped when cut). */
    private static final class BatchSink implements IoCompletionSink {
        private final IoBatchBuilder builder = new IoBatchBuilder("bench", 0);
        long batches;

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
            IoBatch b =
                    builder.add(phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
            batches += b == null ? 0 : 1;
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
                int status,
                long writeSequence,
                int ioFlags) {
            IoBatch b = builder.add(
                    phaseIndex,
                    op,
                    offsetBytes,
                    sizeBytes,
                    submitTimeNs,
                    latencyNs,
                    queueDepth,
                    status,
                    writeSequence,
                    ioFlags);
            batches += b == null ? 0 : 1;
        }
    }

    /** {IOPS, CPU us per I/O} of the measured phase. */
    private static double[] round(boolean stamped, long seconds, int qd) {
        PhaseSpec.Builder phase = PhaseSpec.builder("warm-up", PhaseKind.OTHER)
                .accessSpec(AccessSpec.of(4096, 100, 0, 100))
                .queueDepth(qd)
                .durationNs(2_000_000_000L);
        List<dev.ssdpulse.producer.workload.WorkloadStep> phases = List.of(
                phase.build(),
                phase.name("measured")
                        .kind(PhaseKind.TEST)
                        .durationNs(seconds * 1_000_000_000L)
                        .build());
        WorkloadSpec spec = new WorkloadSpec("stamp-cost", "bench", 7, OptionalLong.of(TARGET), phases, stamped);
        NullIoEngine engine = NullIoEngine.queued(4096, qd);
        engine.open(null, TARGET, true, true);
        DeviceRunOptions options = DeviceRunOptions.forTarget(TARGET, false, false);
        if (stamped) {
            options = options.withStamps(WriteStamps.forRun("stamp-cost", 7));
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] cpuAtPhase = new long[2];
        DeviceRunListener listener = new DeviceRunListener() {
            @Override
            public void onPhaseStarted(dev.ssdpulse.producer.workload.ScheduledPhase p, long timeNs) {
                cpuAtPhase[0] = os.getProcessCpuTime();
            }

            @Override
            public void onPhaseEnded(dev.ssdpulse.producer.workload.ScheduledPhase p, PhaseOutcome o) {
                cpuAtPhase[1] = os.getProcessCpuTime() - cpuAtPhase[0];
            }
        };
        DeviceRunResult r = new DeviceRunner(engine, options).run(spec, new BatchSink(), listener);
        PhaseOutcome measured = r.phases().get(1);
        return new double[] {measured.iops(), cpuAtPhase[1] / 1e3 / measured.ios()};
    }

    public static void main(String[] args) {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 5;
        int qd = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        List<double[]> plain = new ArrayList<>();
        List<double[]> stamped = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            // alternated, each kind first in every other round, so a drift of the machine hits both
            boolean stampedFirst = i % 2 == 1;
            for (int k = 0; k < 2; k++) {
                boolean s = (k == 0) == stampedFirst;
                double[] m = round(s, seconds, qd);
                (s ? stamped : plain).add(m);
                System.out.printf(
                        Locale.ROOT,
                        "round %d %-9s qd=%d iops=%.0f cpuUsPerIo=%.3f load=%s%n",
                        i + 1,
                        s ? "stamped" : "unstamped",
                        qd,
                        m[0],
                        m[1],
                        load());
            }
        }
        double p = median(plain, 0);
        double s = median(stamped, 0);
        System.out.printf(
                Locale.ROOT,
                "median qd=%d unstamped %.0f IOPS (%.3f us CPU/IO), stamped %.0f IOPS (%.3f us CPU/IO):"
                        + " stamped/unstamped %.3f (cost %.1f %%); median of the rounds' ratios %.3f%n",
                qd,
                p,
                median(plain, 1),
                s,
                median(stamped, 1),
                s / p,
                100 * (1 - s / p),
                medianRatio(plain, stamped));
    }

    private static double median(List<double[]> xs, int i) {
        double[] v = xs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static double medianRatio(List<double[]> plain, List<double[]> stamped) {
        double[] r = new double[plain.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = stamped.get(i)[0] / plain.get(i)[0];
        }
        Arrays.sort(r);
        return r.length % 2 == 1 ? r[r.length / 2] : (r[r.length / 2 - 1] + r[r.length / 2]) / 2;
    }

    private static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
