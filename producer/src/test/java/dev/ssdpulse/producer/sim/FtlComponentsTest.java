package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.ftl.WriteBuffer;
import dev.ssdpulse.producer.sim.ftl.admission.HostWriteAdmission;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.gc.FifoVictimSelector;
import dev.ssdpulse.producer.sim.ftl.gc.GreedyVictimSelector;
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
        MappingTable m = new MappingTable(64, 4, 4); // 2 planes x 2 blocks
        GreedyVictimSelector g = new GreedyVictimSelector(m, 2, 2);
        m.setListener(g);
        int lpn = 0;
        for (int ppn = 0; ppn < 16; ppn++) {
            m.map(lpn++, ppn);
        }
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
    void writeBufferWaitsForTheEarliestProgramToFinish() {
        WriteBuffer b = new WriteBuffer(2);
        assertThat(b.acquire(0)).isZero();
        assertThat(b.acquire(0)).isZero();
        b.release(1, 500);
        b.release(1, 100);
        assertThat(b.acquire(10)).isEqualTo(100); // not held back by the slower page
        assertThat(b.drainedAtNs()).isEqualTo(500);
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
            assertThat(cache.update(lpn)).isFalse();
        }
        assertThat(cache.update(20)).isTrue(); // segment 2 evicts the oldest (0), dirty
        assertThat(cache.update(15)).isFalse(); // segment 1 still cached
        assertThat(cache.update(0)).isTrue(); // reload of 0 evicts the next oldest (1)
        assertThat(cache.update(25)).isFalse(); // 2 still cached
        assertThat(cache.loads()).isEqualTo(4);
    }

    @Test
    void extraWritesAddOneParityPagePerStripeAndPackMapSegmentsIntoPages() {
        var counters = new FlashCounters();
        var g = new NandGeometry(1, 1, 2, 4, 4, 8192);
        var flash = new FlashTimeline(g, new NandTiming(1, 1, 1, 100), 100);
        var extra = new ExtraWrites(new MetadataSpec(15, 1024, 1024), 1 << 20, flash, counters, null, 8192, g.planes());
        for (int i = 0; i < 45; i++) {
            extra.onDataPageProgrammed(0);
        }
        assertThat(counters.nandBytesWritten[ProgramCause.PARITY.ordinal()]).isEqualTo(3 * 8192);
        // a one-segment cache: every update of another segment (256 units each) writes the previous one back
        for (int i = 0; i < 9; i++) {
            extra.onMapUpdate(i * 256, 0);
        }
        // 8 evictions x 1024 B = one 8 KiB metadata page
        assertThat(counters.nandBytesWritten[ProgramCause.METADATA.ordinal()]).isEqualTo(8192);
    }

    /**
     * Issue 13 item 4: a parity page closing a stripe of host pages goes ahead of the GC work queued on its plane
     * (a host read then waits for it, as for any operation issued before it); one closing a stripe of GC copies
     * queues with the GC work (the read overtakes it).
     */
    @Test
    void theHostPathsParityPageGoesAheadOfQueuedGcAndGcsQueuesWithIt() {
        long[] readEnds = new long[2];
        for (int hostPath = 0; hostPath < 2; hostPath++) {
            var g = new NandGeometry(1, 1, 1, 16, 4, 8192);
            var flash = new FlashTimeline(g, new NandTiming(50_000, 1_300_000, 3_800_000, 400), 550);
            var admission = new HostWriteAdmission(
                    new HostWriteAdmission.PlaneState() {
                        @Override
                        public int freeBlocks(int plane) {
                            return 8;
                        }

                        @Override
                        public int queuedErases(int plane, long atNs) {
                            return 0;
                        }
                    },
                    1,
                    2);
            var extra =
                    new ExtraWrites(new MetadataSpec(1, 0, 0), 1 << 20, flash, new FlashCounters(), admission, 8192, 1);
            flash.hostTransfer(4096, 0, 0);
            for (int i = 0; i < 10; i++) {
                flash.program(0, 8192, 0); // GC copies booked at t = 0, 1.3 ms each
            }
            extra.onDataPageProgrammed(0, hostPath == 1);
            readEnds[hostPath] = flash.read(0, 4096, 0);
        }
        // no copy has started at t = 0 (the first one's data is still on the channel): GC's parity page queued
        // behind the copies, and the read goes first
        assertThat(readEnds[0]).isLessThan(200_000);
        // the host path's parity page went ahead of the copies and is issued: the read waits for its 1.3 ms
        assertThat(readEnds[1]).isGreaterThan(1_300_000).isLessThan(1_500_000);
    }
}
