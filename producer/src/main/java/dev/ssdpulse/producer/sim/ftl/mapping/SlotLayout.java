package dev.ssdpulse.producer.sim.ftl.mapping;

import dev.ssdpulse.producer.sim.nand.NandGeometry;

/**
 * How mapping units are packed into the pages of a block, including compression.
 *
 * <p>Compression model (SandForce-style): with a compression ratio r = compressed size / original size
 * (1.0 = incompressible), a block of P pages holding U uncompressed units per page holds
 * S = floor(P * U / r) mapping slots. Slot s lies on page floor(s * P / S), so pages hold a whole or
 * fractional share of units and exactly one page program is issued when the last slot of a page is
 * filled. Every unit therefore consumes r/U of a page: NAND bytes = r * host bytes before GC, and the
 * freed flash acts as extra spare for GC. Real data compresses unevenly; using the mean ratio for every
 * unit is exact for NAND byte counts and spare, and ignores only the variance of per-page packing.
 */
public final class SlotLayout {
    private final int slotsPerBlock;
    private final int pagesPerBlock;
    private final int[] pageOfSlot;
    private final int[] firstSlotOfPage;
    private final boolean[] pageEnd;
    private final int unitTransferBytes;

    public SlotLayout(NandGeometry geometry, double compressionRatio) {
        this(geometry, slotsFor(geometry, compressionRatio), compressionRatio);
    }

    /** A block of {@code slotsPerBlock} units, i.e. packed at (uncompressed units) / slotsPerBlock. */
    public static SlotLayout ofSlots(NandGeometry geometry, int slotsPerBlock) {
        return new SlotLayout(
                geometry, slotsPerBlock, geometry.pagesPerBlock() * (double) geometry.unitsPerPage() / slotsPerBlock);
    }

    /** Slots of a block whose units compress to {@code compressionRatio} (compressed / original). */
    public static int slotsFor(NandGeometry geometry, double compressionRatio) {
        return (int) Math.floor(geometry.pagesPerBlock() * (double) geometry.unitsPerPage() / compressionRatio + 1e-9);
    }

    private SlotLayout(NandGeometry geometry, int slotsPerBlock, double compressionRatio) {
        this.pagesPerBlock = geometry.pagesPerBlock();
        this.slotsPerBlock = slotsPerBlock;
        this.pageOfSlot = new int[slotsPerBlock];
        this.firstSlotOfPage = new int[pagesPerBlock];
        this.pageEnd = new boolean[slotsPerBlock];
        int previousPage = -1;
        for (int s = 0; s < slotsPerBlock; s++) {
            int page = (int) ((long) s * pagesPerBlock / slotsPerBlock);
            pageOfSlot[s] = page;
            if (page != previousPage) {
                firstSlotOfPage[page] = s;
                previousPage = page;
            }
        }
        for (int s = 0; s < slotsPerBlock; s++) {
            pageEnd[s] = s == slotsPerBlock - 1 || pageOfSlot[s + 1] != pageOfSlot[s];
        }
        this.unitTransferBytes = (int) Math.ceil(NandGeometry.MAPPING_UNIT_BYTES * compressionRatio);
    }

    public int slotsPerBlock() {
        return slotsPerBlock;
    }

    public int pagesPerBlock() {
        return pagesPerBlock;
    }

    public int pageOfSlot(int slot) {
        return pageOfSlot[slot];
    }

    /** True when filling this slot completes its page, so the page is programmed now. */
    public boolean isPageEnd(int slot) {
        return pageEnd[slot];
    }

    /** Units in the page that ends at {@code slot}. */
    public int unitsInPageEndingAt(int slot) {
        return slot - firstSlotOfPage[pageOfSlot[slot]] + 1;
    }

    /** Bytes one (possibly compressed) unit occupies on the channel. */
    public int unitTransferBytes() {
        return unitTransferBytes;
    }
}
