package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.nio.file.ExtendedOpenOption;
import dev.ssdpulse.cli.CliRun;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.integrity.StampWriter;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The power-loss test end to end on this machine: a stamped run (the seed003-power-loss preset) on a loop device in
 * a child JVM, its producer killed with SIGKILL in the middle of the QD32 phase, the log in the real embedded broker;
 * then {@code ssdpulse verify} through the CLI. Untouched, every unit the log names is intact (or holds a newer write
 * the log never saw) under every durability model, read through a read-only loop device whose image stays
 * bit-identical. Altered by the test (units reverted to an older write's content, zeroed, one multi-unit write torn),
 * exactly those units are reported. And the bad inputs: a run still running, another device, a target smaller than
 * the run's span, a run without stamps.
 */
@ExtendWith(KafkaTestEnvironment.class)
class PowerLossVerifyIT {
    private static final long IMAGE_BYTES = 192L << 20;
    private static final long SEED = 1;

    @TempDir
    Path tmp;

    private final List<String> loops = new ArrayList<>();

    @Test
    void aRunKilledMidWayVerifiesIntactAndUnitsAlteredAfterwardsAreReportedExactly(TestStack stack) throws Exception {
        String runId = "it-power-loss-" + UUID.randomUUID().toString().substring(0, 8);
        Path image = tmp.resolve("drive.img");
        try {
            String loop = attach(image, IMAGE_BYTES, false);
            try (ChildJvm device = ChildJvm.start(
                    tmp.resolve("device.log"),
                    List.of(
                            "device",
                            "--target",
                            loop,
                            "--workload",
                            "seed003-power-loss",
                            "--set",
                            "span=96MiB",
                            "--set",
                            "qd1DurationS=1",
                            "--set",
                            "flushEvery=32",
                            "--allow-destroy-data",
                            "--batch-ios",
                            "64",
                            "--run-id",
                            runId,
                            "--bootstrap-servers",
                            stack.bootstrapServers(),
                            "--schema-registry-url",
                            stack.schemaRegistryUrl()))) {
                device.awaitOutput(Pattern.compile("\\] qd32 +[0-9,]+ I/Os"), Duration.ofMinutes(2));
                CliRun running = verify(stack, runId, loop);
                assertThat(running.exit()).as(running.output()).isEqualTo(Main.EXIT_BAD_INPUT);
                assertThat(running.err())
                        .contains("run " + runId + " is still RUNNING")
                        .contains("--force");
                device.kill();
            }
            String before = sha256(image);
            detach(loop);
            String readOnly = attach(image, 0, true);
            // the producer is gone: its last heartbeat is stale at once with --stale-after 1ms
            CliRun untouched = verify(stack, runId, readOnly, "--stale-after", "1ms", "--format", "json");
            assertThat(untouched.exit()).as(untouched.output()).isZero();
            JsonNode v = new ObjectMapper().readTree(untouched.out());
            assertThat(v.get("runStatus").isNull()).isTrue();
            assertThat(v.get("unitsChecked").asLong()).isPositive();
            JsonNode classes = v.get("classes");
            assertThat(classes.get("lost").asLong()).isZero();
            assertThat(classes.get("torn").asLong()).isZero();
            assertThat(classes.get("reverted").asLong()).isZero();
            assertThat(classes.get("intact").asLong() + classes.get("unlogged").asLong())
                    .isEqualTo(v.get("unitsChecked").asLong());
            assertThat(v.get("models"))
                    .hasSize(3)
                    .allSatisfy(m -> assertThat(m.get("lostUnits").asLong())
                            .as(m.get("model").asText())
                            .isZero());
            assertThat(v.get("coverage").get("flushes").asLong()).isPositive();
            assertThat(sha256(image))
                    .as("verification never writes to the target")
                    .isEqualTo(before);
            detach(readOnly);

            // what the run's log says each unit must hold, and the test's own changes to the image
            String again = attach(image, 0, false);
            List<Write> writes = writes(stack, runId);
            Alteration done = Alteration.apply(Path.of(again), writes, UnitStamp.runHash(runId));
            CliRun altered = verify(stack, runId, again, "--stale-after", "1ms", "--format", "json");
            assertThat(altered.exit()).as(altered.output()).isZero();
            JsonNode a = new ObjectMapper().readTree(altered.out());
            assertThat(a.get("classes").get("reverted").asLong()).isEqualTo(done.reverted());
            assertThat(a.get("classes").get("lost").asLong()).isEqualTo(done.zeroed());
            assertThat(a.get("lostContent").get("zeros").asLong()).isEqualTo(done.zeroed());
            assertThat(a.get("classes").get("torn").asLong()).isEqualTo(done.torn());
            JsonNode acknowledged = a.get("models").get(0);
            assertThat(acknowledged.get("model").asText()).isEqualTo("ACKNOWLEDGED");
            assertThat(acknowledged.get("lostUnits").asLong()).isEqualTo(done.reverted() + done.zeroed() + done.torn());
            assertThat(acknowledged.get("lostAsReverted").asLong()).isEqualTo(done.reverted());
            assertThat(acknowledged.get("lostAsTorn").asLong()).isEqualTo(done.torn());
            JsonNode flushed = a.get("models").get(1);
            assertThat(flushed.get("model").asText()).isEqualTo("FLUSHED");
            assertThat(flushed.get("lostUnits").asLong()).isEqualTo(done.lostUnderFlushed());
            assertThat(a.get("lostWrites").asLong()).isEqualTo(done.reverted() + done.zeroed() + 1);

            // another device of the same size: no unit carries the run's stamp
            String other = attach(tmp.resolve("other.img"), IMAGE_BYTES, false);
            CliRun wrong = verify(stack, runId, other, "--stale-after", "1ms");
            assertThat(wrong.exit()).as(wrong.output()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(wrong.err()).contains("carries a stamp of this run").doesNotContain("Exception");
            // a device smaller than the run's span
            String small = attach(tmp.resolve("small.img"), 32L << 20, false);
            CliRun tooSmall = verify(stack, runId, small, "--stale-after", "1ms");
            assertThat(tooSmall.exit()).as(tooSmall.output()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(tooSmall.err()).contains("smaller than run " + runId + "'s span");
        } finally {
            for (String loop : List.copyOf(loops)) {
                detach(loop);
            }
        }
    }

    @Test
    void aRunWrittenWithoutStampsIsRefusedWithTheReason(TestStack stack) throws Exception {
        String runId = "it-unstamped-" + UUID.randomUUID().toString().substring(0, 8);
        Path target = tmp.resolve("plain.bin");
        CliRun run = CliRun.of(
                "device",
                "--target",
                target.toString(),
                "--size",
                "16MiB",
                "--workload",
                "seed003-qd1-random-write-5000s",
                "--set",
                "durationS=1",
                "--set",
                "preconditionPercent=1",
                "--run-id",
                runId,
                "--quiet",
                "--bootstrap-servers",
                stack.bootstrapServers(),
                "--schema-registry-url",
                stack.schemaRegistryUrl());
        assertThat(run.exit()).as(run.output()).isZero();
        CliRun refused = verify(stack, runId, target.toString());
        assertThat(refused.exit()).as(refused.output()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(refused.err()).contains("run " + runId + " was written without stamps");
        CliRun unknown = verify(stack, runId + "-nope", target.toString());
        assertThat(unknown.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(unknown.err()).contains("no run '" + runId + "-nope'");
    }

    private static CliRun verify(TestStack stack, String runId, String target, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "verify",
                "--run",
                runId,
                "--target",
                target,
                "--quiet",
                "--bootstrap-servers",
                stack.bootstrapServers(),
                "--schema-registry-url",
                stack.schemaRegistryUrl()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** One logged write. */
    record Write(long seq, long offset, int size, long submitNs, long completeNs) {
        long firstUnit() {
            return offset / UnitStamp.UNIT_BYTES;
        }

        int units() {
            return size / UnitStamp.UNIT_BYTES;
        }
    }

    /** The run's successful stamped writes, and its FLUSHes as writes of size 0, from the I/O topic. */
    private static List<Write> writes(TestStack stack, String runId) throws IOException {
        List<Write> out = new ArrayList<>();
        Map<String, Object> props = Map.of("bootstrap.servers", stack.bootstrapServers());
        try (var registry = new HttpSchemaRegistryClient(stack.schemaRegistryUrl())) {
            IoBatchReader io = new IoBatchReader();
            for (IoStreamRecord r : RunRecords.read(props, registry, Topics.IO, runId, Duration.ofMinutes(1))) {
                if (r.getEvent() instanceof IoBatch batch) {
                    io.reset(batch);
                    while (io.next()) {
                        if (io.status() != 0) {
                            continue;
                        }
                        if (io.op() == IoOp.WRITE) {
                            out.add(new Write(
                                    io.writeSequence(),
                                    io.offsetBytes(),
                                    io.sizeBytes(),
                                    io.submitTimeNs(),
                                    io.completionTimeNs()));
                        } else if (io.op() == IoOp.FLUSH) {
                            out.add(new Write(-1, 0, 0, io.submitTimeNs(), io.completionTimeNs()));
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * The test's changes to the image, chosen from the log so that each has one right answer: five units reverted to
     * an older write that completed before the unit's last write was submitted, five units zeroed (both only where
     * the last write was a single 4 KiB unit with no write in flight beside it), and one 16 KiB write torn: its first
     * two units rewritten with its own content, the last two with older writes'.
     */
    record Alteration(long reverted, long zeroed, long torn, long lostUnderFlushed) {
        static Alteration apply(Path device, List<Write> log, long runHash) throws IOException {
            long lastFlush = log.stream()
                    .filter(w -> w.seq() < 0)
                    .mapToLong(Write::submitNs)
                    .max()
                    .orElse(-1);
            Map<Long, List<Write>> perUnit = new TreeMap<>();
            for (Write w : log) {
                for (long u = w.firstUnit(); w.seq() >= 0 && u < w.firstUnit() + w.units(); u++) {
                    perUnit.computeIfAbsent(u, k -> new ArrayList<>()).add(w);
                }
            }
            Map<Long, Write> last = new TreeMap<>();
            Map<Long, Write> older = new TreeMap<>();
            for (Map.Entry<Long, List<Write>> e : perUnit.entrySet()) {
                Write latest = e.getValue().stream()
                        .max((x, y) -> x.submitNs() != y.submitNs()
                                ? Long.compare(x.submitNs(), y.submitNs())
                                : Long.compare(x.seq(), y.seq()))
                        .orElseThrow();
                // one candidate only (no write in flight beside the last one), with at least a microsecond of margin
                boolean alone =
                        e.getValue().stream().allMatch(w -> w == latest || w.completeNs() + 2_000 < latest.submitNs());
                if (!alone) {
                    continue;
                }
                last.put(e.getKey(), latest);
                e.getValue().stream()
                        .filter(w -> w != latest)
                        .max((x, y) -> Long.compare(x.submitNs(), y.submitNs()))
                        .ifPresent(o -> older.put(e.getKey(), o));
            }
            CRC32C crc = new CRC32C();
            ByteBuffer unit =
                    ByteBuffer.allocateDirect(2 * UnitStamp.UNIT_BYTES).alignedSlice(UnitStamp.UNIT_BYTES);
            unit.limit(UnitStamp.UNIT_BYTES);
            long reverted = 0;
            long zeroed = 0;
            long torn = 0;
            long lostUnderFlushed = 0;
            List<Long> used = new ArrayList<>();
            try (FileChannel c = FileChannel.open(device, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
                for (Write w : last.values()) {
                    if (w.units() != 4 || torn > 0) {
                        continue;
                    }
                    long first = w.firstUnit();
                    boolean whole = true;
                    for (long u = first; u < first + 4; u++) {
                        whole &= last.get(u) == w && (u < first + 2 || older.containsKey(u));
                    }
                    if (!whole) {
                        continue;
                    }
                    for (long u = first; u < first + 4; u++) {
                        Write content = u < first + 2 ? w : older.get(u);
                        put(c, unit, crc, runHash, u, content);
                        used.add(u);
                    }
                    torn = 2;
                    // the two torn units lose the write under FLUSHED when it was flushed, or when the content
                    // they hold is older than the unit's flushed write
                    for (long u = first + 2; u < first + 4; u++) {
                        lostUnderFlushed += lostUnderFlushed(perUnit.get(u), older.get(u), lastFlush);
                    }
                }
                for (Map.Entry<Long, Write> e : last.entrySet()) {
                    long u = e.getKey();
                    if (e.getValue().units() != 1 || used.contains(u) || used.contains(u - 1) || used.contains(u + 1)) {
                        continue;
                    }
                    if (reverted < 5 && older.containsKey(u)) {
                        put(c, unit, crc, runHash, u, older.get(u));
                        lostUnderFlushed += lostUnderFlushed(perUnit.get(u), older.get(u), lastFlush);
                        reverted++;
                        used.add(u);
                    } else if (zeroed < 5 && reverted == 5) {
                        for (int i = 0; i < UnitStamp.UNIT_BYTES; i++) {
                            unit.put(i, (byte) 0);
                        }
                        c.write(unit.clear().limit(UnitStamp.UNIT_BYTES), u * UnitStamp.UNIT_BYTES);
                        lostUnderFlushed += lostUnderFlushed(perUnit.get(u), null, lastFlush);
                        zeroed++;
                        used.add(u);
                    }
                }
            }
            assertThat(torn).as("a 16 KiB write to tear").isEqualTo(2);
            assertThat(reverted).isEqualTo(5);
            assertThat(zeroed).isEqualTo(5);
            return new Alteration(reverted, zeroed, torn, lostUnderFlushed);
        }

        /** Whether a unit holding {@code held} (null: no stamp) lost a write that the last FLUSH made durable. */
        private static long lostUnderFlushed(List<Write> unitWrites, Write held, long lastFlushSubmitNs) {
            long floor = unitWrites.stream()
                    .filter(w -> lastFlushSubmitNs >= 0 && w.completeNs() < lastFlushSubmitNs)
                    .mapToLong(Write::submitNs)
                    .max()
                    .orElse(-1);
            if (floor < 0) {
                return 0;
            }
            return held == null || held.completeNs() < floor ? 1 : 0;
        }

        private static void put(FileChannel c, ByteBuffer unit, CRC32C crc, long runHash, long u, Write w)
                throws IOException {
            new StampWriter(runHash, SEED).write(unit, 0, u, w.seq(), w.units(), (int) (u - w.firstUnit()), 0, crc);
            c.write(unit.clear().limit(UnitStamp.UNIT_BYTES), u * UnitStamp.UNIT_BYTES);
        }
    }

    /** A loop device over {@code image} (created at {@code sizeBytes} unless 0); aborts the test without losetup. */
    private String attach(Path image, long sizeBytes, boolean readOnly) throws Exception {
        if (sizeBytes > 0) {
            try (FileChannel c = FileChannel.open(image, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                c.write(ByteBuffer.allocate(1), sizeBytes - 1);
            }
        }
        List<String> cmd = new ArrayList<>(List.of("losetup", "-f", "--show"));
        if (readOnly) {
            cmd.add("-r");
        }
        cmd.add(image.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("losetup not available: " + e.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Assumptions.assumeTrue(
                p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && out.startsWith("/dev/loop"),
                "losetup (needs root): " + out);
        loops.add(out);
        return out;
    }

    private void detach(String loop) throws Exception {
        new ProcessBuilder("losetup", "-d", loop).start().waitFor(10, TimeUnit.SECONDS);
        loops.remove(loop);
    }

    private static String sha256(Path file) throws Exception {
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = new byte[1 << 20];
            for (int n; (n = in.read(b)) > 0; ) {
                d.update(b, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }
}
