package dev.ssdpulse.producer.device.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.ssdpulse.producer.workload.DataPattern;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class PatternFillerTest {
    private static final int SIZE = 256 * 1024;

    private static byte[] fill(DataPattern p, IoSlot slot) {
        new PatternFiller(p, 7).fill(slot, SIZE);
        byte[] b = new byte[SIZE];
        slot.buffer.duplicate().get(b);
        return b;
    }

    private static double ratio(byte[] data) {
        Deflater d = new Deflater(Deflater.BEST_SPEED);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length * 2];
        int n = 0;
        while (!d.finished()) {
            n += d.deflate(out, n, out.length - n);
        }
        return (double) data.length / n;
    }

    @Test
    void incompressibleDoesNotCompressAndDiffersPerWrite() {
        IoSlot slot = IoSlot.allocate(SIZE, 4096);
        PatternFiller f = new PatternFiller(DataPattern.incompressible(), 1);
        f.fill(slot, SIZE);
        byte[] first = new byte[SIZE];
        slot.buffer.duplicate().get(first);
        f.fill(slot, SIZE);
        byte[] second = new byte[SIZE];
        slot.buffer.duplicate().get(second);
        assertThat(ratio(first)).isLessThan(1.01);
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void aWriteLargerThanTheSlotsPreviousRequestIsFilledWhole() {
        // the psync engine leaves the buffer's limit at its last request's size: a larger write must still be filled
        IoSlot slot = IoSlot.allocate(SIZE, 4096);
        slot.buffer.clear().limit(4096);
        new PatternFiller(DataPattern.incompressible(), 3).fill(slot, SIZE);
        assertThat(slot.buffer
                        .duplicate()
                        .clear()
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getLong(SIZE - 8))
                .isNotZero();
    }

    @Test
    void compressibleReachesAboutTheRatio() {
        assertThat(ratio(fill(DataPattern.compressible(2.0), IoSlot.allocate(SIZE, 4096))))
                .isCloseTo(2.0, offset(0.15));
        assertThat(ratio(fill(DataPattern.compressible(4.0), IoSlot.allocate(SIZE, 4096))))
                .isCloseTo(4.0, offset(0.4));
    }

    @Test
    void zerosAreRestoredAfterARead() {
        IoSlot slot = IoSlot.allocate(SIZE, 4096);
        PatternFiller zeros = new PatternFiller(DataPattern.zeros(), 1);
        new PatternFiller(DataPattern.incompressible(), 3).fill(slot, SIZE); // stands for data left by a read
        slot.holdsReadData = true;
        zeros.fill(slot, SIZE);
        byte[] b = new byte[SIZE];
        slot.buffer.duplicate().get(b);
        assertThat(b).containsOnly((byte) 0);
    }

    @Test
    void everyWordUpToTheSizeIsWrittenTheSameForTheSameSeedAndNothingBeyond() {
        int size = 4096 + 40; // four-word blocks, then a tail of five words
        IoSlot one = IoSlot.allocate(8192, 4096);
        IoSlot two = IoSlot.allocate(8192, 4096);
        new PatternFiller(DataPattern.incompressible(), 11).fill(one, size);
        new PatternFiller(DataPattern.incompressible(), 11).fill(two, size);
        ByteBuffer a = one.buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < size; i += 8) {
            assertThat(a.getLong(i)).as("word at byte %d", i).isNotZero();
        }
        for (int i = size; i < 8192; i++) {
            assertThat(a.get(i)).as("byte %d, past the size", i).isZero();
        }
        assertThat(one.buffer.duplicate()).isEqualTo(two.buffer.duplicate());
        IoSlot other = IoSlot.allocate(8192, 4096);
        new PatternFiller(DataPattern.incompressible(), 12).fill(other, size);
        assertThat(other.buffer.duplicate()).isNotEqualTo(one.buffer.duplicate());
    }

    @Test
    void seedZeroStillGivesRandomData() {
        IoSlot slot = IoSlot.allocate(SIZE, 4096);
        new PatternFiller(DataPattern.incompressible(), 0).fill(slot, SIZE);
        byte[] b = new byte[SIZE];
        slot.buffer.duplicate().get(b);
        assertThat(ratio(b)).isLessThan(1.01);
    }
}
