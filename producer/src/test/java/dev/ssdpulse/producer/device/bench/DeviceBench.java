package dev.ssdpulse.producer.device.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoEngineChoice;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * One fio-equivalent job on the device engine without the command around it (bench/device-vs-fio.sh runs the real
 * {@code device} command; this isolates the engine and runner).
 * Usage: {@code DeviceBench FILE RW(randread|randwrite) BS QD SECONDS [null|null-queued|psync|libaio|io_uring]}
 * (default psync); prints one line {@code ssdpulse engine=.. rw=.. bs=.. qd=.. ios=.. errors=.. iops=.. meanLatUs=..
 * cpuUsPerIo=..}. The completion sink only counts and sums latency, so the number is the engine's and the runner's,
 * without recording or Kafka; cpuUsPerIo is the process's CPU time over the run divided by its I/Os.
 */
public final class DeviceBench {
    private DeviceBench() {}

    /** Cost and resolution of System.nanoTime(), the clock every latency is measured with. */
    private static void clock() {
        long sink = 0;
        for (int round = 0; round < 3; round++) {
            int n = 20_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += System.nanoTime();
            }
            long t1 = System.nanoTime();
            long minStep = Long.MAX_VALUE;
            for (int i = 0; i < 1_000_000; i++) {
                long a = System.nanoTime();
                long b = System.nanoTime();
                while (b == a) {
                    b = System.nanoTime();
                }
                minStep = Math.min(minStep, b - a);
            }
            System.out.printf(
                    "nanoTime: %.1f ns per call, smallest observed step %d ns%n", (t1 - t0) / (double) n, minStep);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("clock")) {
            clock();
            return;
        }
        if (args.length < 5) {
            System.err.println("usage: DeviceBench FILE randread|randwrite BS QD SECONDS [null]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        boolean read = switch (args[1]) {
            case "randread" -> true;
            case "randwrite" -> false;
            default -> throw new IllegalArgumentException("rw must be randread or randwrite, got " + args[1]);
        };
        int bs = Integer.parseInt(args[2]);
        int qd = Integer.parseInt(args[3]);
        long seconds = Long.parseLong(args[4]);
        String engineName = args.length > 5 ? args[5] : "psync";
        boolean nullEngine = engineName.startsWith("null");
        long size = Files.size(file);
        PhaseSpec phase = PhaseSpec.builder("bench", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(bs, 100, read ? 100 : 0, 100))
                .queueDepth(qd)
                .workers(1)
                .durationNs(seconds * 1_000_000_000L)
                .build();
        WorkloadSpec spec = new WorkloadSpec("bench", "device-vs-fio", 42, OptionalLong.of(size), List.of(phase));
        long[] acc = new long[2];
        IoCompletionSink sink = (w, p, op, off, sz, submit, lat, q, status) -> {
            acc[0]++;
            acc[1] += lat;
            if (status != 0) {
                acc[0] += 1L << 40; // flags errors loudly in the count
            }
        };
        IoEngine chosen = engineName.equals("null-queued")
                ? NullIoEngine.queued(512, qd)
                : IoEngineChoice.choose(engineName, qd).engine();
        HostFacts facts = new HostFactsCollector().collect(file, true, chosen.name());
        System.err.printf(
                "host facts: kernel=%s disk=%s scheduler=%s model=%s capacity=%s lbs=%s cpu=%s x%d unavailable=%s%n",
                facts.kernel(),
                facts.blockDevice(),
                facts.ioScheduler(),
                facts.model(),
                facts.capacityBytes(),
                facts.logicalBlockSizeBytes(),
                facts.cpuModel(),
                facts.cpuCount(),
                facts.unavailable().keySet());
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (IoEngine engine = chosen) {
            engine.open(file, size, true, !read);
            long cpu0 = os.getProcessCpuTime();
            DeviceRunResult r = new DeviceRunner(engine, DeviceRunOptions.forTarget(size, false, false))
                    .run(spec, sink, DeviceRunListener.NONE);
            long cpuNs = os.getProcessCpuTime() - cpu0;
            double secs = r.phases().get(0).endNs() / 1e9 - r.phases().get(0).startNs() / 1e9;
            System.out.printf(
                    "ssdpulse engine=%s rw=%s bs=%d qd=%d ios=%d errors=%d iops=%.0f meanLatUs=%.1f"
                            + " cpuUsPerIo=%.3f status=%s%n",
                    engine.name(),
                    args[1],
                    bs,
                    qd,
                    r.totalIos(),
                    r.totalErrors(),
                    r.totalIos() / secs,
                    r.totalIos() == 0 ? 0 : acc[1] / (double) r.totalIos() / 1000,
                    r.totalIos() == 0 ? 0 : cpuNs / 1e3 / r.totalIos(),
                    r.status());
        }
    }
}
