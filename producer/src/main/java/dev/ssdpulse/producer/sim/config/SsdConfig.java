package dev.ssdpulse.producer.sim.config;

import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.nand.NandTiming;
import java.util.Locale;

/**
 * A complete, immutable drive description, as stored in a preset JSON file. {@link #validate()} checks
 * every field and the capacity arithmetic and names the offending field in its error.
 */
public record SsdConfig(
        String name,
        String description,
        NandGeometry geometry,
        CapacitySpec capacity,
        NandTiming timing,
        HostSpec host,
        FtlSpec ftl,
        CacheSpec cache,
        MetadataSpec metadata) {

    public long rawFlashBytes() {
        return geometry.rawBytes();
    }

    public long userUnits() {
        return capacity.userCapacityBytes() / NandGeometry.MAPPING_UNIT_BYTES;
    }

    /** Blocks that never hold user data: parity reserve plus bad-block reserve, rounded up. */
    public int reservedBlocks() {
        long parity = ceilDiv(capacity.parityReserveBytes(), geometry.blockBytes());
        long bad = (long) Math.ceil(capacity.badBlockReserveFraction() * geometry.blocks() - 1e-9);
        return (int) (parity + bad);
    }

    /**
     * Mapping slots per block at the controller's best compression ({@code ftl.compressionRatio}); what a
     * block holds depends on each write's data (see {@link dev.ssdpulse.producer.sim.ftl.mapping.PackingLayouts}).
     */
    public int slotsPerBlock() {
        return (int)
                Math.floor(geometry.pagesPerBlock() * (double) geometry.unitsPerPage() / ftl.compressionRatio() + 1e-9);
    }

    /** Units a block holds of incompressible data: the capacity arithmetic must hold for any data. */
    public int uncompressedSlotsPerBlock() {
        return geometry.pagesPerBlock() * geometry.unitsPerPage();
    }

    /**
     * Physical / logical units over the whole user space for incompressible data (Desnoyers' alpha; spare
     * factor = alpha - 1).
     */
    public double physicalToLogical() {
        return (geometry.blocks() - (double) reservedBlocks()) * uncompressedSlotsPerBlock() / userUnits();
    }

    public SsdConfig withCapacity(CapacitySpec newCapacity) {
        return new SsdConfig(name, description, geometry, newCapacity, timing, host, ftl, cache, metadata);
    }

    public SsdConfig withGeometry(NandGeometry newGeometry) {
        return new SsdConfig(name, description, newGeometry, capacity, timing, host, ftl, cache, metadata);
    }

    public SsdConfig withFtl(FtlSpec newFtl) {
        return new SsdConfig(name, description, geometry, capacity, timing, host, newFtl, cache, metadata);
    }

    public SsdConfig withMetadata(MetadataSpec newMetadata) {
        return new SsdConfig(name, description, geometry, capacity, timing, host, ftl, cache, newMetadata);
    }

    /** The seed-000 option: 8 GB of parity (RAISE) reserve on or off. */
    public SsdConfig withParityReserveBytes(long bytes) {
        return withCapacity(new CapacitySpec(capacity.userCapacityBytes(), bytes, capacity.badBlockReserveFraction()));
    }

    public SsdConfig withVictimSelector(VictimPolicy policy) {
        return withFtl(new FtlSpec(
                policy,
                ftl.dChoices(),
                ftl.backgroundGcFreeBlocks(),
                ftl.forcedGcFreeBlocks(),
                ftl.idleGcTargetFreeBlocks(),
                ftl.idleGcAfterNs(),
                ftl.compressionRatio(),
                ftl.wearLevellingEraseSpread(),
                ftl.idleGcIntervalNs()));
    }

    public SsdConfig withCompressionRatio(double ratio) {
        return withFtl(new FtlSpec(
                ftl.victimSelector(),
                ftl.dChoices(),
                ftl.backgroundGcFreeBlocks(),
                ftl.forcedGcFreeBlocks(),
                ftl.idleGcTargetFreeBlocks(),
                ftl.idleGcAfterNs(),
                ratio,
                ftl.wearLevellingEraseSpread(),
                ftl.idleGcIntervalNs()));
    }

    /** One line: name, raw, user, reserve, OP. */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "%s: raw flash %s, user %s, reserved %d blocks, physical/logical %.4f",
                name,
                Capacity.format(rawFlashBytes()),
                Capacity.format(capacity.userCapacityBytes()),
                reservedBlocks(),
                physicalToLogical());
    }

    /** @return this, if every field is usable; otherwise throws naming the field */
    public SsdConfig validate() {
        require(name != null && !name.isBlank(), "name must be set");
        require(geometry != null, "geometry is missing");
        require(capacity != null, "capacity is missing");
        require(timing != null, "timing is missing");
        require(host != null, "host is missing");
        require(ftl != null, "ftl is missing");
        require(cache != null, "cache is missing");
        require(metadata != null, "metadata is missing");
        require(metadata.parityStripeDataPages() >= 0, "metadata.parityStripeDataPages must be >= 0 (0 = no parity)");
        require(
                metadata.mapSegmentBytes() == 0
                        || (metadata.mapSegmentBytes() >= 4 && metadata.mapSegmentBytes() <= geometry.pageSizeBytes()),
                "metadata.mapSegmentBytes must be 0 (map in DRAM) or 4..pageSizeBytes, got "
                        + metadata.mapSegmentBytes());
        require(
                metadata.mapSegmentBytes() == 0 || metadata.mapCacheBytes() >= metadata.mapSegmentBytes(),
                "metadata.mapCacheBytes must hold at least one map segment");
        positive("geometry.channels", geometry.channels());
        positive("geometry.diesPerChannel", geometry.diesPerChannel());
        positive("geometry.planesPerDie", geometry.planesPerDie());
        positive("geometry.blocksPerPlane", geometry.blocksPerPlane());
        positive("geometry.pagesPerBlock", geometry.pagesPerBlock());
        require(
                geometry.pageSizeBytes() >= NandGeometry.MAPPING_UNIT_BYTES
                        && geometry.pageSizeBytes() % NandGeometry.MAPPING_UNIT_BYTES == 0,
                "geometry.pageSizeBytes must be a positive multiple of 4096, got " + geometry.pageSizeBytes());
        require(
                (long) geometry.channels()
                                * geometry.diesPerChannel()
                                * geometry.planesPerDie()
                                * geometry.blocksPerPlane()
                        < Integer.MAX_VALUE,
                "geometry has more than 2^31 blocks");
        require(
                ftl.compressionRatio() > 0.05 && ftl.compressionRatio() <= 1.0,
                "ftl.compressionRatio (the controller's best compression, compressed/original size; 1.0 = no "
                        + "compression) must be in (0.05, 1.0], got "
                        + ftl.compressionRatio());
        require(
                (long) geometry.blocks() * slotsPerBlock() < Integer.MAX_VALUE,
                "geometry x compression gives more than 2^31 mapping slots; use a larger page or fewer blocks");
        require(
                timing.readNs() > 0 && timing.programNs() > 0 && timing.eraseNs() > 0,
                "timing.readNs, timing.programNs and timing.eraseNs must be > 0");
        require(timing.channelMBps() > 0, "timing.channelMBps must be > 0, got " + timing.channelMBps());
        require(host.linkMBps() > 0, "host.linkMBps must be > 0, got " + host.linkMBps());
        require(host.commandOverheadNs() >= 0, "host.commandOverheadNs must be >= 0");
        require(
                ftl.victimSelector() != null,
                "ftl.victimSelector must be one of GREEDY, FIFO, D_CHOICES, COST_BENEFIT");
        require(ftl.dChoices() >= 1, "ftl.dChoices must be >= 1, got " + ftl.dChoices());
        require(ftl.idleGcAfterNs() > 0, "ftl.idleGcAfterNs must be > 0");
        require(ftl.idleGcIntervalNs() >= 0, "ftl.idleGcIntervalNs must be >= 0 (0 = full speed)");
        require(
                ftl.wearLevellingEraseSpread() >= 0,
                "ftl.wearLevellingEraseSpread must be >= 0 (0 = off), got " + ftl.wearLevellingEraseSpread());
        int planes = geometry.planes();
        require(
                ftl.forcedGcFreeBlocks() >= 2 * planes,
                "ftl.forcedGcFreeBlocks must be >= 2 x planes = " + (2 * planes)
                        + " so plane-local GC can always open a destination block on every plane, got "
                        + ftl.forcedGcFreeBlocks());
        require(
                ftl.backgroundGcFreeBlocks() >= ftl.forcedGcFreeBlocks(),
                "ftl.backgroundGcFreeBlocks (" + ftl.backgroundGcFreeBlocks() + ") must be >= ftl.forcedGcFreeBlocks ("
                        + ftl.forcedGcFreeBlocks() + ")");
        require(
                ftl.idleGcTargetFreeBlocks() >= ftl.backgroundGcFreeBlocks(),
                "ftl.idleGcTargetFreeBlocks (" + ftl.idleGcTargetFreeBlocks()
                        + ") must be >= ftl.backgroundGcFreeBlocks (" + ftl.backgroundGcFreeBlocks() + ")");
        long unitsPerPage = Math.max(1, slotsPerBlock() / geometry.pagesPerBlock());
        require(
                cache.writeBufferBytes() >= 2L * unitsPerPage * NandGeometry.MAPPING_UNIT_BYTES,
                "cache.writeBufferBytes must hold at least two pages of units ("
                        + 2L * unitsPerPage * NandGeometry.MAPPING_UNIT_BYTES + " bytes), got "
                        + cache.writeBufferBytes());
        require(
                cache.writeBufferBytes() / NandGeometry.MAPPING_UNIT_BYTES < Integer.MAX_VALUE / 2,
                "cache.writeBufferBytes too large");
        long user = capacity.userCapacityBytes();
        require(user >= NandGeometry.MAPPING_UNIT_BYTES, "capacity.userCapacityBytes must be >= 4096, got " + user);
        require(capacity.parityReserveBytes() >= 0, "capacity.parityReserveBytes must be >= 0");
        require(
                capacity.badBlockReserveFraction() >= 0 && capacity.badBlockReserveFraction() < 0.5,
                "capacity.badBlockReserveFraction must be in [0, 0.5), got " + capacity.badBlockReserveFraction());
        if (user > rawFlashBytes()) {
            throw new SsdConfigException("user capacity " + Capacity.format(user) + " exceeds raw flash "
                    + Capacity.format(rawFlashBytes()));
        }
        require(userUnits() < Integer.MAX_VALUE, "capacity.userCapacityBytes gives more than 2^31 mapping units");
        // the GC must keep its free blocks and one open block per plane per stream besides the user data
        long overheadBlocks = ftl.backgroundGcFreeBlocks() + 2L * planes;
        long dataSlots = (geometry.blocks() - reservedBlocks() - overheadBlocks) * (long) uncompressedSlotsPerBlock();
        if (userUnits() >= dataSlots) {
            long dataBytes = dataSlots * (long) NandGeometry.MAPPING_UNIT_BYTES;
            throw new SsdConfigException("user capacity " + Capacity.format(user) + " leaves no spare: raw flash "
                    + Capacity.format(rawFlashBytes()) + " minus " + reservedBlocks() + " reserved blocks (parity "
                    + Capacity.format(capacity.parityReserveBytes()) + ", bad-block fraction "
                    + capacity.badBlockReserveFraction()
                    + ") and " + overheadBlocks + " GC/frontier blocks holds only "
                    + Capacity.format(Math.max(0, dataBytes)));
        }
        return this;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new SsdConfigException(message);
        }
    }

    private static void positive(String field, int value) {
        require(value > 0, field + " must be > 0, got " + value);
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
