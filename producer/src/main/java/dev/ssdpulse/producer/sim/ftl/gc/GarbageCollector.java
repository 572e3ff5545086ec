package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.block.WriteFrontier;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.ftl.meta.ExtraWrites;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.ProgramCause;
import java.util.Arrays;

/**
 * Plane-local GC, one victim per plane at a time, cleaned page by page: each step reads one victim page that
 * still holds valid units and appends those units to the GC frontier's open block on the same plane (a program
 * whenever a destination page fills); after the last page the victim is erased and returns to the plane's free
 * pool. Keeping GC inside the plane keeps every plane's free pool fed by its own GC, so the striped host stream
 * never finds some planes starved while others have plenty. How many steps run when is the FTL's decision
 * ({@code GcPacer}): steps go to the flash timeline in issue order, so copies booked before a host page are
 * ahead of it on the plane.
 *
 * <p>A victim's valid units are listed when it is chosen; host writes between two steps may overwrite some of
 * them, so each unit is checked again when its page is copied ({@link MappingTable#holds}), and a page with
 * nothing valid left is skipped without a read (firmware keeps a per-page validity bitmap).
 *
 * <p>A copy step (one victim page read, and the destination pages it completes) is one operation on the plane
 * ({@link FlashTimeline#copyStep}): the plane's operations run in issue order, so the programs start after the read
 * anyway.
 */
public final class GarbageCollector {
    /** Returned by {@link #finishVictim} when the plane has nothing to collect. */
    public static final long NOTHING_TO_COLLECT = -1;

    private final MappingTable mapping;
    private final BlockManager blocks;
    private final VictimSelector selector;
    private final WriteFrontier gcFrontier;
    private final PackingLayouts layouts;
    private final FlashTimeline flash;
    private final FlashCounters counters;
    private final ExtraWrites extra;
    private final int pageBytes;
    private final int slotShift;
    private final int slotMask;

    // per plane: the victim being cleaned (-1 none), its valid units when chosen (LPN, slot; in slot order),
    // the next of them to copy, its copy ratio when chosen, and when its last read is done (the erase follows)
    private final int[] victim;
    private final int[][] victimLpns;
    private final int[][] victimSlots;
    private final int[] listed;
    private final int[] next;
    private final double[] copyRatio;
    private final SlotLayout[] victimLayout;
    private final long[] lastReadNs;
    private final ProgramCause[] cause;
    /** Scratch of {@link #copy}: where each page's valid units end in the victim's list. */
    private final int[] pageEnds;

    private long lastEraseDoneNs;

    public GarbageCollector(
            MappingTable mapping,
            BlockManager blocks,
            VictimSelector selector,
            WriteFrontier gcFrontier,
            PackingLayouts layouts,
            FlashTimeline flash,
            FlashCounters counters,
            ExtraWrites extra,
            int pageBytes) {
        this.mapping = mapping;
        this.blocks = blocks;
        this.selector = selector;
        this.gcFrontier = gcFrontier;
        this.layouts = layouts;
        this.flash = flash;
        this.counters = counters;
        this.extra = extra;
        this.pageBytes = pageBytes;
        this.slotShift = mapping.slotShift();
        this.slotMask = mapping.slotMask();
        int planes = blocks.geometry().planes();
        int maxSlots = layouts.maxSlotsPerBlock();
        this.victim = new int[planes];
        Arrays.fill(victim, -1);
        this.victimLpns = new int[planes][maxSlots];
        this.victimSlots = new int[planes][maxSlots];
        this.listed = new int[planes];
        this.next = new int[planes];
        this.copyRatio = new double[planes];
        this.victimLayout = new SlotLayout[planes];
        this.lastReadNs = new long[planes];
        this.cause = new ProgramCause[planes];
        this.pageEnds = new int[maxSlots];
    }

    /** Whether {@code plane} is in the middle of a victim. */
    public boolean cleaning(int plane) {
        return victim[plane] >= 0;
    }

    /**
     * Makes sure {@code plane} has a victim to clean, choosing one if it has none.
     *
     * @return false if the plane has no closed block with an invalid unit (nothing to gain)
     */
    public boolean ensureVictim(int plane, long nowNs) {
        return victim[plane] >= 0 || choose(plane, nowNs);
    }

    /**
     * Whether the victim {@code plane} is cleaning has no unit left to copy (its next {@link #copy} just erases it).
     */
    public boolean nothingLeftToCopy(int plane) {
        return next[plane] == listed[plane];
    }

    /** Valid units per unit freed of the victim {@code plane} is cleaning, as counted when it was chosen. */
    public double copyRatio(int plane) {
        return copyRatio[plane];
    }

    /**
     * Copies the next pages of the victim {@code plane} is cleaning (from {@link #ensureVictim}) that still hold
     * valid units, whole pages, until at least {@code units} units are copied; erases the victim after its last
     * page.
     *
     * @return the units copied (0 when nothing valid was left, and the victim was erased)
     */
    public int copy(int plane, double units, long nowNs) {
        int v = victim[plane];
        int n = listed[plane];
        int k = next[plane];
        int[] lpns = victimLpns[plane];
        int[] slots = victimSlots[plane];
        SlotLayout layout = victimLayout[plane];
        int base = v << slotShift;
        // first the pages to copy, their units overwritten since the victim was chosen left out (the rest move
        // to the front, pages kept apart), then their forward entries loaded side by side, then the copies
        int from = k;
        int to = k;
        int pages = 0;
        while (k < n && to - from < units) {
            int page = layout.pageOfSlot(slots[k]);
            int end = k;
            while (end < n && layout.pageOfSlot(slots[end]) == page) {
                end++;
            }
            int pageFrom = to;
            for (int i = k; i < end; i++) {
                if (mapping.holds(base + slots[i], lpns[i])) {
                    lpns[to] = lpns[i];
                    slots[to] = slots[i];
                    to++;
                }
            }
            if (to > pageFrom) {
                pageEnds[pages++] = to;
            }
            k = end;
        }
        mapping.preload(lpns, from, to);
        int pageFrom = from;
        for (int p = 0; p < pages; p++) {
            copyPage(plane, v, layout, lpns, slots, pageFrom, pageEnds[p] - pageFrom, nowNs);
            pageFrom = pageEnds[p];
        }
        next[plane] = k;
        if (k == n) {
            erase(plane, v);
        }
        return to - from;
    }

    /**
     * Cleans the rest of {@code plane}'s victim (choosing one if it has none) and erases it.
     *
     * @return when the erase completes, or {@link #NOTHING_TO_COLLECT}
     */
    public long finishVictim(int plane, long nowNs) {
        if (!ensureVictim(plane, nowNs)) {
            return NOTHING_TO_COLLECT;
        }
        while (victim[plane] >= 0) {
            copy(plane, Integer.MAX_VALUE, nowNs);
        }
        return lastEraseDoneNs;
    }

    /**
     * Static wear levelling: moves the data of a (cold, rarely erased) closed block to the plane's frontier so
     * the block rejoins the free pool; programs count as {@link ProgramCause#WEAR_LEVELLING}. If the block is its
     * plane's current GC victim, that victim is finished instead.
     *
     * @return when the block's erase completes
     */
    public long relocateForWearLevelling(int block, long nowNs) {
        int plane = blocks.planeOfBlock(block);
        if (victim[plane] != block) {
            if (victim[plane] >= 0) {
                finishVictim(plane, nowNs); // one victim per plane: the one in progress goes first
            }
            mapping.flush();
            selector.remove(block);
            list(plane, block, ProgramCause.WEAR_LEVELLING, nowNs);
        }
        return finishVictim(plane, nowNs);
    }

    private boolean choose(int plane, long nowNs) {
        mapping.flush(); // the selector's order includes every host write so far
        int block = selector.selectVictim(plane, nowNs);
        if (block < 0) {
            return false;
        }
        if (mapping.validCount(block) >= mapping.blockCapacity(block)) {
            selector.onBlockClosed(block, blocks.closedAtNs(block)); // nothing to gain: put back
            return false;
        }
        list(plane, block, ProgramCause.GC, nowNs);
        counters.gcInvocations++;
        return true;
    }

    private void list(int plane, int block, ProgramCause why, long nowNs) {
        SlotLayout layout = layouts.layout(mapping.blockCapacity(block));
        mapping.prepareBlock(block);
        int valid = mapping.validUnitsOf(block, victimLpns[plane], victimSlots[plane]);
        victim[plane] = block;
        listed[plane] = valid;
        next[plane] = 0;
        victimLayout[plane] = layout;
        copyRatio[plane] = (double) valid / (layout.slotsPerBlock() - valid);
        lastReadNs[plane] = nowNs;
        cause[plane] = why;
    }

    private void copyPage(
            int plane, int v, SlotLayout layout, int[] lpns, int[] slots, int from, int units, long nowNs) {
        // relocated data keeps its compression: the destination blocks are packed like the victim
        gcFrontier.setPacking(layout.slotsPerBlock());
        // the units' map segments (on a controller that caches its map) are read with the page
        int mapReads = 0;
        for (int i = from; i < from + units; i++) {
            mapReads += extra.onGcMapUpdate(lpns[i], nowNs);
        }
        counters.nandBytesRead += pageBytes;
        int base = v << slotShift;
        int why = cause[plane].ordinal();
        int programs = 0;
        for (int i = from; i < from + units; i++) {
            int ppn = gcFrontier.appendOnPlane(plane, lpns[i], base + slots[i], nowNs);
            if (gcFrontier.lastLayout().isPageEnd(ppn & slotMask)) {
                if (gcFrontier.lastPlane() == plane) {
                    programs++; // programmed in this copy step, after the read
                } else {
                    flash.program(gcFrontier.lastPlane(), pageBytes, nowNs); // the plane had no free block left
                }
                counters.nandBytesWritten[why] += pageBytes;
                extra.onDataPageProgrammed(nowNs);
            }
        }
        long stepDoneNs = flash.copyStep(
                plane,
                units * layout.unitTransferBytes(),
                mapReads,
                extra.mapSegmentBytes(),
                programs,
                pageBytes,
                nowNs);
        if (stepDoneNs > lastReadNs[plane]) {
            lastReadNs[plane] = stepDoneNs;
        }
    }

    private void erase(int plane, int v) {
        lastEraseDoneNs = flash.erase(plane, lastReadNs[plane]);
        mapping.clearBlock(v);
        blocks.release(v);
        victim[plane] = -1;
    }
}
