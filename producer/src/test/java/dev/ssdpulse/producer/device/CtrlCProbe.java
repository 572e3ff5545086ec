package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/** Child-JVM program for {@link ShutdownCancellationTest}: a 60 s run that must end ABORTED on SIGTERM/SIGINT. */
public final class CtrlCProbe {
    private CtrlCProbe() {}

    public static void main(String[] args) throws Exception {
        long size = 1 << 26;
        NullIoEngine engine = new NullIoEngine();
        engine.open(null, size, true, true);
        DeviceRunner runner = new DeviceRunner(engine, DeviceRunOptions.forTarget(size, false, false));
        PhaseSpec phase = PhaseSpec.builder("long", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, 50, 100))
                .queueDepth(2)
                .durationNs(60_000_000_000L)
                .rateLimitIops(OptionalLong.of(10_000))
                .build();
        AtomicLong ios = new AtomicLong();
        try (ShutdownCancellation hook = ShutdownCancellation.install(runner, Duration.ofSeconds(10))) {
            // "running" once the first I/O completed: the parent signals a run that has done I/O, with no sleep
            // guessing how long that takes
            DeviceRunResult r = runner.run(
                    new WorkloadSpec("p", "", 1, OptionalLong.of(size), List.of(phase)),
                    (w, p, op, off, sz, t, lat, qd, st) -> {
                        if (ios.incrementAndGet() == 1) {
                            System.out.println("running");
                            System.out.flush();
                        }
                    },
                    DeviceRunListener.NONE);
            Thread.sleep(200); // stands for flushing the publisher and sending RunFinished(ABORTED)
            System.out.println("status=" + r.status() + " reason=" + r.reason() + " ios=" + r.totalIos() + " delivered="
                    + ios.get());
            System.out.flush();
        }
    }
}
