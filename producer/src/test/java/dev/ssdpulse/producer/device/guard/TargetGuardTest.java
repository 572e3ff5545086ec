package dev.ssdpulse.producer.device.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.producer.device.engine.SyncDirectIoEngine;
import dev.ssdpulse.producer.workload.AccessSpec;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.PhaseKind;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.Span;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.producer.workload.WorkloadValidationException;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetGuardTest {
    @TempDir
    Path dir;

    private final TargetGuard guard = new TargetGuard();

    @Test
    void missingFileIsCreatedAtTheRequestedSizeWithData() throws Exception {
        Path f = dir.resolve("t.dat");
        PreparedTarget t = guard.prepare(f, OptionalLong.of(3 << 20), true, false);
        assertThat(t.created()).isTrue();
        assertThat(t.blockDevice()).isFalse();
        assertThat(t.sizeBytes()).isEqualTo(3 << 20);
        assertThat(Files.size(f)).isEqualTo(3 << 20);
        byte[] data = Files.readAllBytes(f);
        long nonZero = 0;
        for (int i = 0; i < data.length; i += 4096) {
            nonZero += data[i] != 0 ? 1 : 0;
        }
        assertThat(nonZero).as("filled, not sparse").isGreaterThan(700);
        assertThat(Files.exists(dir.resolve("t.dat.ssdpulse-partial"))).isFalse();
    }

    @Test
    void existingLargerFileIsUsedForItsFirstBytesAndNeverGrown() throws Exception {
        Path f = dir.resolve("big.dat");
        Files.write(f, new byte[8192]);
        PreparedTarget t = guard.prepare(f, OptionalLong.of(4096), false, false);
        assertThat(t.sizeBytes()).isEqualTo(4096);
        assertThat(t.created()).isFalse();
        assertThat(t.writable()).as("a read-only workload").isFalse();
        assertThat(t.notes()).singleElement().asString().contains("using its first 4096");
        assertThat(guard.prepare(f, OptionalLong.empty(), false, false).sizeBytes())
                .isEqualTo(8192);
        assertThatThrownBy(() -> guard.prepare(f, OptionalLong.of(16384), false, false))
                .isInstanceOf(TargetSafetyException.class)
                .hasMessageContaining("exists with 8192 bytes")
                .hasMessageContaining("never grows")
                .hasMessageContaining("at most 8192");
        assertThat(Files.size(f)).isEqualTo(8192);
    }

    /** The complaint: a writing run on an existing file of data overwrote it without --allow-destroy-data. */
    @Test
    void anExistingFileWithDataIsRefusedToAWritingWorkloadNamingItsSize() throws Exception {
        Path f = dir.resolve("photos.tar");
        byte[] data = new byte[(3 << 20) + 17];
        new Random(7).nextBytes(data);
        Files.write(f, data);
        for (OptionalLong size : List.of(OptionalLong.empty(), OptionalLong.of(1 << 20))) {
            assertThatThrownBy(() -> guard.prepare(f, size, true, false))
                    .isInstanceOf(TargetSafetyException.class)
                    .hasMessageContaining("refusing to write to " + f)
                    .hasMessageContaining("holds 3145745 B (3.15 MB, 3.00 MiB)")
                    .hasMessageContaining("its first MiB not all zeros")
                    .hasMessageContaining("--allow-destroy-data");
        }
        assertThat(Files.readAllBytes(f)).as("untouched").isEqualTo(data);

        PreparedTarget read = guard.prepare(f, OptionalLong.empty(), false, false);
        assertThat(read.writable())
                .as("reading destroys nothing, but opens read-only")
                .isFalse();

        PreparedTarget allowed = guard.prepare(f, OptionalLong.empty(), true, true);
        assertThat(allowed.writable()).isTrue();
        assertThat(allowed.created()).isFalse();
        assertThat(allowed.notes())
                .anySatisfy(n -> assertThat(n).contains("--allow-destroy-data given: overwriting the existing file"));
    }

    @Test
    void aFileOfZerosOrADiskImageIsStillAnExistingFileAndTheRefusalSaysWhatItHolds() throws Exception {
        Path zeros = dir.resolve("zeros.img");
        Files.write(zeros, new byte[2 << 20]);
        assertThatThrownBy(() -> guard.prepare(zeros, OptionalLong.empty(), true, false))
                .hasMessageContaining("holds 2097152 B (2.10 MB, 2.00 MiB), its first MiB all zeros");
        Path image = dir.resolve("disk.img");
        byte[] ext4 = new byte[1 << 20];
        ext4[1080] = 0x53;
        ext4[1081] = (byte) 0xEF;
        Files.write(image, ext4);
        assertThatThrownBy(() -> guard.prepare(image, OptionalLong.empty(), true, false))
                .hasMessageContaining("ext2/3/4 file system (magic 0xEF53 at byte 1080)");
        Path empty = Files.createFile(dir.resolve("empty"));
        assertThatThrownBy(() -> guard.prepare(empty, OptionalLong.of(4096), true, false))
                .as("an empty file holds no data, and is never grown")
                .hasMessageContaining("never grows");
    }

    /** Opened through its {@link PreparedTarget}, an engine cannot write to a target the guard kept read-only. */
    @Test
    void anEngineOpensForWritingOnlyWhereTheGuardAllows() throws Exception {
        Path f = dir.resolve("kept.dat");
        byte[] data = new byte[1 << 20];
        new Random(3).nextBytes(data);
        Files.write(f, data);
        PreparedTarget readOnly = guard.prepare(f, OptionalLong.empty(), false, false);
        try (SyncDirectIoEngine engine = new SyncDirectIoEngine()) {
            engine.open(readOnly, false);
            IoSlot slot = engine.allocateSlot(4096);
            slot.op = IoOpCode.WRITE;
            slot.offsetBytes = 0;
            slot.sizeBytes = 4096;
            engine.submit(slot);
            assertThat(slot.status)
                    .as("write refused by the read-only descriptor")
                    .isNotZero();
        }
        assertThat(Files.readAllBytes(f)).isEqualTo(data);
    }

    @Test
    void aWorkloadsTargetSizeAndSpansMustFitTheTargetBeforeAnythingIsWritten() throws Exception {
        PhaseSpec write = PhaseSpec.builder("test", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, 0, 100))
                .build();
        WorkloadSpec eightMib = new WorkloadSpec("w", "", 1, OptionalLong.of(8 << 20), List.of(write));
        Path missing = dir.resolve("new.dat");
        assertThatThrownBy(() -> guard.prepare(missing, OptionalLong.of(4 << 20), eightMib, false))
                .isInstanceOf(TargetSafetyException.class)
                .hasMessageContaining("targetSize of 8388608 B (8.39 MB, 8.00 MiB), larger than file " + missing)
                .hasMessageContaining("(4194304 B (4.19 MB, 4.00 MiB))");
        assertThat(missing).doesNotExist();

        PreparedTarget created = guard.prepare(missing, OptionalLong.empty(), eightMib, false);
        assertThat(created.created()).as("created at the workload's targetSize").isTrue();
        assertThat(created.sizeBytes()).isEqualTo(8 << 20);
        assertThat(Files.size(missing)).isEqualTo(8 << 20);

        WorkloadSpec span = new WorkloadSpec(
                "w",
                "",
                1,
                OptionalLong.empty(),
                List.of(write.toBuilder()
                        .span(new Span(Amount.ofBytes(0), Amount.ofBytes(16 << 20)))
                        .build()));
        Path other = dir.resolve("other.dat");
        assertThatThrownBy(() -> guard.prepare(other, OptionalLong.of(4 << 20), span, false))
                .isInstanceOf(WorkloadValidationException.class)
                .hasMessageContaining("[0, 16777216) is not inside a target of 4194304 B (4.19 MB, 4.00 MiB)");
        assertThat(other).doesNotExist();

        Path big = dir.resolve("big.dat");
        Files.write(big, new byte[16 << 20]);
        PreparedTarget region = guard.prepare(big, OptionalLong.empty(), eightMib, true);
        assertThat(region.sizeBytes()).as("the test region is the targetSize").isEqualTo(8 << 20);
        assertThat(region.notes()).anySatisfy(n -> assertThat(n).contains("using its first 8388608"));
    }

    @Test
    void missingFileWithoutSizeOrADirectoryIsRefused() {
        assertThatThrownBy(() -> guard.prepare(dir.resolve("nope"), OptionalLong.empty(), true, false))
                .hasMessageContaining("does not exist and no size was given");
        assertThatThrownBy(() -> guard.prepare(dir, OptionalLong.of(4096), true, false))
                .hasMessageContaining("neither a regular file nor a block device");
    }

    @Test
    void writesDataLooksAtEveryPhase() {
        PhaseSpec read = PhaseSpec.builder("r", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, 100, 100))
                .build();
        PhaseSpec mixed = PhaseSpec.builder("m", PhaseKind.TEST)
                .accessSpec(AccessSpec.of(4096, 100, 70, 100))
                .build();
        PhaseSpec purge = PhaseSpec.builder("p", PhaseKind.PURGE).build();
        assertThat(TargetGuard.writesData(spec(read))).isFalse();
        assertThat(TargetGuard.writesData(spec(read, mixed))).isTrue();
        assertThat(TargetGuard.writesData(spec(purge, read))).isTrue();
        assertThat(TargetGuard.writesData(spec(read.toBuilder().trim(true).build())))
                .isTrue();
    }

    private static WorkloadSpec spec(PhaseSpec... p) {
        return new WorkloadSpec("w", "", 1, OptionalLong.empty(), List.of(p));
    }

    /** A /sys/class/block-like directory for "sdz" with partition sdz1, and a /proc with mounts and swaps. */
    private Path fixtureDisk(boolean partition, boolean holder) throws Exception {
        Path disk = Files.createDirectories(dir.resolve("sys/devices/pci/block/sdz"));
        Files.writeString(disk.resolve("dev"), "8:0\n");
        Files.createDirectories(disk.resolve("holders"));
        if (partition) {
            Path p1 = Files.createDirectories(disk.resolve("sdz1"));
            Files.writeString(p1.resolve("dev"), "8:1\n");
            Files.writeString(p1.resolve("partition"), "1\n");
            Files.createDirectories(p1.resolve("holders"));
            if (holder) {
                Files.createDirectories(p1.resolve("holders/dm-0"));
            }
        }
        return disk;
    }

    private TargetGuard fixtureGuard(String mounts, String swaps) throws Exception {
        Path proc = Files.createDirectories(dir.resolve("proc/self"));
        Files.writeString(proc.resolve("mounts"), mounts);
        Files.writeString(dir.resolve("proc/mounts"), mounts);
        Files.writeString(dir.resolve("proc/swaps"), "Filename\tType\tSize\tUsed\tPriority\n" + swaps);
        return new TargetGuard(dir.resolve("proc"), dir.resolve("sys"));
    }

    @Test
    void mountedPartitionHoldersAndPartitionsAreReported() throws Exception {
        Path disk = fixtureDisk(true, true);
        Path content = dir.resolve("content");
        Files.write(content, new byte[1 << 16]);
        TargetGuard g = fixtureGuard(
                "/dev/vda / ext4 rw 0 0\n/dev/sdz1 /mnt/my\\040data ext4 rw,relatime 0 0\n",
                "/dev/sdz2 partition 1024 0 -2\n");
        List<String> problems = g.deviceProblems(content, "sdz", disk);
        assertThat(problems)
                .contains(
                        "mounted: sdz1 on /mnt/my data",
                        "held by dm-0 (device-mapper / MD RAID / LVM)",
                        "has partitions sdz1");
    }

    @Test
    void unusedBlankDiskHasNoProblemsAndSwapIsSeen() throws Exception {
        Path disk = fixtureDisk(false, false);
        Path content = dir.resolve("content");
        Files.write(content, new byte[1 << 16]);
        assertThat(fixtureGuard("/dev/vda / ext4 rw 0 0\n", "").deviceProblems(content, "sdz", disk))
                .isEmpty();
        assertThat(fixtureGuard("", "/dev/sdz\tpartition\t1024\t0\t-2\n").deviceProblems(content, "sdz", disk))
                .containsExactly("in use as swap: sdz");
    }

    @Test
    void majorMinorDecodingMatchesGlibc() {
        assertThat(TargetGuard.majorMinor(0xfe00)).isEqualTo("254:0");
        assertThat(TargetGuard.majorMinor(0x0801)).isEqualTo("8:1");
        // large minor (nvme partitions beyond 255): minor 0x12345 with major 259
        long dev = (259L & 0xfff) << 8 | (0x12345L & 0xff) | ((0x12345L & ~0xffL) << 12);
        assertThat(TargetGuard.majorMinor(dev)).isEqualTo("259:74565");
    }
}
