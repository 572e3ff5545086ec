package dev.ssdpulse.producer.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.device.DeviceRunListener;
import dev.ssdpulse.producer.device.DeviceRunOptions;
import dev.ssdpulse.producer.device.DeviceRunResult;
import dev.ssdpulse.producer.device.DeviceRunner;
import dev.ssdpulse.producer.device.engine.NullIoEngine;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace larger than the heap is streamed, never held: 10 million I/Os (a 300 MB iolog) replay in a JVM of 256 MiB
 * heap, on the null engine (the tool's own cost, no device).
 */
class LargeTraceStreamingTest {
    static final int IOS = 10_000_000;

    @Test
    void tenMillionIosReplayIn256MibOfHeap(@TempDir Path dir) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Replay.class.getName(),
                        dir.toString())
                .redirectErrorStream(true)
                .start();
        try {
            assertThat(child.waitFor(180, TimeUnit.SECONDS))
                    .as("the replay ends")
                    .isTrue();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.exitValue()).as(output).isZero();
            assertThat(output).contains("trace bytes > heap: true").contains("replayed " + IOS + " I/Os");
        } finally {
            child.destroyForcibly();
        }
    }

    /** Writes the trace, then replays it fast at QD 32 on the null engine, counting completions. */
    static final class Replay {
        public static void main(String[] args) throws IOException {
            Path dir = Path.of(args[0]);
            Path trace = dir.resolve("ten-million.iolog");
            try (BufferedWriter w = Files.newBufferedWriter(trace, StandardCharsets.US_ASCII)) {
                w.write("fio version 3 iolog\n");
                StringBuilder line = new StringBuilder(64);
                for (int i = 0; i < IOS; i++) {
                    line.setLength(0);
                    line.append(i).append(" x ").append(i % 8 == 0 ? "write " : "read ");
                    line.append(((long) i * 7919 % 262_144) * 4096).append(" 4096\n");
                    w.append(line);
                }
            }
            long traceBytes = Files.size(trace);
            System.out.println(
                    "trace bytes > heap: " + (traceBytes > Runtime.getRuntime().maxMemory()));
            Path workload = dir.resolve("w.yaml");
            Files.writeString(
                    workload,
                    "name: big\nphases:\n  - {name: big, kind: REPLAY, trace: ten-million.iolog, timing: fast,"
                            + " queueDepth: 32}\n");
            WorkloadSpec spec = new WorkloadLoader().load(workload);
            long[] count = new long[1];
            IoCompletionSink sink = (worker, phase, op, offset, size, submit, latency, qd, status) -> count[0]++;
            try (NullIoEngine engine = NullIoEngine.queued(512, 32)) {
                engine.open(null, 1L << 30, true, true);
                DeviceRunResult r = new DeviceRunner(engine, DeviceRunOptions.forTarget(1L << 30, false, false))
                        .run(spec, sink, DeviceRunListener.NONE);
                if (r.status() != DeviceRunResult.Status.COMPLETED) {
                    throw new IllegalStateException(r.reason());
                }
            }
            Files.delete(trace);
            System.out.println("replayed " + count[0] + " I/Os");
        }
    }
}
