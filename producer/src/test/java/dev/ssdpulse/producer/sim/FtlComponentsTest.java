package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.gc.FifoVictimSelector;
import dev.ssdpulse.producer.sim.ftl.gc.GreedyVictimSelector;
import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.ftl.meta.ExtraWrites;
import dev.ssdpulse.producer.sim.ftl.meta.MapCache;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.nand.NandTiming;
import dev.ssdpulse.producer.sim.nand.ProgramCause;
import org.junit.jupiter.api.Test;

class FtlComponentsTest {

    @Test
    void mappingTableKeepsForwardReverseAndValidCountsConsistent() {
        MappingTable m = new MappingTable(8, 4, 4);
        m.map(0, 0);
        m.map(1, 1);
        m.map(0, 5); // overwrite moves LPN 0 to block 1
        assertThat(m.lookup(0)).isEqualTo(5);
        assertThat(m.lpnAt(0)).isEqualTo(MappingTable.UNMAPPED);
        assertThat(m.validCount(0)).isEqualTo(1);
        assertThat(m.validCount(1)).isEqualTo(1);
        assertThat(m.trim(1)).isTrue();
        assertThat(m.validCount(0)).isZero();
        assertThat(m.mappedUnits()).isEqualTo(1);
    }

    @Test
    void greedyPicksTheFewestValidUnitsPerPlane() {
        BlockFill fill = new BlockFill(4, 4); // 2 planes x 2 blocks
        GreedyVictimSelector g = new GreedyVictimSelector(fill, 2, 2);
        MappingTable m = new MappingTable(64, fill, 2, false, 0, g);
        int lpn = 0;
        for (int ppn = 0; ppn < 16; ppn++) {
            m.map(lpn++, ppn);
        }
        m.flush(); // as the write frontier does before it closes a block
        for (int b = 0; b < 4; b++) {
            g.onBlockClosed(b, 0);
        }
        m.trim(1); // block 0: 3 valid
        m.trim(4);
        m.trim(5); // block 1: 2 valid
        m.trim(12); // block 3: 3 valid
        assertThat(g.selectVictim(0, 0)).isEqualTo(1);
        assertThat(g.selectVictim(0, 0)).isEqualTo(0);
        assertThat(g.selectVictim(0, 0)).isEqualTo(-1);
        assertThat(g.selectVictim(1, 0)).isEqualTo(3);
    }

    @Test
    void fifoCleansInCloseOrder() {
        FifoVictimSelector f = new FifoVictimSelector(1, 4);
        f.onBlockClosed(2, 0);
        f.onBlockClosed(0, 1);
        assertThat(f.selectVictim(0, 5)).isEqualTo(2);
        assertThat(f.selectVictim(0, 5)).isEqualTo(0);
    }

    @Test
    void compressionPacksMoreUnitsPerPage() {
        NandGeometry g = new NandGeometry(1, 1, 1, 4, 4, 8192);
        SlotLayout plain = new SlotLayout(g, 1.0);
        SlotLayout half = new SlotLayout(g, 0.5);
        assertThat(plain.slotsPerBlock()).isEqualTo(8);
        assertThat(half.slotsPerBlock()).isEqualTo(16);
        assertThat(half.unitsInPageEndingAt(3)).isEqualTo(4);
        SlotLayout odd = new SlotLayout(g, 0.7); // 11 slots over 4 pages: pages hold 3 or 2 units
        int pageEnds = 0;
        for (int s = 0; s < odd.slotsPerBlock(); s++) {
            pageEnds += odd.isPageEnd(s) ? 1 : 0;
        }
        assertThat(pageEnds).isEqualTo(4);
    }

    @Test
    void mapCacheWritesBackADirtySegmentOnlyWhenItIsEvicted() {
        var cache = new MapCache(1000, 10, 2);
        // sequential: 10 updates per segment, nothing evicted while two segments fit
        for (int lpn = 0; lpn < 20; lpn++) {
            assertThat(cache.update(lpn) & MapCache.WRITE_BACK).isZero();
        }
        assertThat(cache.update(20) & MapCache.WRITE_BACK).isNotZero(); // segment 2 evicts the oldest (0), dirty
        assertThat(cache.update(15)).isZero(); // segment 1 still cached
        assertThat(cache.update(0) & MapCache.WRITE_BACK).isNotZero(); // reload of 0 evicts the next oldest (1)
        assertThat(cache.update(25)).isZero(); // 2 still cached
        assertThat(cache.loads()).isEqualTo(4);
    }

    @Test
    void extraWritesAddOneParityPagePerStripeAndPackMapSegmentsIntoPages() {
        var counters = new FlashCounters();
        var g = new NandGeometry(1, 1, 2, 4, 4, 8192);
        var flash = new FlashTimeline(g, new NandTiming(1, 1, 1, 100), 100);
        var extra = new ExtraWrites(new MetadataSpec(15, 1024, 1024), 1 << 20, flash, counters, 8192, g.planes());
        for (int i = 0; i < 45; i++) {
            extra.onDataPageProgrammed(0);
        }
        assertThat(counters.nandBytesWritten[ProgramCause.PARITY.ordinal()]).isEqualTo(3 * 8192);
        // a one-segment cache: every update of another segment (256 units each) writes the previous one back
        for (int i = 0; i < 9; i++) {
            extra.onGcMapUpdate(i * 256, 0); // misses are read by the caller: only write-backs are booked here
        }
        // 8 evictions x 1024 B = one 8 KiB metadata page
        assertThat(counters.nandBytesWritten[ProgramCause.METADATA.ordinal()]).isEqualTo(8192);
    }

    /**
     * A DRAM-less controller's map cache: a host write whose map segment is not cached waits for a NAND read of
     * it (tR + the segment over the channel), one that hits does not; the read goes ahead of queued work, but not
     * ahead of an operation in progress.
     */
    @Test
    void aHostMapMissCostsANandReadAndAHitNothing() {
        var g = new NandGeometry(1, 1, 1, 16, 4, 8192);
        var timing = new NandTiming(50_000, 1_300_000, 3_800_000, 200);
        var flash = new FlashTimeline(g, timing, 550);
        var extra = new ExtraWrites(new MetadataSpec(0, 1024, 2048), 1 << 20, flash, new FlashCounters(), 8192, 1);
        flash.hostTransfer(4096, 0, 0);
        for (int i = 0; i < 10; i++) {
            flash.program(0, 8192, 0); // queued work: a read overtakes it
        }
        long missNs = extra.onHostMapUpdate(0, 0);
        assertThat(missNs)
                .as("no program has started at 0 (the first one's data is on the channel): the read goes first")
                .isEqualTo(50_000 + timing.channelTransferNs(1024));
        assertThat(extra.onHostMapUpdate(255, missNs))
                .as("same segment: cached")
                .isEqualTo(missNs);
        // the first program (its data in at 41 us) moved back behind the read, to 55.12 us: at 1 ms it is in
        // progress, and the next miss waits for it
        long programEndNs = 55_120 + 1_300_000;
        assertThat(extra.onHostMapLookup(256, 1_000_000))
                .as("next segment: a miss behind the program in progress")
                .isEqualTo(programEndNs + 50_000 + timing.channelTransferNs(1024));
    }

    @Test
    void mapCacheReportsMissesAndWriteBacks() {
        var cache = new MapCache(1000, 10, 1);
        assertThat(cache.lookup(0)).isEqualTo(MapCache.MISS);
        assertThat(cache.update(5)).isZero();
        assertThat(cache.update(10)).isEqualTo(MapCache.MISS | MapCache.WRITE_BACK);
        assertThat(cache.lookup(20)).isEqualTo(MapCache.MISS | MapCache.WRITE_BACK);
        assertThat(cache.lookup(0)).as("segment 2 was only read: clean").isEqualTo(MapCache.MISS);
        assertThat(cache.lastSegment()).isZero();
    }
}
