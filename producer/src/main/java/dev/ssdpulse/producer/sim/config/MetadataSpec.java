package dev.ssdpulse.producer.sim.config;

/**
 * The NAND writes a controller makes besides data and GC copies. {@code parityStripeDataPages}: one
 * parity page is programmed per that many data pages (RAISE-like die parity; 0 = none); the parity pages
 * live in the capacity's parity reserve. {@code mapSegmentBytes}: the mapping table is cached and written
 * back in segments of this size (4 bytes per 4 KiB unit); 0 = the whole table sits in DRAM and its
 * write-back is negligible. {@code mapCacheBytes}: the controller RAM that caches map segments (SRAM on a
 * DRAM-less controller); a dirty segment is written to flash when evicted.
 */
public record MetadataSpec(int parityStripeDataPages, int mapSegmentBytes, long mapCacheBytes) {
    public static final MetadataSpec NONE = new MetadataSpec(0, 0, 0);
}
