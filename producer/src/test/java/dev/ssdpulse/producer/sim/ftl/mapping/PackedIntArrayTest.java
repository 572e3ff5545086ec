package dev.ssdpulse.producer.sim.ftl.mapping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

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
                assertThat(packed.get(i) & 0xffffffffL)
                        .as("bits %d index %d", bits, i)
                        .isEqualTo(reference[i]);
            }
        }
    }

    @Test
    void newEntriesAreZeroAndSizesAreThePackedBits() {
        PackedIntArray packed = new PackedIntArray(100, 29);
        for (int i = 0; i < 100; i++) {
            assertThat(packed.get(i)).isZero();
        }
        // 244,140,625 units of 4 KiB (1 TB) at 29 bits: 885 MB, plus per page of 4,096 entries a padding word, a
        // header and a reference in the page table (59,605 pages, the last of 2,641 entries: 1.67 MB)
        assertThat(PackedIntArray.bytesFor(244_140_625L, 29))
                .isEqualTo(59_604 * (8 * (4_096 * 29 / 64 + 1) + 16L)
                        + 8 * ((2_641 * 29 + 63) / 64 + 1)
                        + 16
                        + 4 * 59_605
                        + 16);
        assertThat(PackedIntArray.bytesFor(244_140_625L, 29) - 244_140_625L * 29 / 8)
                .isBetween(1_600_000L, 1_700_000L);
        assertThat(PackedIntArray.bytesFor(1_000_000, 32)).isEqualTo(4_000_000 + 245 * (16 + 4) + 16);
        assertThat(PackedIntArray.bitsFor(1L << 28)).isEqualTo(29);
        assertThat(PackedIntArray.bitsFor((1L << 28) - 1)).isEqualTo(28);
        assertThat(PackedIntArray.bitsFor(0)).isEqualTo(1);
    }

    @Test
    void entriesOnEitherSideOfEveryPageBoundaryKeepTheirValues() {
        int page = PagedIntArray.PAGE_LENGTH;
        int length = 3 * page + 77; // a short last page
        SplittableRandom random = new SplittableRandom(2);
        for (int bits : new int[] {1, 7, 13, 29, 31, 32}) {
            PackedIntArray packed = new PackedIntArray(length, bits);
            long[] reference = new long[length];
            long max = (1L << bits) - 1;
            for (int round = 0; round < 3; round++) {
                for (int c = 1; c <= 3; c++) {
                    for (int i = c * page - 3; i < Math.min(length, c * page + 3); i++) {
                        long v = round == 1 ? max : random.nextLong(max + 1);
                        packed.set(i, (int) v);
                        reference[i] = v;
                    }
                }
                for (int op = 0; op < 50_000; op++) {
                    int i = random.nextInt(length);
                    long v = random.nextLong(max + 1);
                    packed.set(i, (int) v);
                    reference[i] = v;
                }
            }
            for (int i = 0; i < length; i++) {
                assertThat(packed.get(i) & 0xffffffffL)
                        .as("bits %d index %d", bits, i)
                        .isEqualTo(reference[i]);
            }
        }
    }

    @Test
    void rejectsWidthsOutsideOneToThirtyTwo() {
        assertThatThrownBy(() -> new PackedIntArray(1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PackedIntArray(1, 33)).isInstanceOf(IllegalArgumentException.class);
    }
}
