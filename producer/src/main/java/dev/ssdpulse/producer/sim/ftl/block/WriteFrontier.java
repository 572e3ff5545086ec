package dev.ssdpulse.producer.sim.ftl.block;

import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.nand.ProgramCause;
import java.util.Arrays;

/**
 * Where one write stream (host or GC) appends units. The stream keeps one open block per plane and
 * fills one page at a time, moving to the next plane in stripe order after every page, so consecutive
 * pages are programmed on different channels and dies ({@link #append}). The GC stream instead writes
 * plane-locally ({@link #appendOnPlane}): relocated data stays on its victim's plane, like copyback, so
 * every plane's free pool is balanced by its own GC. One instance uses one of the two modes. Host and GC
 * streams are separate frontiers so relocated (colder) data is not mixed with fresh host data.
 *
 * <p>A block opened by the frontier is packed at {@link #setPacking the packing} in force when it opens
 * (see {@link PackingLayouts}); it closes when that many units are in it.
 */
public final class WriteFrontier {
    private final ProgramCause cause;
    private final BlockManager blocks;
    private final MappingTable mapping;
    private final PackingLayouts layouts;
    private final BlockClosedListener closedListener;
    private final int slotShift;
    private final int[] openBlock;
    private final int[] nextSlot;
    private final SlotLayout[] openLayout;
    private SlotLayout packing;
    private int cursor;
    private int lastPlane;
    private SlotLayout lastLayout;

    public WriteFrontier(
            ProgramCause cause,
            BlockManager blocks,
            MappingTable mapping,
            PackingLayouts layouts,
            BlockClosedListener closedListener) {
        this.cause = cause;
        this.blocks = blocks;
        this.mapping = mapping;
        this.layouts = layouts;
        this.closedListener = closedListener;
        this.slotShift = mapping.slotShift();
        int planes = blocks.geometry().planes();
        this.openBlock = new int[planes];
        this.nextSlot = new int[planes];
        this.openLayout = new SlotLayout[planes];
        this.packing = layouts.layout(layouts.uncompressedSlotsPerBlock());
        Arrays.fill(openBlock, -1);
    }

    /** Units per block for the blocks this frontier opens from now on. */
    public void setPacking(int slotsPerBlock) {
        if (packing.slotsPerBlock() != slotsPerBlock) {
            packing = layouts.layout(slotsPerBlock);
        }
    }

    /** Layout of the block the last append went to: its page ends and per-unit transfer size. */
    public SlotLayout lastLayout() {
        return lastLayout;
    }

    public ProgramCause cause() {
        return cause;
    }

    /** True when the next append has to open a new block (the moment GC policy is checked). */
    public boolean needsBlock() {
        return openBlock[cursor] < 0;
    }

    /** Plane the next striped append goes to (where GC policy is checked before it opens a block). */
    public int currentPlane() {
        return blocks.planeAtStripePosition(cursor);
    }

    /**
     * Moves {@code lpn} from {@code oldPpn} (a slot of a victim being cleaned) to this stream's open block
     * on {@code plane} (plane-local mode), opening one from the plane's pool when needed.
     *
     * @return the PPN; when it ends a page the caller programs that page on {@code lastPlane()}
     */
    public int appendOnPlane(int plane, int lpn, int oldPpn, long nowNs) {
        int block = openBlock[plane];
        if (block < 0) {
            block = blocks.allocateOnPlane(plane);
            open(plane, block);
        }
        int slot = nextSlot[plane]++;
        lastPlane = blocks.planeOfBlock(block);
        SlotLayout layout = openLayout[plane];
        lastLayout = layout;
        int ppn = block << slotShift | slot;
        mapping.relocate(lpn, oldPpn, ppn);
        if (slot == layout.slotsPerBlock() - 1) {
            openBlock[plane] = -1;
            mapping.flush(); // the selector sees every write so far, before the block is closed as before batching
            blocks.markClosed(block, nowNs);
            closedListener.onBlockClosed(block, nowNs);
        }
        return ppn;
    }

    /**
     * Takes the next slot and maps {@code lpn} to it (before the block may close, so a victim selector
     * sees the final valid count). When the returned slot ends its page ({@link SlotLayout#isPageEnd}), the
     * caller programs the page on {@link #lastPlane()}; the frontier has already moved on.
     *
     * @return the physical slot number (PPN)
     */
    public int append(int lpn, long nowNs) {
        int c = cursor;
        int block = openBlock[c];
        if (block < 0) {
            block = blocks.allocate(c);
            open(c, block);
        }
        int slot = nextSlot[c]++;
        lastPlane = blocks.planeOfBlock(block);
        SlotLayout layout = openLayout[c];
        lastLayout = layout;
        int ppn = block << slotShift | slot;
        mapping.map(lpn, ppn);
        if (layout.isPageEnd(slot)) {
            if (slot == layout.slotsPerBlock() - 1) {
                openBlock[c] = -1;
                mapping.flush(); // the selector sees every write so far, before the block is closed as before batching
                blocks.markClosed(block, nowNs);
                closedListener.onBlockClosed(block, nowNs);
            }
            cursor = c + 1 == openBlock.length ? 0 : c + 1;
        }
        return ppn;
    }

    private void open(int position, int block) {
        openBlock[position] = block;
        nextSlot[position] = 0;
        openLayout[position] = packing;
        mapping.setBlockCapacity(block, packing.slotsPerBlock());
    }

    /** Plane of the block the last append went to. */
    public int lastPlane() {
        return lastPlane;
    }
}
