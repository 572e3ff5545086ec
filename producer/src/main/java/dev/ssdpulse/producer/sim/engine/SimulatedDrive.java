package dev.ssdpulse.producer.sim.engine;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.ftl.Ftl;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.ftl.mapping.MappingPlan;
import dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts;
import dev.ssdpulse.producer.sim.ftl.power.PowerCut;
import dev.ssdpulse.producer.sim.ftl.power.UnitVersions;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.nand.ProgramCause;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.List;

/**
 * Composition root of one simulated drive, in the state of a secure-erased drive when built. Executes
 * host commands at virtual times ({@link #execute}) and creates runs that drive it through phases
 * ({@link #newRun}). Not thread-safe; one drive per simulation.
 *
 * <p>Command timing: controller overhead, then for a write the payload over the host link and unit by
 * unit into the write buffer (each unit waiting for a slot of its plane's share, see {@code WriteBuffer}, and
 * for its map segment when the controller caches the map and misses); for a read the map segments it misses,
 * the NAND page reads, then the payload over the host link. Reads of never-written (or trimmed) LBAs touch no NAND and
 * complete after the overhead and link transfer, as drives return zeroes from the mapping table. Writes
 * and reads that are not 4 KiB-aligned cover every unit they touch (the read-modify-write of a partial
 * unit is not charged separately). TRIM unmaps only the units it covers completely. Reads of data still
 * in the write buffer are charged a NAND read like any other (slightly pessimistic for read-after-write).
 *
 * <pre>{@code
 * SimulatedDrive drive = SimulatedDrive.fromPreset("sata-mlc-120gb-2012", seed);   // or a JSON file path
 * drive.fill(24_000_000_000L, drive.capacityBytes() - 24_000_000_000L);           // static data, untimed
 * SimulationRun run = drive.newRun(List.of(
 *         SimPhase.io(0, List.of(generator), 1, 20 * 60_000_000_000L, 0),          // QD1, 20 min
 *         SimPhase.idle(1, 5 * 60_000_000_000L)),                                 // idle GC may run
 *     sink, smartListener, 1_000_000_000L, phaseListener);                        // SMART every 1 s
 * run.runToCompletion();             // as fast as possible, or step: run.runUntil(t) with sleeps
 * }</pre>
 */
public final class SimulatedDrive {
    private final SsdConfig config;
    private final FlashTimeline flash;
    private final Ftl ftl;
    private final FlashCounters counters = new FlashCounters();
    private final long capacityBytes;
    private final long commandOverheadNs;
    /** Host units' versions for a power cut; null unless the drive was built to record them. */
    private final UnitVersions versions;

    private long clockNs;

    public SimulatedDrive(SsdConfig config, long seed) {
        this(config, seed, MappingPlan.longLivedHeapBytes());
    }

    /**
     * A drive whose mapping table plans for {@code heapBudgetBytes} of heap ({@link MappingPlan}): with 1 GiB the
     * 2012 preset gets int maps (394 MB), the 1 TB preset a packed forward map (885 MB) and a reverse map
     * rebuilt from it for GC victims (slower, same results).
     */
    public SimulatedDrive(SsdConfig config, long seed, long heapBudgetBytes) {
        this(config, seed, heapBudgetBytes, false);
    }

    /**
     * @param recordsVersions record what each host unit holds and since when it is on flash, for a power cut
     *                        (a run with a POWER_CUT phase; 40 bytes per unit the run writes)
     * @throws IllegalArgumentException when versions are to be recorded and the preset does not model a power cut
     */
    public SimulatedDrive(SsdConfig config, long seed, long heapBudgetBytes, boolean recordsVersions) {
        this.config = config.validate();
        if (recordsVersions && !config.power().modelled()) {
            throw new IllegalArgumentException("drive " + config.name() + " does not model a power cut (its preset"
                    + " has no power.mapCheckpointIntervalNs): choose one that does, e.g. sata-mlc-120gb-2012 or"
                    + " sata-mlc-120gb-2012-plp");
        }
        NandGeometry geometry = config.geometry();
        PackingLayouts layout = new PackingLayouts(geometry, config.ftl().compressionRatio());
        MappingPlan plan = MappingPlan.forHeap(
                config.userUnits(), geometry.blocks(), geometry.planes(), layout.maxSlotsPerBlock(), heapBudgetBytes);
        this.flash = new FlashTimeline(geometry, config.timing(), config.host().linkMBps());
        this.versions = recordsVersions
                ? new UnitVersions(
                        config.userUnits(), geometry.planes(), config.power().mapCheckpointIntervalNs())
                : null;
        this.ftl = new Ftl(config, flash, counters, plan, seed, versions);
        this.capacityBytes = config.userUnits() * NandGeometry.MAPPING_UNIT_BYTES;
        this.commandOverheadNs = config.host().commandOverheadNs();
    }

    /** A secure-erased drive from a built-in preset name or a preset file path. */
    public static SimulatedDrive fromPreset(String nameOrPath, long seed) {
        return new SimulatedDrive(new SsdPresets().resolve(nameOrPath), seed);
    }

    public SsdConfig config() {
        return config;
    }

    /** User capacity in bytes (whole 4 KiB units). */
    public long capacityBytes() {
        return capacityBytes;
    }

    /** The drive's virtual clock (ns since it was built); advanced by runs. */
    public long clockNs() {
        return clockNs;
    }

    void advanceClockTo(long timeNs) {
        if (timeNs > clockNs) {
            clockNs = timeNs;
        }
    }

    public int freeBlocks() {
        return ftl.freeBlocks();
    }

    /** Units currently holding data. */
    public int mappedUnits() {
        return ftl.mappedUnits();
    }

    /**
     * Writes static data sequentially over [offset, offset + length) without timing: the state equals a
     * sequential fill followed by enough idle time for the flash to finish it. Counts as host and NAND
     * writes (WA 1 for a sequential fill of free space), GC runs as usual if needed.
     */
    public void fill(long offsetBytes, long lengthBytes) {
        fill(offsetBytes, lengthBytes, 1.0);
    }

    /**
     * As {@link #fill(long, long)} with data that compresses to {@code compressedFraction} of its size
     * (1.0 incompressible; a compressing controller stores it in less flash).
     */
    public void fill(long offsetBytes, long lengthBytes, double compressedFraction) {
        checkRange(offsetBytes, lengthBytes);
        int first = (int) (offsetBytes / NandGeometry.MAPPING_UNIT_BYTES);
        int last = (int) ((offsetBytes + lengthBytes - 1) / NandGeometry.MAPPING_UNIT_BYTES);
        flash.setEnabled(false);
        try {
            int chunk = 1 << 16;
            for (int lpn = first; lpn <= last; lpn += chunk) {
                int n = Math.min(chunk, last - lpn + 1);
                ftl.write(lpn, n, compressedFraction, clockNs);
            }
        } finally {
            flash.setEnabled(true);
        }
        counters.hostBytesWritten += (long) (last - first + 1) * NandGeometry.MAPPING_UNIT_BYTES;
    }

    /**
     * Executes one host command submitted at drive time {@code atNs}.
     *
     * @return the drive time at which it completes
     * @throws IllegalArgumentException for a command outside the user capacity or an unknown op
     */
    public long execute(byte op, long offsetBytes, int sizeBytes, long atNs) {
        return execute(op, offsetBytes, sizeBytes, 1.0, atNs);
    }

    /**
     * As {@link #execute(byte, long, int, long)}; a write's data compresses to {@code compressedFraction} of
     * its size (1.0 incompressible, 0 zeros), which a compressing controller turns into fewer NAND bytes.
     */
    public long execute(byte op, long offsetBytes, int sizeBytes, double compressedFraction, long atNs) {
        return execute(op, offsetBytes, sizeBytes, compressedFraction, atNs, UnitVersions.NONE, IoFlags.NONE);
    }

    /**
     * As {@link #execute(byte, long, int, double, long)} for a write that stamps {@code sequence} into its units
     * ({@link UnitVersions#NONE}: none) with {@code ioFlags} ({@link IoFlags#FUA}: it completes once its units are
     * on flash).
     */
    public long execute(
            byte op,
            long offsetBytes,
            int sizeBytes,
            double compressedFraction,
            long atNs,
            long sequence,
            int ioFlags) {
        long startNs = atNs + commandOverheadNs;
        if (op == IoOpCode.FLUSH) {
            return ftl.flush(startNs);
        }
        checkRange(offsetBytes, sizeBytes);
        int first = (int) (offsetBytes / NandGeometry.MAPPING_UNIT_BYTES);
        int units = (int) ((offsetBytes + sizeBytes - 1) / NandGeometry.MAPPING_UNIT_BYTES) - first + 1;
        switch (op) {
            case IoOpCode.WRITE: {
                long inNs = flash.hostTransfer(sizeBytes, startNs, startNs);
                counters.hostBytesWritten += sizeBytes;
                long doneNs = ftl.write(first, units, compressedFraction, inNs, sequence, atNs);
                return IoFlags.isFua(ioFlags) ? ftl.flush(doneNs) : doneNs;
            }
            case IoOpCode.READ: {
                long readNs = ftl.read(first, units, startNs);
                counters.hostBytesRead += sizeBytes;
                // unmapped data comes from the controller at once; the link transfer is the only cost
                return flash.hostTransfer(sizeBytes, startNs, readNs);
            }
            case IoOpCode.TRIM: {
                long end = offsetBytes + sizeBytes;
                int firstWhole =
                        (int) ((offsetBytes + NandGeometry.MAPPING_UNIT_BYTES - 1) / NandGeometry.MAPPING_UNIT_BYTES);
                int endWhole = (int) (end / NandGeometry.MAPPING_UNIT_BYTES);
                long doneNs = startNs;
                if (endWhole > firstWhole) {
                    doneNs = ftl.trim(firstWhole, endWhole - firstWhole, startNs);
                }
                counters.hostBytesTrimmed += sizeBytes;
                return doneNs;
            }
            default:
                throw new IllegalArgumentException("unknown op code " + op);
        }
    }

    /** Whether the drive records its host units' versions, as a power cut needs. */
    public boolean recordsVersions() {
        return versions != null;
    }

    /**
     * Cuts the drive's power at drive time {@code atNs} (no command after it): what each unit holds afterwards, as
     * its preset's power-loss protection and map checkpoints make it.
     *
     * @throws IllegalStateException when the drive was not built to record versions
     */
    public PowerCut cutPower(long atNs) {
        if (versions == null) {
            throw new IllegalStateException("drive " + config.name() + " was not built to record unit versions");
        }
        return versions.cut(atNs, config.power().powerLossProtection());
    }

    /** Snapshot of the SMART counters, stamped {@code timeNs}. */
    public SimSmartCounters smart(long timeNs) {
        long[] nand = counters.nandBytesWritten;
        return new SimSmartCounters(
                timeNs,
                counters.hostBytesWritten,
                counters.hostBytesRead,
                counters.hostBytesTrimmed,
                nand[ProgramCause.HOST.ordinal()],
                nand[ProgramCause.GC.ordinal()],
                nand[ProgramCause.WEAR_LEVELLING.ordinal()],
                nand[ProgramCause.METADATA.ordinal()],
                counters.nandBytesRead,
                ftl.totalErases(),
                ftl.freeBlocks(),
                counters.gcInvocations,
                counters.forcedGcInvocations,
                counters.idleGcInvocations,
                nand[ProgramCause.PARITY.ordinal()]);
    }

    /**
     * A run over {@code phases}, starting at the drive's current clock (times reported to the sink and
     * listeners are ns since that start).
     *
     * @param smartIntervalNs SMART sampling interval in virtual ns (> 0)
     */
    public SimulationRun newRun(
            List<SimPhase> phases,
            IoCompletionSink sink,
            SmartSampleListener smart,
            long smartIntervalNs,
            PhaseListener phaseListener) {
        return new SimulationRun(this, phases, sink, smart, smartIntervalNs, phaseListener);
    }

    long idleGcAfterNs() {
        return ftl.thresholds().idleAfterNs();
    }

    long idleGcIntervalNs(boolean urgent) {
        return ftl.thresholds().idleIntervalNs(urgent);
    }

    /** Whether a pause beginning now gets urgent idle GC ({@link dev.ssdpulse.producer.sim.ftl.GcThresholds#idleUrgent}). */
    boolean idleGcUrgent(long atNs) {
        return ftl.idleGcUrgent(atNs);
    }

    long idleGcStep(long atNs) {
        return ftl.idleGcStep(atNs);
    }

    private void checkRange(long offsetBytes, long sizeBytes) {
        if (offsetBytes < 0 || sizeBytes <= 0 || offsetBytes + sizeBytes > capacityBytes) {
            throw new IllegalArgumentException("I/O [" + offsetBytes + ", +" + sizeBytes + ") outside the drive's "
                    + capacityBytes + " bytes of user capacity");
        }
    }
}
