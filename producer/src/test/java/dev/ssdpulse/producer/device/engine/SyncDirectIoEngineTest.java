package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.device.testing.LoopDevice;
import dev.ssdpulse.producer.workload.DataPattern;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyncDirectIoEngineTest {
    private static final int SIZE = 1 << 20;

    @TempDir
    Path dir;

    private Path file() throws IOException {
        Path f = dir.resolve("target.dat");
        Files.write(f, new byte[SIZE]);
        return f;
    }

    private static void io(IoEngine e, IoSlot s, byte op, long offset, int size) {
        s.op = op;
        s.offsetBytes = offset;
        s.sizeBytes = size;
        assertThat(e.submit(s)).as("sync engine completes in submit").isTrue();
    }

    @Test
    void directWriteThenReadBackReturnsThePattern() throws Exception {
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(file(), SIZE, true, true);
            assertThat(e.name()).isEqualTo("sync-direct-workers");
            int align = e.alignmentBytes();
            assertThat(align).isPositive();
            assertThat(Integer.bitCount(align)).isEqualTo(1);
            IoSlot w = e.allocateSlot(8192);
            new PatternFiller(DataPattern.incompressible(), 1).fill(w, 8192);
            byte[] written = new byte[8192];
            w.buffer.duplicate().clear().get(written);
            io(e, w, IoOpCode.WRITE, 16 * 4096, 8192);
            assertThat(w.status).isZero();
            assertThat(w.completeNanos).isGreaterThanOrEqualTo(w.submitNanos);

            IoSlot r = e.allocateSlot(8192);
            io(e, r, IoOpCode.READ, 16 * 4096, 8192);
            assertThat(r.status).isZero();
            byte[] read = new byte[8192];
            r.buffer.duplicate().clear().get(read);
            assertThat(read).isEqualTo(written);
            io(e, r, IoOpCode.FLUSH, 0, 0);
            assertThat(r.status).isZero();
        }
        // and the bytes really are in the file
        byte[] onDisk = Files.readAllBytes(dir.resolve("target.dat"));
        assertThat(onDisk[16 * 4096] | onDisk[16 * 4096 + 1] | onDisk[16 * 4096 + 2])
                .isNotZero();
    }

    @Test
    void misalignedDirectIoFailsWithAClearMessage() throws Exception {
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(file(), SIZE, true, true);
            IoSlot s = e.allocateSlot(8192);
            io(e, s, IoOpCode.READ, 100, 4096);
            assertThat(s.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError())
                    .contains("O_DIRECT needs offsets and sizes that are multiples of the block size")
                    .contains("offset 100 (remainder 100)");
            io(e, s, IoOpCode.WRITE, 0, 1000);
            assertThat(s.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError()).contains("size 1000");
        }
    }

    @Test
    void ioBeyondTheTargetIsRejectedSoTheFileNeverGrows() throws Exception {
        Path f = file();
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(f, SIZE, true, true);
            IoSlot s = e.allocateSlot(4096);
            io(e, s, IoOpCode.WRITE, SIZE, 4096);
            assertThat(s.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError()).contains("outside the target").contains("never grows");
        }
        assertThat(Files.size(f)).isEqualTo(SIZE);
    }

    private static byte[] read(IoEngine e, long offset, int size) {
        IoSlot r = e.allocateSlot(size);
        io(e, r, IoOpCode.READ, offset, size);
        assertThat(r.status).isZero();
        byte[] bytes = new byte[size];
        r.buffer.duplicate().clear().get(bytes);
        return bytes;
    }

    private static void writePattern(IoEngine e, long offset, int size) {
        IoSlot w = e.allocateSlot(size);
        new PatternFiller(DataPattern.incompressible(), 7).fill(w, size);
        io(e, w, IoOpCode.WRITE, offset, size);
        assertThat(w.status).isZero();
    }

    private static boolean allZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Writes 64 KiB, TRIMs [16, 32) KiB, reads back: the hole reads as zeros, the rest keeps its data. */
    private static void assertTrimDiscardsOnlyItsRange(SyncDirectIoEngine e) {
        assertThat(e.supportsTrim()).as(e.trimMethod()).isTrue();
        writePattern(e, 0, 65536);
        IoSlot t = e.allocateSlot(4096);
        io(e, t, IoOpCode.TRIM, 16384, 16384);
        assertThat(t.status).as(e.lastError()).isZero();
        assertThat(t.completeNanos).isGreaterThanOrEqualTo(t.submitNanos);
        byte[] after = read(e, 0, 65536);
        assertThat(allZero(after, 16384, 32768))
                .as("trimmed range reads as zeros")
                .isTrue();
        assertThat(allZero(after, 0, 16384)).as("data before the range kept").isFalse();
        assertThat(allZero(after, 32768, 65536)).as("data after the range kept").isFalse();
    }

    @Test
    void trimPunchesAHoleInAFileTargetWhichKeepsItsSize() throws Exception {
        Path f = file();
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(f, SIZE, true, true);
            assertThat(e.trimMethod()).startsWith("fallocate(PUNCH_HOLE");
            assertTrimDiscardsOnlyItsRange(e);
            IoSlot outside = e.allocateSlot(4096);
            io(e, outside, IoOpCode.TRIM, SIZE - 4096, 8192);
            assertThat(outside.status).isEqualTo(IoStatus.EINVAL);
            assertThat(e.lastError()).contains("outside the target");
        }
        assertThat(Files.size(f)).isEqualTo(SIZE);
    }

    @Test
    void trimDiscardsOnARealBlockDevice(@TempDir Path images) throws Exception {
        try (LoopDevice loop = LoopDevice.attach(images.resolve("disk.img"), new byte[8 << 20], false);
                SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(loop.path(), 8 << 20, true, true);
            assertThat(e.trimMethod()).startsWith("ioctl(BLKDISCARD)");
            assertTrimDiscardsOnlyItsRange(e);
        }
    }

    @Test
    void trimOnATargetOpenedReadOnlyIsUnsupportedWithTheReason() throws Exception {
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(file(), SIZE, true, false);
            assertThat(e.supportsTrim()).isFalse();
            IoSlot s = e.allocateSlot(4096);
            io(e, s, IoOpCode.TRIM, 0, 4096);
            assertThat(s.status).isEqualTo(IoStatus.EOPNOTSUPP);
            assertThat(e.lastError()).contains("not open for writing");
        }
    }

    @Test
    void readOnlyOpenRefusesWritesAndMissingFileNamesThePath() throws Exception {
        try (SyncDirectIoEngine e = new SyncDirectIoEngine()) {
            e.open(file(), SIZE, true, false);
            IoSlot s = e.allocateSlot(4096);
            io(e, s, IoOpCode.WRITE, 0, 4096);
            assertThat(s.status).isEqualTo(IoStatus.EIO);
            assertThat(e.lastError()).contains("write of 4096 bytes at offset 0 failed");
        }
        assertThatThrownBy(() -> new SyncDirectIoEngine().open(dir.resolve("missing"), SIZE, true, true))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("missing")
                .hasMessageContaining("O_DIRECT");
    }

    @Test
    void slotBuffersAreAligned() {
        IoSlot s = IoSlot.allocate(4096, 4096);
        assertThat(s.capacityBytes()).isEqualTo(4096);
        assertThat(s.buffer.isDirect()).isTrue();
        assertThat(s.buffer.alignmentOffset(0, 4096)).isZero();
    }

    @Test
    void nullEngineCompletesAtOnceAndChecksBounds() {
        NullIoEngine e = new NullIoEngine();
        e.open(null, 8192, true, true);
        IoSlot s = e.allocateSlot(4096);
        io(e, s, IoOpCode.WRITE, 4096, 4096);
        assertThat(s.status).isZero();
        assertThat(s.latencyNs()).isBetween(0L, 1_000_000L);
        io(e, s, IoOpCode.READ, 8192, 4096);
        assertThat(s.status).isEqualTo(IoStatus.EINVAL);
    }
}
