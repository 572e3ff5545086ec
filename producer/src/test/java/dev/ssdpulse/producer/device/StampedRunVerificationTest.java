package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoUringIoEngine;
import dev.ssdpulse.producer.device.engine.LibaioIoEngine;
import dev.ssdpulse.producer.device.engine.SyncDirectIoEngine;
import dev.ssdpulse.producer.integrity.DurabilityModel;
import dev.ssdpulse.producer.integrity.RunLog;
import dev.ssdpulse.producer.integrity.StampWriter;
import dev.ssdpulse.producer.integrity.UnitClass;
import dev.ssdpulse.producer.integrity.UnitContents;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.integrity.Verification;
import dev.ssdpulse.producer.integrity.VerificationReport;
import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WriteDurability;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stamped run on a file with each engine, read back with the asynchronous engine opened read-only and verified:
 * every unit intact; then the file altered (units reverted to an older write, zeroed, a multi-unit write torn) and
 * verification names exactly those units.
 */
class StampedRunVerificationTest {
    private static final long TARGET = 16L << 20;
    private static final long RUN_HASH = UnitStamp.runHash("stamped-run");
    private static final long SEED = 5;

    @TempDir
    Path tmp;

    /** Completions as the publisher gets them, replayed as a run log. */
    static final class LoggedRun implements IoCompletionSink, RunLog {
        final List<long[]> ios = new ArrayList<>();

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
            onIoCompleted(
                    worker,
                    phaseIndex,
                    op,
                    offsetBytes,
                    sizeBytes,
                    submitTimeNs,
                    latencyNs,
                    queueDepth,
                    status,
                    IoFlags.NO_SEQUENCE,
                    IoFlags.NONE);
        }

        @Override
        public synchronized void onIoCompleted(
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
            ios.add(new long[] {
                worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, status, writeSequence, ioFlags
            });
        }

        @Override
        public synchronized void stream(Visitor v) {
            for (long[] io : ios) {
                int worker = (int) io[0];
                int phase = (int) io[1];
                long complete = io[5] + io[6];
                switch ((byte) io[2]) {
                    case IoOpCode.WRITE ->
                        v.write(worker, phase, io[8], io[3], (int) io[4], io[5], complete, (int) io[9], (int) io[7]);
                    case IoOpCode.FLUSH -> v.flush(worker, phase, io[5], complete, (int) io[7]);
                    case IoOpCode.TRIM -> v.trim(worker, phase, io[3], io[4], io[5], complete, (int) io[7]);
                    default -> v.other(worker, phase, complete);
                }
            }
        }

        List<long[]> writes() {
            return ios.stream().filter(io -> io[2] == IoOpCode.WRITE).toList();
        }
    }

    private static WorkloadSpec stampedWorkload(int queueDepth) {
        PhaseSpec phase = PhaseSpec.builder("stamped", PhaseKind.TEST)
                .accessSpecs(List.of(
                        new AccessSpec(4096, 70, 0, 100, 4096, 0, 1), new AccessSpec(16384, 30, 0, 100, 4096, 0, 1)))
                .queueDepth(queueDepth)
                .workers(2)
                .totalBytes(Amount.ofBytes(24L << 20))
                .durability(new WriteDurability(16, 0, 10))
                .build();
        return new WorkloadSpec("stamped", "t", SEED, OptionalLong.of(TARGET), List.of(phase), true);
    }

    private LoggedRun run(Path file, Supplier<IoEngine> engines, int queueDepth) throws Exception {
        LoggedRun logged = new LoggedRun();
        try (IoEngine engine = engines.get()) {
            engine.open(file, TARGET, true, true);
            DeviceRunResult r = new DeviceRunner(
                            engine,
                            DeviceRunOptions.forTarget(TARGET, false, false)
                                    .withStamps(new WriteStamps(RUN_HASH, SEED)))
                    .run(stampedWorkload(queueDepth), logged, DeviceRunListener.NONE);
            assertThat(r.status()).as(r.reason()).isEqualTo(DeviceRunResult.Status.COMPLETED);
        }
        return logged;
    }

    private static VerificationReport verify(Path file, RunLog log) throws IOException {
        try (IoEngine reader = new LibaioIoEngine(16)) {
            reader.open(file, TARGET, true, false);
            ReadBack back = new ReadBack(reader, 256 << 10, 16, 10_000_000_000L);
            VerificationReport r = Verification.verify(
                    new Verification.Options(RUN_HASH, false, Verification.Listener.NONE),
                    log,
                    readOnlyChecked(file, back));
            assertThat(back.bytesRead()).isPositive();
            return r;
        }
    }

    /** The content source, checking while it reads that every descriptor open on the target is read-only. */
    private static UnitContents readOnlyChecked(Path file, ReadBack back) {
        return (extents, observer) -> {
            boolean[] checked = {false};
            back.read(extents, (lba, seen) -> {
                if (!checked[0]) {
                    checked[0] = true;
                    assertThat(descriptorAccessModes(file)).isNotEmpty().containsOnly(0); // O_RDONLY
                }
                observer.unit(lba, seen);
            });
        };
    }

    /** O_ACCMODE of every descriptor of this process open on {@code file}, from /proc/self/fdinfo. */
    static List<Integer> descriptorAccessModes(Path file) {
        List<Integer> modes = new ArrayList<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                Path target;
                try {
                    target = Files.readSymbolicLink(fd);
                } catch (IOException e) {
                    continue;
                }
                if (!target.equals(file.toRealPath())) {
                    continue;
                }
                for (String line : Files.readAllLines(
                        Path.of("/proc/self/fdinfo", fd.getFileName().toString()))) {
                    if (line.startsWith("flags:")) {
                        modes.add(Integer.parseInt(line.substring(6).trim(), 8) & 3);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return modes;
    }

    @Test
    void everyEngineStampsWhatItWritesAndAnUntouchedTargetIsIntactUnderEveryModel() throws Exception {
        assumeTrue(LibaioIoEngine.unavailableReason() == null, "libaio");
        Map<String, Supplier<IoEngine>> engines = new HashMap<>();
        engines.put("libaio", () -> new LibaioIoEngine(8));
        engines.put("psync", SyncDirectIoEngine::new);
        if (IoUringIoEngine.unavailableReason() == null) {
            engines.put("io_uring", () -> new IoUringIoEngine(8));
        }
        for (Map.Entry<String, Supplier<IoEngine>> e : engines.entrySet()) {
            Path file = tmp.resolve(e.getKey() + ".img");
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                c.truncate(TARGET);
                c.write(ByteBuffer.allocate(1), TARGET - 1);
            }
            LoggedRun logged = run(file, e.getValue(), 8);
            List<long[]> writes = logged.writes();
            assertThat(writes).allSatisfy(w -> assertThat(w[8]).isNotNegative());
            assertThat(writes.stream().mapToLong(w -> w[8]).distinct().count()).isEqualTo(writes.size());
            long fua = writes.stream().filter(w -> w[9] == IoFlags.FUA).count();
            assertThat(fua).as(e.getKey() + " FUA writes").isBetween(writes.size() / 20L, writes.size() / 5L);
            VerificationReport r = verify(file, logged);
            assertThat(r.unitsChecked()).as(e.getKey()).isPositive();
            assertThat(r.count(UnitClass.INTACT)).as(e.getKey()).isEqualTo(r.unitsChecked());
            for (DurabilityModel m : DurabilityModel.values()) {
                assertThat(r.model(m).lostUnits()).as(e.getKey() + " " + m).isZero();
            }
            assertThat(r.coverage().flushes()).isPositive();
            assertThat(r.model(DurabilityModel.FLUSHED).requiredUnits()).isPositive();
            assertThat(r.model(DurabilityModel.FUA).requiredUnits()).isPositive();
        }
    }

    @Test
    void unitsRevertedZeroedOrTornAfterTheRunAreReportedExactly() throws Exception {
        assumeTrue(LibaioIoEngine.unavailableReason() == null, "libaio");
        Path file = tmp.resolve("altered.img");
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(1), TARGET - 1);
        }
        // QD1, one worker at a time: every unit's last write is unambiguous
        LoggedRun logged = run(file, () -> new LibaioIoEngine(1), 1);
        Alterations done = Alterations.apply(file, logged.writes(), RUN_HASH, SEED);
        VerificationReport r = verify(file, logged);
        assertThat(r.count(UnitClass.REVERTED)).isEqualTo(done.reverted());
        assertThat(r.count(UnitClass.LOST)).isEqualTo(done.zeroed());
        assertThat(r.lost().zeros()).isEqualTo(done.zeroed());
        assertThat(r.count(UnitClass.TORN)).isEqualTo(done.torn());
        assertThat(r.count(UnitClass.UNLOGGED)).isZero();
        assertThat(r.count(UnitClass.INTACT))
                .isEqualTo(r.unitsChecked() - done.reverted() - done.zeroed() - done.torn());
        assertThat(r.model(DurabilityModel.ACKNOWLEDGED).lostUnits())
                .isEqualTo(done.reverted() + done.zeroed() + done.torn());
        assertThat(r.worstCases()).isNotEmpty();
    }

    /**
     * What a test did to a stamped target after its run: units rewritten with an older write's content of the same
     * unit, units zeroed, and one multi-unit write with its second half rewritten with the older content.
     */
    record Alterations(long reverted, long zeroed, long torn) {
        static Alterations apply(Path file, List<long[]> writes, long runHash, long seed) throws IOException {
            // per unit, every write in log order (QD1: log order is time order)
            Map<Long, List<long[]>> perUnit = new HashMap<>();
            for (long[] w : writes) {
                if (w[7] != 0) {
                    continue;
                }
                for (long u = w[3] / 4096; u < (w[3] + w[4]) / 4096; u++) {
                    perUnit.computeIfAbsent(u, k -> new ArrayList<>()).add(w);
                }
            }
            long reverted = 0;
            long zeroed = 0;
            long torn = 0;
            List<Long> tornUnits = new ArrayList<>();
            CRC32C crc = new CRC32C();
            ByteBuffer unit = ByteBuffer.allocate(UnitStamp.UNIT_BYTES);
            try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
                // one torn write: the latest 4-unit write whose units all still expect it and have older content
                for (int i = writes.size() - 1; i >= 0 && tornUnits.isEmpty(); i--) {
                    long[] w = writes.get(i);
                    if (w[4] != 16384) {
                        continue;
                    }
                    long first = w[3] / 4096;
                    boolean whole = true;
                    for (long u = first; u < first + 4; u++) {
                        List<long[]> ws = perUnit.get(u);
                        whole &= ws.get(ws.size() - 1) == w && ws.size() >= 2;
                    }
                    if (whole) {
                        for (long u = first + 2; u < first + 4; u++) {
                            List<long[]> ws = perUnit.get(u);
                            writeUnit(c, unit, crc, runHash, seed, u, ws.get(ws.size() - 2));
                            tornUnits.add(u);
                            torn++;
                        }
                    }
                }
                int n = 0;
                for (Map.Entry<Long, List<long[]>> e : perUnit.entrySet()) {
                    long u = e.getKey();
                    List<long[]> ws = e.getValue();
                    long[] last = ws.get(ws.size() - 1);
                    if (tornUnits.contains(u) || last[4] != 4096 || n++ % 7 != 0) {
                        continue; // single-unit writes only: a unit of a larger write would be torn, not lost
                    }
                    if (ws.size() >= 2 && reverted < 5) {
                        writeUnit(c, unit, crc, runHash, seed, u, ws.get(ws.size() - 2));
                        reverted++;
                    } else if (zeroed < 5) {
                        c.write(ByteBuffer.allocate(UnitStamp.UNIT_BYTES), u * UnitStamp.UNIT_BYTES);
                        zeroed++;
                    }
                }
            }
            assertThat(torn).isEqualTo(2);
            assertThat(reverted).isEqualTo(5);
            assertThat(zeroed).isEqualTo(5);
            return new Alterations(reverted, zeroed, torn);
        }

        /** The content write {@code w} put in unit {@code u}: the stamps are recomputable from the log alone. */
        private static void writeUnit(
                FileChannel c, ByteBuffer unit, CRC32C crc, long runHash, long seed, long u, long[] w)
                throws IOException {
            int units = (int) (w[4] / 4096);
            int index = (int) (u - w[3] / 4096);
            new StampWriter(runHash, seed).write(unit, 0, u, w[8], units, index, (int) w[9], crc);
            unit.clear();
            c.write(unit, u * UnitStamp.UNIT_BYTES);
            unit.clear();
        }
    }
}
