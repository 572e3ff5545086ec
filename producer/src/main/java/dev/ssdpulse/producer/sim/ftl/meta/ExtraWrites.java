package dev.ssdpulse.producer.sim.ftl.meta;

import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.ftl.admission.HostWriteAdmission;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.ProgramCause;

/**
 * The NAND programs a controller makes for its own bookkeeping, each under its cause: a parity page per
 * stripe of data pages ({@link ProgramCause#PARITY}) and mapping-table segments written back from the map
 * cache, packed into full pages ({@link ProgramCause#METADATA}). Both go to flash outside the user data
 * pool (the parity reserve and the firmware/map area), so they cost program time on a plane and NAND
 * bytes but do not consume the data pool's free blocks; their own block recycling is not modelled.
 * Programs rotate over the planes in order so the extra load is spread like a striped write. Those the host
 * path causes (a host write or TRIM; {@code hostPath}) go ahead of queued GC work as host pages do, unless
 * erased blocks run low ({@link HostWriteAdmission#mayBookkeepingOvertake}); those GC causes queue with it.
 */
public final class ExtraWrites {
    private final FlashTimeline flash;
    private final FlashCounters counters;
    private final HostWriteAdmission admission;
    private final int pageBytes;
    private final int planes;
    private final int parityStripeDataPages;
    private final MapCache mapCache;
    private final int segmentBytes;
    private int dataPagesInStripe;
    private int pendingMetadataBytes;
    private int nextParityPlane;
    private int nextMetadataPlane;

    /** @param admission decides whether the host path's programs go ahead of GC; null: every program queues */
    public ExtraWrites(
            MetadataSpec spec,
            int logicalUnits,
            FlashTimeline flash,
            FlashCounters counters,
            HostWriteAdmission admission,
            int pageBytes,
            int planes) {
        this.flash = flash;
        this.counters = counters;
        this.admission = admission;
        this.pageBytes = pageBytes;
        this.planes = planes;
        this.parityStripeDataPages = spec.parityStripeDataPages();
        this.segmentBytes = spec.mapSegmentBytes();
        if (segmentBytes > 0) {
            int unitsPerSegment = Math.max(1, segmentBytes / 4); // 4-byte entries
            int capacity = (int) Math.max(1, spec.mapCacheBytes() / segmentBytes);
            this.mapCache = new MapCache(logicalUnits, unitsPerSegment, capacity);
        } else {
            this.mapCache = null;
        }
        this.nextParityPlane = planes / 2; // parity rotates apart from the metadata stream
    }

    /** A data page (GC or wear-levelling) was programmed: one parity page closes every stripe. */
    public void onDataPageProgrammed(long nowNs) {
        onDataPageProgrammed(nowNs, false);
    }

    /** A data page was programmed, by the host path if {@code hostPath}: one parity page closes every stripe. */
    public void onDataPageProgrammed(long nowNs, boolean hostPath) {
        if (parityStripeDataPages <= 0) {
            return;
        }
        if (++dataPagesInStripe >= parityStripeDataPages) {
            dataPagesInStripe = 0;
            program(nextParityPlane, nowNs, hostPath);
            nextParityPlane = nextParityPlane + 1 == planes ? 0 : nextParityPlane + 1;
            counters.nandBytesWritten[ProgramCause.PARITY.ordinal()] += pageBytes;
        }
    }

    /** The mapping of {@code lpn} changed (GC copy). */
    public void onMapUpdate(int lpn, long nowNs) {
        onMapUpdate(lpn, nowNs, false);
    }

    /**
     * The mapping of {@code lpn} changed: by the host path (host write, TRIM) if {@code hostPath}, else by a GC copy.
     */
    public void onMapUpdate(int lpn, long nowNs, boolean hostPath) {
        if (mapCache == null || !mapCache.update(lpn)) {
            return;
        }
        pendingMetadataBytes += segmentBytes;
        while (pendingMetadataBytes >= pageBytes) {
            pendingMetadataBytes -= pageBytes;
            program(nextMetadataPlane, nowNs, hostPath);
            nextMetadataPlane = nextMetadataPlane + 1 == planes ? 0 : nextMetadataPlane + 1;
            counters.nandBytesWritten[ProgramCause.METADATA.ordinal()] += pageBytes;
        }
    }

    private void program(int plane, long nowNs, boolean hostPath) {
        if (hostPath && admission != null && admission.mayBookkeepingOvertake(plane, nowNs)) {
            flash.hostProgram(plane, pageBytes, nowNs);
        } else {
            flash.program(plane, pageBytes, nowNs);
        }
    }
}
