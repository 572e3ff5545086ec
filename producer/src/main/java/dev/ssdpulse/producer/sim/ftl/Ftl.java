package dev.ssdpulse.producer.sim.ftl;

import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.block.WriteFrontier;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.gc.GarbageCollector;
import dev.ssdpulse.producer.sim.ftl.gc.VictimSelector;
import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingPlan;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingTable;
import dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts;
import dev.ssdpulse.producer.sim.ftl.mapping.SlotLayout;
import dev.ssdpulse.producer.sim.ftl.meta.ExtraWrites;
import dev.ssdpulse.producer.sim.ftl.power.UnitVersions;
import dev.ssdpulse.producer.sim.ftl.wear.StaticWearLeveller;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.nand.ProgramCause;

/**
 * The flash translation layer, built whole from a drive description (this constructor is its composition root):
 * host writes through the write buffer and the host frontier with GC paced against them, reads grouped by
 * physical page, TRIM, and idle-GC steps. Times are virtual ns; every method returns when its work is done.
 *
 * <p>GC is paced against host work on each plane ({@link GcPacer}): before a host page is programmed, the
 * plane's GC copies the victim pages it owes, so they are on the plane ahead of the host page, and a host write
 * that has to wait for its buffer slot ({@link WriteBuffer}) waits exactly for the work booked before its page. A
 * plane at the urgent watermark that must open a block for the host finishes its victim first: the host waits for one
 * victim at most, never for a backlog.
 */
public final class Ftl {
    private final MappingTable mapping;
    private final BlockManager blocks;
    private final PackingLayouts layouts;
    private final WriteFrontier hostFrontier;
    private final GarbageCollector gc;
    private final GcPacer pacer;
    private final FlashTimeline flash;
    private final WriteBuffer buffer;
    private final FlashCounters counters;
    private final GcThresholds thresholds;
    private final StaticWearLeveller wearLeveller;
    private final ExtraWrites extra;
    /** What each host unit holds for a power cut; null when the run does not cut the power. */
    private final UnitVersions versions;

    private final int pageBytes;
    private final int slotShift;
    private final int slotMask;
    private final int planes;

    /**
     * @param plan  how the mapping table fits the heap ({@link MappingPlan#forHeap})
     * @param seed  seeds the victim selector's random choices (d-choices)
     */
    public Ftl(SsdConfig config, FlashTimeline flash, FlashCounters counters, MappingPlan plan, long seed) {
        this(config, flash, counters, plan, seed, null);
    }

    /**
     * @param versions where host units' versions are recorded for a power cut ({@link UnitVersions}); null: not
     *                 recorded
     */
    public Ftl(
            SsdConfig config,
            FlashTimeline flash,
            FlashCounters counters,
            MappingPlan plan,
            long seed,
            UnitVersions versions) {
        this.versions = versions;
        NandGeometry geometry = config.geometry();
        FtlSpec spec = config.ftl();
        this.flash = flash;
        this.counters = counters;
        this.pageBytes = geometry.pageSizeBytes();
        this.planes = geometry.planes();
        this.layouts = new PackingLayouts(geometry, spec.compressionRatio());
        this.blocks = new BlockManager(geometry, config.reservedBlocks());
        BlockFill fill = new BlockFill(geometry.blocks(), layouts.maxSlotsPerBlock());
        VictimSelector selector = VictimSelector.create(spec.victimSelector(), fill, blocks, spec.dChoices(), seed);
        this.mapping = new MappingTable(
                (int) config.userUnits(),
                fill,
                geometry.blocksPerPlane(),
                plan.packForward(),
                plan.cachedBlocks(),
                selector);
        this.slotShift = mapping.slotShift();
        this.slotMask = mapping.slotMask();
        this.hostFrontier = new WriteFrontier(ProgramCause.HOST, blocks, mapping, layouts, selector);
        WriteFrontier gcFrontier = new WriteFrontier(ProgramCause.GC, blocks, mapping, layouts, selector);
        this.extra = new ExtraWrites(
                config.metadata(), (int) config.userUnits(), flash, counters, geometry.pageSizeBytes(), planes);
        this.gc = new GarbageCollector(
                mapping, blocks, selector, gcFrontier, layouts, flash, counters, extra, geometry.pageSizeBytes());
        this.thresholds = new GcThresholds(
                spec.forcedGcFreeBlocks(),
                spec.backgroundGcFreeBlocks(),
                spec.backgroundGcStopFreeBlocks(),
                spec.idleGcTargetFreeBlocks(),
                spec.idleGcAfterNs(),
                spec.idleGcIntervalNs(),
                spec.idleGcUrgentIntervalNs(),
                spec.idleGcMaxCopyRatio());
        this.pacer = new GcPacer(planes, thresholds);
        this.buffer = new WriteBuffer(
                planes, (int) (config.cache().writeBufferBytes() / NandGeometry.MAPPING_UNIT_BYTES / planes));
        this.wearLeveller = new StaticWearLeveller(blocks, gc, spec.wearLevellingEraseSpread());
    }

    /**
     * Writes {@code units} consecutive units from {@code firstLpn}, data available in the controller at
     * {@code atNs}, compressing to {@code compressedFraction} of its size (1.0 incompressible, 0 all zeros) as far
     * as the controller compresses (see {@link PackingLayouts}).
     *
     * @return when the last unit is accepted (buffered, its mapping updated)
     */
    public long write(int firstLpn, int units, double compressedFraction, long atNs) {
        return write(firstLpn, units, compressedFraction, atNs, UnitVersions.NONE, atNs);
    }

    /**
     * As {@link #write(int, int, double, long)} for a write whose units carry the stamp {@code sequence} (or
     * {@link UnitVersions#NONE}), submitted at {@code submitNs}: its units' versions are recorded for a power cut.
     */
    public long write(int firstLpn, int units, double compressedFraction, long atNs, long sequence, long submitNs) {
        boolean recorded = versions != null && sequence >= 0;
        hostFrontier.setPacking(layouts.slotsFor(compressedFraction));
        long ackNs = atNs;
        long mappedNs = atNs;
        for (int i = 0; i < units; i++) {
            int lpn = firstLpn + i;
            // the unit goes to the plane the host stream's write pointer is on, and waits for a slot there
            int plane = hostFrontier.currentPlane();
            ackNs = buffer.acquire(plane, ackNs);
            if (hostFrontier.needsBlock()) {
                openHostBlock(plane, ackNs);
                wearLeveller.maybeLevel(ackNs); // background work: the host does not wait for it
            }
            int ppn = hostFrontier.append(lpn, ackNs);
            if (recorded) {
                versions.buffered(lpn, sequence, submitNs, plane);
            }
            mappedNs = Math.max(mappedNs, extra.onHostMapUpdate(lpn, ackNs));
            SlotLayout layout = hostFrontier.lastLayout();
            int slot = ppn & slotMask;
            if (layout.isPageEnd(slot)) {
                int pagePlane = hostFrontier.lastPlane();
                int pageUnits = layout.unitsInPageEndingAt(slot);
                paceGc(pagePlane, pageUnits, ackNs);
                long programmedNs = flash.program(pagePlane, pageBytes, ackNs);
                buffer.release(plane, pageUnits, programmedNs);
                if (versions != null) {
                    versions.programmed(plane, pageUnits, programmedNs);
                }
                counters.nandBytesWritten[ProgramCause.HOST.ordinal()] += pageBytes;
                extra.onDataPageProgrammed(ackNs);
            }
        }
        return Math.max(ackNs, mappedNs);
    }

    /**
     * The host stream opens a block on {@code plane}: a plane at its share of the urgent watermark first finishes
     * the victim it is cleaning (the host's page is then behind that victim's work on the plane).
     */
    private void openHostBlock(int plane, long nowNs) {
        if (pacer.urgent(blocks.freeBlocks(plane))
                && gc.finishVictim(plane, nowNs) != GarbageCollector.NOTHING_TO_COLLECT) {
            counters.forcedGcInvocations++;
        }
    }

    /** Books on {@code plane} the GC copies owed before a host page of {@code hostUnits} units. */
    private void paceGc(int plane, int hostUnits, long nowNs) {
        pacer.observe(blocks.freeBlocks());
        if (!pacer.cleans(blocks.freeBlocks(plane)) || !gc.ensureVictim(plane, nowNs)) {
            pacer.owed(plane, hostUnits, blocks.freeBlocks(plane), 0); // settles the plane's credit
            return;
        }
        double owed = pacer.owed(plane, hostUnits, blocks.freeBlocks(plane), gc.copyRatio(plane));
        // a victim with nothing (left) to copy costs only its erase: it goes at once, whatever is owed
        while (owed > 0 || gc.nothingLeftToCopy(plane)) {
            owed = pacer.spend(plane, gc.copy(plane, owed, nowNs));
            if (!gc.cleaning(plane)) {
                // the victim was erased: go on with the next one while the plane is still in debt
                pacer.observe(blocks.freeBlocks());
                if (!pacer.cleans(blocks.freeBlocks(plane)) || !gc.ensureVictim(plane, nowNs)) {
                    break;
                }
            }
        }
    }

    /** @return when the data of all mapped units is read out; unmapped units cost no NAND access */
    public long read(int firstLpn, int units, long atNs) {
        // the controller needs each unit's mapping first: a map segment it does not cache is read from flash
        long mappedNs = atNs;
        for (int i = 0; i < units; i++) {
            mappedNs = Math.max(mappedNs, extra.onHostMapLookup(firstLpn + i, atNs));
        }
        long doneNs = mappedNs;
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
            long readNs = flash.read(blocks.planeOfBlock(block), run * layout.unitTransferBytes(), mappedNs);
            counters.nandBytesRead += pageBytes;
            if (readNs > doneNs) {
                doneNs = readNs;
            }
        }
        return doneNs;
    }

    /** @return when the mappings of the trimmed units are updated */
    public long trim(int firstLpn, int units, long atNs) {
        long doneNs = atNs;
        for (int i = 0; i < units; i++) {
            if (versions != null) {
                versions.trimmed(firstLpn + i, atNs);
            }
            if (mapping.trim(firstLpn + i)) {
                doneNs = Math.max(doneNs, extra.onHostMapUpdate(firstLpn + i, atNs));
            }
        }
        return doneNs;
    }

    /**
     * One idle-GC step: cleans one victim on every plane whose free blocks are below its share of the idle
     * target, in parallel across planes; a plane whose cheapest victim costs more copies per unit freed than the
     * preset's idle limit is left alone (its victim stays chosen for background GC).
     *
     * @return when the step's last erase completes, or -1 if idle GC has nothing (more) to do
     */
    public long idleGcStep(long nowNs) {
        long doneNs = -1;
        for (int plane = 0; plane < planes; plane++) {
            if ((long) blocks.freeBlocks(plane) * planes >= thresholds.idleTargetFreeBlocks()) {
                continue;
            }
            double maxCopyRatio = thresholds.idleMaxCopyRatio();
            if (maxCopyRatio > 0 && gc.ensureVictim(plane, nowNs) && gc.copyRatio(plane) > maxCopyRatio) {
                continue;
            }
            long erasedNs = gc.finishVictim(plane, nowNs);
            if (erasedNs != GarbageCollector.NOTHING_TO_COLLECT) {
                counters.idleGcInvocations++;
                doneNs = Math.max(doneNs, erasedNs);
            }
        }
        return doneNs;
    }

    /**
     * Whether idle GC starting now is urgent ({@link GcThresholds#idleUrgent}): chooses each plane's victim (idle or
     * background GC cleans it next) and averages what they cost.
     */
    public boolean idleGcUrgent(long nowNs) {
        if (thresholds.idleUrgentIntervalNs() < 0 || blocks.freeBlocks() >= thresholds.stopFreeBlocks()) {
            return false;
        }
        double sum = 0;
        int victims = 0;
        for (int plane = 0; plane < planes; plane++) {
            if (gc.ensureVictim(plane, nowNs)) {
                sum += gc.copyRatio(plane);
                victims++;
            }
        }
        return victims > 0 && thresholds.idleUrgent(blocks.freeBlocks(), sum / victims);
    }

    public long bufferDrainedAtNs() {
        return buffer.drainedAtNs();
    }

    /**
     * A FLUSH (or a FUA write's completion) at {@code atNs}: every unit buffered so far must be on flash. The pages
     * already issued complete in their time; where units are recorded for a power cut, each plane's open page is
     * also written out now, padded (a host program: its units are programmed again when the page fills, as the
     * frontier does not skip the padding), and the mapping checkpointed as it is.
     *
     * @return when every buffered unit is on flash
     */
    public long flush(long atNs) {
        long doneNs = Math.max(atNs, buffer.drainedAtNs());
        if (versions == null) {
            return doneNs;
        }
        for (int plane = 0; plane < planes; plane++) {
            if (versions.hasPending(plane)) {
                long programmedNs = flash.program(plane, pageBytes, atNs);
                counters.nandBytesWritten[ProgramCause.HOST.ordinal()] += pageBytes;
                versions.padded(plane, programmedNs);
                doneNs = Math.max(doneNs, programmedNs);
            }
        }
        versions.checkpointed(doneNs);
        return doneNs;
    }

    public GcThresholds thresholds() {
        return thresholds;
    }

    /** Free blocks of the whole drive. */
    public int freeBlocks() {
        return blocks.freeBlocks();
    }

    public long totalErases() {
        return blocks.totalErases();
    }

    /** Units currently holding data. */
    public int mappedUnits() {
        return mapping.mappedUnits();
    }
}
