package dev.ssdpulse.producer.sim.ftl.mapping;

import dev.ssdpulse.producer.sim.nand.NandGeometry;

/**
 * Per-write compression (SandForce-style): each write's data compresses to its own fraction
 * (compressed / original size, from the workload's data pattern), down to the best the controller
 * achieves ({@code ftl.compressionRatio} of the preset; 1.0 = the controller does not compress). A block
 * is packed at the fraction of the data that opens it, so a block of data compressed to r holds
 * floor(uncompressed units / r) units; its {@link SlotLayout} then places them on pages. Units appended
 * later to a block opened by data of another pattern take that block's packing: exact whenever a stream
 * writes one pattern at a time (every shipped workload's phases do), an error of at most one block per
 * plane and pattern change otherwise.
 *
 * <p>Why per block rather than per unit: per-unit sizes need a page index per slot (3 bytes per 4 KiB
 * more), while a per-block packing keeps the slot-to-page arithmetic of {@link SlotLayout}.
 */
public final class PackingLayouts {
    private final NandGeometry geometry;
    private final int uncompressedSlots;
    private final int maxSlots;
    private final SlotLayout[] bySlots;

    /** @param bestCompressionRatio the controller's best packing, compressed / original, in (0, 1] */
    public PackingLayouts(NandGeometry geometry, double bestCompressionRatio) {
        this.geometry = geometry;
        this.uncompressedSlots = geometry.pagesPerBlock() * geometry.unitsPerPage();
        this.maxSlots = SlotLayout.slotsFor(geometry, bestCompressionRatio);
        this.bySlots = new SlotLayout[maxSlots + 1];
    }

    /** Units per block of the best packing: the PPN stride of the mapping table. */
    public int maxSlotsPerBlock() {
        return maxSlots;
    }

    public int uncompressedSlotsPerBlock() {
        return uncompressedSlots;
    }

    /** Units per block for data compressing to {@code compressedFraction} (1.0 incompressible, 0 zeros). */
    public int slotsFor(double compressedFraction) {
        if (!(compressedFraction < 1.0)) {
            return uncompressedSlots;
        }
        if (compressedFraction <= 0) {
            return maxSlots;
        }
        return Math.min(
                maxSlots, Math.max(uncompressedSlots, (int) Math.floor(uncompressedSlots / compressedFraction + 1e-9)));
    }

    public SlotLayout layout(int slots) {
        SlotLayout l = bySlots[slots];
        if (l == null) {
            l = SlotLayout.ofSlots(geometry, slots);
            bySlots[slots] = l;
        }
        return l;
    }
}
