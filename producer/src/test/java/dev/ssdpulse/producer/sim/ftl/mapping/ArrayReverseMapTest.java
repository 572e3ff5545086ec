package dev.ssdpulse.producer.sim.ftl.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The per-slot map across the boundaries of its owners' pages ({@link PagedIntArray}). */
class ArrayReverseMapTest {
    private static final int PAGE = PagedIntArray.PAGE_LENGTH;

    @Test
    void ownersAndValidityOnEitherSideOfAPageBoundary() {
        int slotsPerBlock = 64;
        int slots = 3 * PAGE + 5 * slotsPerBlock; // a short last page
        ArrayReverseMap map = new ArrayReverseMap(slots, slotsPerBlock);
        int[] probes = {0, PAGE - 1, PAGE, PAGE + 1, 2 * PAGE - 1, 2 * PAGE, 3 * PAGE - 1, 3 * PAGE, slots - 1};
        for (int ppn : probes) {
            assertThat(map.ownerOf(ppn)).as("slot %d before any write", ppn).isEqualTo(-1);
            map.recordWrite(ppn, ppn ^ 0x5555);
        }
        for (int ppn : probes) {
            assertThat(map.ownerOf(ppn)).as("slot %d", ppn).isEqualTo(ppn ^ 0x5555);
        }
        map.recordInvalidated(PAGE);
        assertThat(map.ownerOf(PAGE)).isEqualTo(-1);
        assertThat(map.ownerOf(PAGE - 1)).isEqualTo((PAGE - 1) ^ 0x5555);
        assertThat(map.ownerOf(PAGE + 1)).isEqualTo((PAGE + 1) ^ 0x5555);

        // erasing the last block of a page leaves the first block of the next alone
        map.onErased(2 * PAGE / slotsPerBlock - 1);
        assertThat(map.ownerOf(2 * PAGE - 1)).isEqualTo(-1);
        assertThat(map.ownerOf(2 * PAGE)).isEqualTo((2 * PAGE) ^ 0x5555);
        map.onErased(slots / slotsPerBlock - 1);
        assertThat(map.ownerOf(slots - 1)).isEqualTo(-1);
        assertThat(map.ownerOf(3 * PAGE)).isEqualTo((3 * PAGE) ^ 0x5555);
        // a slot rewritten after an erase is valid again, with its new owner
        map.recordWrite(2 * PAGE - 1, 7);
        assertThat(map.ownerOf(2 * PAGE - 1)).isEqualTo(7);
    }

    @Test
    void theSizeCountsEveryPageAndTheBitmap() {
        // 2012 preset: 65,536 blocks x 1,024 slots; 16,384 pages of 16 KiB, 8 MiB of bits
        long slots = 65_536L * 1_024;
        assertThat(ArrayReverseMap.bytesFor(slots)).isEqualTo(4 * slots + 16_384 * (16 + 4) + 16 + slots / 8);
    }
}
