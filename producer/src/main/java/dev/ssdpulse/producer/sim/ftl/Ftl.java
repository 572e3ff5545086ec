package dev.ssdpulse.producer.sim.ftl;

import dev.ssdpulse.producer.sim.ftl.admission.HostWriteAdmission;
import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.block.WriteFrontier;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.gc.GarbageCollector;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.ftl.meta.ExtraWrites;
import dev.ssdpulse.producer.sim.ftl.wear.StaticWearLeveller;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.ProgramCause;

/**
 * The flash translation layer's unit operations: host writes through the write buffer and host frontier
 * with the GC policy checked whenever the host stream opens a block, reads grouped by physical page,
 * TRIM, and idle-GC steps. Times are virtual ns; every method returns when its work is done.
 */
public final class Ftl {
    private final MappingTable mapping;
    private final BlockManager blocks;
    private final PackingLayouts layouts;
    private final WriteFrontier hostFrontier;
    private final GarbageCollector gc;
    private final FlashTimeline flash;
    private final WriteBuffer buffer;
    private final FlashCounters counters;
    private final GcThresholds thresholds;
    private final StaticWearLeveller wearLeveller;
    private final ExtraWrites extra;
    private final HostWriteAdmission admission;
    private final int pageBytes;
    private final int slotShift;
    private final int slotMask;
    private final int pagesPerBlock;
    private final int planes;

    public Ftl(
            MappingTable mapping,
            BlockManager blocks,
            PackingLayouts layouts,
            WriteFrontier hostFrontier,
            GarbageCollector gc,
            FlashTimeline flash,
            WriteBuffer buffer,
            FlashCounters counters,
            GcThresholds thresholds,
            StaticWearLeveller wearLeveller,
            ExtraWrites extra,
            HostWriteAdmission admission,
            int pageBytes) {
        this.mapping = mapping;
        this.blocks = blocks;
        this.layouts = layouts;
        this.hostFrontier = hostFrontier;
        this.gc = gc;
        this.flash = flash;
        this.buffer = buffer;
        this.counters = counters;
        this.thresholds = thresholds;
        this.wearLeveller = wearLeveller;
        this.extra = extra;
        this.admission = admission;
        this.pageBytes = pageBytes;
        this.slotShift = mapping.slotShift();
        this.slotMask = mapping.slotMask();
        this.pagesPerBlock = blocks.geometry().pagesPerBlock();
        this.planes = blocks.geometry().planes();
    }

    /**
     * Writes {@code units} consecutive incompressible units from {@code firstLpn}, data available in the
     * controller at {@code atNs}.
     *
     * @return when the last unit is accepted (buffered), including any foreground-GC stall
     */
    public long write(int firstLpn, int units, long atNs) {
        return write(firstLpn, units, 1.0, atNs);
    }

    /**
     * As {@link #write(int, int, long)} for data that compresses to {@code compressedFraction} of its size
     * (1.0 incompressible, 0 all zeros), as far as the controller compresses (see {@link PackingLayouts}).
     */
    public long write(int firstLpn, int units, double compressedFraction, long atNs) {
        hostFrontier.setPacking(layouts.slotsFor(compressedFraction));
        long ackNs = atNs;
        for (int i = 0; i < units; i++) {
            ackNs = buffer.acquire(ackNs);
            if (hostFrontier.needsBlock()) {
                ackNs = runGcPolicy(ackNs);
                wearLeveller.maybeLevel(ackNs); // background work: the host does not wait for it
            }
            int ppn = hostFrontier.append(firstLpn + i, ackNs);
            extra.onMapUpdate(firstLpn + i, ackNs, true);
            int slot = ppn & slotMask;
            SlotLayout layout = hostFrontier.lastLayout();
            if (layout.isPageEnd(slot)) {
                // ahead of the GC work queued on the plane unless erased blocks run low (then behind all of it)
                int plane = hostFrontier.lastPlane();
                long programmedNs = admission.mayOvertake(plane, ackNs)
                        ? flash.hostProgram(plane, pageBytes, ackNs)
                        : flash.program(plane, pageBytes, ackNs);
                buffer.release(layout.unitsInPageEndingAt(slot), programmedNs);
                counters.nandBytesWritten[ProgramCause.HOST.ordinal()] += pageBytes;
                extra.onDataPageProgrammed(ackNs, true);
            }
        }
        return ackNs;
    }

    /**
     * GC for the plane the host stream is about to open a block on. Thresholds are drive totals, applied
     * per plane as (free blocks of the plane x planes) so every plane keeps its share.
     */
    private long runGcPolicy(long nowNs) {
        int plane = hostFrontier.currentPlane();
        if (blocks.freeBlocks(plane) * planes < thresholds.forcedFreeBlocks()) {
            long doneNs = nowNs;
            while (blocks.freeBlocks(plane) * planes < thresholds.forcedFreeBlocks()) {
                long erasedNs = gc.collectOne(plane, nowNs);
                if (erasedNs == GarbageCollector.NOTHING_TO_COLLECT) {
                    break;
                }
                counters.forcedGcInvocations++;
                doneNs = Math.max(doneNs, erasedNs);
            }
            return doneNs;
        }
        // background: keep pace with the host (recover at least the block it is about to take) without
        // making it wait; the work occupies the plane between host operations (HostWriteAdmission)
        int before = blocks.freeBlocks(plane);
        while (blocks.freeBlocks(plane) <= before
                && blocks.freeBlocks(plane) * planes < thresholds.backgroundFreeBlocks()) {
            if (gc.collectOne(plane, nowNs) == GarbageCollector.NOTHING_TO_COLLECT) {
                break;
            }
        }
        return nowNs;
    }

    /** @return when the data of all mapped units is read out; unmapped units cost no NAND access */
    public long read(int firstLpn, int units, long atNs) {
        long doneNs = atNs;
        int i = 0;
        while (i < units) {
            int ppn = mapping.lookup(firstLpn + i);
            i++;
            if (ppn < 0) {
                continue;
            }
            int block = ppn >>> slotShift;
            SlotLayout layout = layouts.layout(mapping.blockCapacity(block));
            int page = layout.pageOfSlot(ppn & slotMask);
            int run = 1;
            // consecutive LPNs on the same physical page come out of one page read
            while (i < units) {
                int next = mapping.lookup(firstLpn + i);
                if (next < 0 || next >>> slotShift != block || layout.pageOfSlot(next & slotMask) != page) {
                    break;
                }
                run++;
                i++;
            }
            long readNs = flash.read(blocks.planeOfBlock(block), run * layout.unitTransferBytes(), atNs);
            counters.nandBytesRead += pageBytes;
            if (readNs > doneNs) {
                doneNs = readNs;
            }
        }
        return doneNs;
    }

    public void trim(int firstLpn, int units, long atNs) {
        for (int i = 0; i < units; i++) {
            if (mapping.trim(firstLpn + i)) {
                extra.onMapUpdate(firstLpn + i, atNs, true);
            }
        }
    }

    /**
     * One idle-GC step: cleans one victim on every plane whose free blocks are below its share of the idle
     * target, in parallel across planes.
     *
     * @return when the step's last erase completes, or -1 if idle GC has nothing (more) to do
     */
    public long idleGcStep(long nowNs) {
        long doneNs = -1;
        for (int plane = 0; plane < planes; plane++) {
            if (blocks.freeBlocks(plane) * planes >= thresholds.idleTargetFreeBlocks()) {
                continue;
            }
            long erasedNs = gc.collectOne(plane, nowNs);
            if (erasedNs != GarbageCollector.NOTHING_TO_COLLECT) {
                counters.idleGcInvocations++;
                doneNs = Math.max(doneNs, erasedNs);
            }
        }
        return doneNs;
    }

    public long bufferDrainedAtNs() {
        return buffer.drainedAtNs();
    }

    public BlockManager blocks() {
        return blocks;
    }

    public HostWriteAdmission admission() {
        return admission;
    }

    public int pagesPerBlock() {
        return pagesPerBlock;
    }
}
