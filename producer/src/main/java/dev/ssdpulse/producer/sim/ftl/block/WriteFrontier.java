package dev.ssdpulse.producer.sim.ftl.block;

import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.nand.ProgramCause;

/**
 * Where one write stream (host or GC) appends units. The stream keeps one open block per plane and
 * fills one page at a time, moving to the next plane in stripe order after every page, so consecutive
 * pages are programmed on different channels and dies ({@link #append}). The GC stream instead writes
 * plane-locally ({@link #appendOnPlane}): relocated data stays on its victim's plane, like copyback, so
 * every plane's free pool is balanced by its own GC. One instance uses one of the two modes. Host and GC
 * streams are separate frontiers so relocated (colder) data is not mixed with fresh host data.
 */
public final class WriteFrontier {
    private final ProgramCause cause;
    private final BlockManager blocks;
    private final MappingTable mapping;
    private final SlotLayout layout;
    private final BlockClosedListener closedListener;
    private final int[] openBlock;
    private final int[] nextSlot;
    private int cursor;
    private int lastPlane;

    public WriteFrontier(ProgramCause cause, BlockManager blocks, MappingTable mapping, SlotLayout layout, BlockClosedListener closedListener) {
        this.cause = cause;
        this.blocks = blocks;
        this.mapping = mapping;
        this.layout = layout;
        this.closedListener = closedListener;
        int planes = blocks.geometry().planes();
        this.openBlock = new int[planes];
        this.nextSlot = new int[planes];
        java.util.Arrays.fill(openBlock, -1);
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
     * Appends {@code lpn} to this stream's open block on {@code plane} (plane-local mode), opening one
     * from the plane's pool when needed.
     *
     * @return the PPN; when it ends a page the caller programs that page on {@code lastPlane()}
     */
    public int appendOnPlane(int plane, int lpn, long nowNs) {
        int block = openBlock[plane];
        if (block < 0) {
            block = blocks.allocateOnPlane(plane);
            openBlock[plane] = block;
            nextSlot[plane] = 0;
        }
        int slot = nextSlot[plane]++;
        lastPlane = blocks.planeOfBlock(block);
        int ppn = block * layout.slotsPerBlock() + slot;
        mapping.map(lpn, ppn);
        if (slot == layout.slotsPerBlock() - 1) {
            openBlock[plane] = -1;
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
            openBlock[c] = block;
            nextSlot[c] = 0;
        }
        int slot = nextSlot[c]++;
        lastPlane = blocks.planeOfBlock(block);
        int ppn = block * layout.slotsPerBlock() + slot;
        mapping.map(lpn, ppn);
        if (layout.isPageEnd(slot)) {
            if (slot == layout.slotsPerBlock() - 1) {
                openBlock[c] = -1;
                blocks.markClosed(block, nowNs);
                closedListener.onBlockClosed(block, nowNs);
            }
            cursor = c + 1 == openBlock.length ? 0 : c + 1;
        }
        return ppn;
    }

    /** Plane of the block the last append went to. */
    public int lastPlane() {
        return lastPlane;
    }
}
