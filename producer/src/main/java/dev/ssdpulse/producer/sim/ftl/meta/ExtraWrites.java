package dev.ssdpulse.producer.sim.ftl.meta;

import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.ftl.counters.FlashCounters;
import dev.ssdpulse.producer.sim.nand.FlashTimeline;
import dev.ssdpulse.producer.sim.nand.ProgramCause;

/**
 * The NAND work a controller does for its own bookkeeping, each program under its cause: a parity page per
 * stripe of data pages ({@link ProgramCause#PARITY}), and on a controller that caches its mapping table
 * ({@link MapCache}) the map segments it reads on a miss and writes back when a dirty one is evicted, packed
 * into full pages ({@link ProgramCause#METADATA}). Parity and map pages go to flash outside the user data pool
 * (the parity reserve and the firmware/map area), so they cost plane time and NAND bytes but take none of the
 * data pool's free blocks; their own block recycling is not modelled. Programs rotate over the planes so the
 * extra load is spread like a striped write; a segment is read from plane (segment mod planes).
 *
 * <p>Timing: a map miss on the host path (a write or read needs its unit's mapping) is a host read, ahead of
 * the work queued on its plane ({@link FlashTimeline#read}), and the command waits for it; the misses of a GC
 * copy are read with the copy ({@link FlashTimeline#copyStep}). Parity and write-back programs queue in issue
 * order with everything else.
 */
public final class ExtraWrites {
    private final FlashTimeline flash;
    private final FlashCounters counters;
    private final int pageBytes;
    private final int planes;
    private final int parityStripeDataPages;
    private final MapCache mapCache;
    private final int segmentBytes;
    private int dataPagesInStripe;
    private int pendingMetadataBytes;
    private int nextParityPlane;
    private int nextMetadataPlane;

    public ExtraWrites(
            MetadataSpec spec,
            int logicalUnits,
            FlashTimeline flash,
            FlashCounters counters,
            int pageBytes,
            int planes) {
        this.flash = flash;
        this.counters = counters;
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

    /** A data page (host, GC or wear levelling) was programmed: one parity page closes every stripe. */
    public void onDataPageProgrammed(long nowNs) {
        if (parityStripeDataPages <= 0) {
            return;
        }
        if (++dataPagesInStripe >= parityStripeDataPages) {
            dataPagesInStripe = 0;
            flash.program(nextParityPlane, pageBytes, nowNs);
            nextParityPlane = nextParityPlane + 1 == planes ? 0 : nextParityPlane + 1;
            counters.nandBytesWritten[ProgramCause.PARITY.ordinal()] += pageBytes;
        }
    }

    /**
     * A host write changes the mapping of {@code lpn} at {@code nowNs}.
     *
     * @return when its map segment is in the cache (at once on a hit, after a NAND read on a miss)
     */
    public long onHostMapUpdate(int lpn, long nowNs) {
        return mapCache == null ? nowNs : hostAccess(mapCache.update(lpn), nowNs);
    }

    /** A host read needs the mapping of {@code lpn}: @return when its map segment is in the cache */
    public long onHostMapLookup(int lpn, long nowNs) {
        return mapCache == null ? nowNs : hostAccess(mapCache.lookup(lpn), nowNs);
    }

    /**
     * A GC copy changes the mapping of {@code lpn}: its segment is loaded if needed (the caller reads it with the
     * copy, {@link FlashTimeline#copyStep}) and dirtied.
     *
     * @return 1 if the segment had to be read from flash, else 0
     */
    public int onGcMapUpdate(int lpn, long nowNs) {
        if (mapCache == null) {
            return 0;
        }
        int flags = mapCache.update(lpn);
        if ((flags & MapCache.WRITE_BACK) != 0) {
            writeBack(nowNs);
        }
        if ((flags & MapCache.MISS) != 0) {
            counters.nandBytesRead += pageBytes;
            return 1;
        }
        return 0;
    }

    /** Bytes of one map segment (what a miss reads over the channel); 0 when the map is not cached. */
    public int mapSegmentBytes() {
        return segmentBytes;
    }

    private long hostAccess(int flags, long nowNs) {
        long readyNs = nowNs;
        if ((flags & MapCache.MISS) != 0) {
            readyNs = flash.read(mapCache.lastSegment() % planes, segmentBytes, nowNs);
            counters.nandBytesRead += pageBytes;
        }
        if ((flags & MapCache.WRITE_BACK) != 0) {
            writeBack(nowNs);
        }
        return readyNs;
    }

    private void writeBack(long nowNs) {
        pendingMetadataBytes += segmentBytes;
        while (pendingMetadataBytes >= pageBytes) {
            pendingMetadataBytes -= pageBytes;
            flash.program(nextMetadataPlane, pageBytes, nowNs);
            nextMetadataPlane = nextMetadataPlane + 1 == planes ? 0 : nextMetadataPlane + 1;
            counters.nandBytesWritten[ProgramCause.METADATA.ordinal()] += pageBytes;
        }
    }
}
