package dev.ssdpulse.producer.sim.ftl.mapping;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PackedIntArrayTest {

    @Test
    void everyWidthReadsBackWhatWasWrittenWithoutDisturbingItsNeighbours() {
        SplittableRandom random = new SplittableRandom(1);
        for (int bits = 1; bits <= 32; bits++) {
            int length = 1000 + bits;
            PackedIntArray packed = new PackedIntArray(length, bits);
            long[] reference = new long[length];
            long max = (1L << bits) - 1;
            for (int op = 0; op < 20_000; op++) {
                int i = random.nextInt(length);
                // extremes often: all ones and zero are where a wrong mask shows
                long v = switch (random.nextInt(4)) {
                    case 0 -> max;
                    case 1 -> 0;
                    default -> random.nextLong(max + 1);
                };
                packed.set(i, (int) v);
                reference[i] = v;
            }
            for (int i = 0; i < length; i++) {
                assertThat(packed.get(i) & 0xffffffffL).as("bits %d index %d", bits, i).isEqualTo(reference[i]);
            }
        }
    }

    @Test
    void newEntriesAreZeroAndSizesAreThePackedBits() {
        PackedIntArray packed = new PackedIntArray(100, 29);
        for (int i = 0; i < 100; i++) {
            assertThat(packed.get(i)).isZero();
        }
        // 244,140,625 units of 4 KiB (1 TB) at 29 bits: 885 MB, one padding word
        assertThat(PackedIntArray.bytesFor(244_140_625L, 29)).isEqualTo(8 * ((244_140_625L * 29 + 63) / 64 + 1));
        assertThat(PackedIntArray.bitsFor(1L << 28)).isEqualTo(29);
        assertThat(PackedIntArray.bitsFor((1L << 28) - 1)).isEqualTo(28);
        assertThat(PackedIntArray.bitsFor(0)).isEqualTo(1);
    }

    @Test
    void rejectsWidthsOutsideOneToThirtyTwo() {
        assertThatThrownBy(() -> new PackedIntArray(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PackedIntArray(1, 33)).isInstanceOf(IllegalArgumentException.class);
    }
}
