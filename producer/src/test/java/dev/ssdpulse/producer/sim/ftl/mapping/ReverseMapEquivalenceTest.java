package dev.ssdpulse.producer.sim.ftl.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The scanning reverse map must tell GC exactly what the per-slot one does, through host writes, GC copies,
 * TRIM and erases, whatever blocks it happens to cache.
 */
class ReverseMapEquivalenceTest {
    private static final int BLOCKS = 16;
    private static final int PER_PLANE = 4;
    private static final int SLOTS = 8;
    private static final int UNITS = 100;

    @Test
    void scanningAndPerSlotReverseMapsAgreeOnEveryValidOwner() {
        for (int cached : new int[] {1, 4, 8}) {
            MappingTable full =
                    new MappingTable(UNITS, new BlockFill(BLOCKS, SLOTS), PER_PLANE, false, 0, (b, c) -> {});
            MappingTable scanning =
                    new MappingTable(UNITS, new BlockFill(BLOCKS, SLOTS), PER_PLANE, true, cached, (b, c) -> {});
            SplittableRandom random = new SplittableRandom(cached);
            int[] nextSlot = new int[BLOCKS];
            int collected = 0;
            for (int op = 0; op < 50_000; op++) {
                int kind = random.nextInt(10);
                if (kind < 6) {
                    int block = random.nextInt(BLOCKS);
                    if (nextSlot[block] < SLOTS) {
                        int ppn = block * SLOTS + nextSlot[block]++;
                        int lpn = random.nextInt(UNITS);
                        full.map(lpn, ppn);
                        scanning.map(lpn, ppn);
                    }
                } else if (kind < 7) {
                    int lpn = random.nextInt(UNITS);
                    assertThat(scanning.trim(lpn)).isEqualTo(full.trim(lpn));
                } else {
                    // GC of a full block: both must name the same valid owners, then the copies and the erase
                    int victim = random.nextInt(BLOCKS);
                    if (nextSlot[victim] < SLOTS) {
                        continue;
                    }
                    full.prepareBlock(victim);
                    scanning.prepareBlock(victim);
                    for (int s = 0; s < SLOTS; s++) {
                        int ppn = victim * SLOTS + s;
                        int lpn = full.lpnAt(ppn);
                        assertThat(scanning.lpnAt(ppn))
                                .as("op %d slot %d", op, ppn)
                                .isEqualTo(lpn);
                        if (lpn >= 0) {
                            int target = (victim + 1 + random.nextInt(BLOCKS - 1)) % BLOCKS;
                            if (nextSlot[target] < SLOTS) {
                                int newPpn = target * SLOTS + nextSlot[target]++;
                                full.relocate(lpn, ppn, newPpn);
                                scanning.relocate(lpn, ppn, newPpn);
                            } else {
                                assertThat(scanning.trim(lpn)).isEqualTo(full.trim(lpn));
                            }
                        }
                    }
                    full.clearBlock(victim);
                    scanning.clearBlock(victim);
                    nextSlot[victim] = 0;
                    collected++;
                }
                assertThat(scanning.mappedUnits()).isEqualTo(full.mappedUnits());
            }
            assertThat(collected).isGreaterThan(1000);
            for (int lpn = 0; lpn < UNITS; lpn++) {
                assertThat(scanning.lookup(lpn)).isEqualTo(full.lookup(lpn));
            }
            for (int b = 0; b < BLOCKS; b++) {
                assertThat(scanning.validCount(b)).isEqualTo(full.validCount(b));
            }
        }
    }
}
