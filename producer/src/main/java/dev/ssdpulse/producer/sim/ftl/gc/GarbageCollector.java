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

/**
 * Plane-local GC: cleans one victim block of a plane, reads every page holding valid units, appends those
 * units to the GC frontier's open block on the same plane, then erases the victim (after its reads) and
 * returns it to the plane's free pool. Keeping GC inside the plane keeps every plane's free pool fed by
 * its own GC, so the striped host stream never finds some planes starved while others have plenty.
 *
 * <p>The destination programs are issued at GC time rather than after the victim's page reads complete.
 * In the FIFO reservation model of {@link FlashTimeline}, gating each program on a read that finishes
 * later would leave idle holes on the destination planes that no later operation can fill, inflating GC
 * cost several-fold; real controllers interleave many victims and hide that dependency. Error bound: a
 * relocated page may be programmed up to one victim's read time (pages x (tR + transfer)) early; the
 * NAND work, bytes and erase ordering are exact. All NAND work is reserved on the flash timeline at the time GC runs,
 * one operation per page read, page copy and erase ({@link FlashTimeline#queuedRead}, {@code program}, {@code erase}):
 * host reads, and host programs while erased blocks are to spare, overtake it between two of its operations;
 * host programs queue behind it once erased blocks run low, so host writes cannot outrun reclamation (the flash
 * timeline's scheduler and {@code HostWriteAdmission} decide the order; GC only decides what to copy).
 */
public final class GarbageCollector {
    /** Returned by {@link #collectOne} when nothing could be gained. */
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
    /**
     * The valid units of the victim being cleaned, and their slots, in slot order (read once, see
     * {@link MappingTable#validUnitsOf}).
     */
    private final int[] victimLpns;

    private final int[] victimSlots;

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
        this.victimLpns = new int[layouts.maxSlotsPerBlock()];
        this.victimSlots = new int[layouts.maxSlotsPerBlock()];
    }

    /**
     * Cleans one victim of {@code plane}; relocated units stay on the plane.
     *
     * @return when the victim's erase completes, or {@link #NOTHING_TO_COLLECT} if there is no victim
     *         with an invalid unit (a full-valid victim is put back untouched)
     */
    public long collectOne(int plane, long nowNs) {
        mapping.flush(); // the selector's order includes every host write so far
        int victim = selector.selectVictim(plane, nowNs);
        if (victim < 0) {
            return NOTHING_TO_COLLECT;
        }
        if (mapping.validCount(victim) >= mapping.blockCapacity(victim)) {
            selector.onBlockClosed(victim, blocks.closedAtNs(victim));
            return NOTHING_TO_COLLECT;
        }
        long erasedNs = relocateAndErase(victim, plane, ProgramCause.GC, nowNs);
        counters.gcInvocations++;
        return erasedNs;
    }

    /**
     * Static wear levelling: moves the data of a (cold, rarely erased) closed block to the plane's
     * frontier so the block rejoins the free pool; programs count as {@link ProgramCause#WEAR_LEVELLING}.
     *
     * @return when the block's erase completes
     */
    public long relocateForWearLevelling(int block, long nowNs) {
        mapping.flush();
        selector.remove(block);
        return relocateAndErase(block, blocks.planeOfBlock(block), ProgramCause.WEAR_LEVELLING, nowNs);
    }

    private long relocateAndErase(int victim, int plane, ProgramCause cause, long nowNs) {
        // relocated data keeps its compression: the destination blocks are packed like the victim
        int slotMask = mapping.slotMask();
        SlotLayout layout = layouts.layout(mapping.blockCapacity(victim));
        int slots = layout.slotsPerBlock();
        gcFrontier.setPacking(slots);
        int base = victim << mapping.slotShift();
        long dataReadyNs = nowNs;
        int unitBytes = layout.unitTransferBytes();
        mapping.prepareBlock(victim);
        // the owners are read before any copy: they cannot change while the victim is cleaned (no host write
        // runs meanwhile, and the copies go to other blocks), so this is what reading them page by page gave
        int valid = mapping.validUnitsOf(victim, victimLpns, victimSlots);
        int k = 0;
        while (k < valid) {
            // one read per page that still holds valid units, transferring only the valid units
            int first = k;
            int page = layout.pageOfSlot(victimSlots[k]);
            while (k < valid && layout.pageOfSlot(victimSlots[k]) == page) {
                k++;
            }
            long readDoneNs = flash.queuedRead(plane, (k - first) * unitBytes, nowNs);
            counters.nandBytesRead += pageBytes;
            if (readDoneNs > dataReadyNs) {
                dataReadyNs = readDoneNs;
            }
            for (int i = first; i < k; i++) {
                int lpn = victimLpns[i];
                int ppn = gcFrontier.appendOnPlane(plane, lpn, base + victimSlots[i], nowNs);
                extra.onMapUpdate(lpn, nowNs);
                if (gcFrontier.lastLayout().isPageEnd(ppn & slotMask)) {
                    flash.program(gcFrontier.lastPlane(), pageBytes, nowNs);
                    counters.nandBytesWritten[cause.ordinal()] += pageBytes;
                    extra.onDataPageProgrammed(nowNs);
                }
            }
        }
        long erasedNs = flash.erase(plane, dataReadyNs);
        mapping.clearBlock(victim);
        blocks.release(victim);
        return erasedNs;
    }
}
