package dev.ssdpulse.producer.smart;

/**
 * What one count of a drive counter is.
 *
 * @param name  as shown and recorded ("B", "512,000 B", "32 MiB", "NAND page", "unknown", ...)
 * @param bytes bytes per count; null where the unit is not a byte size (NAND pages of unknown size, a vendor's
 *              unpublished unit, unknown)
 */
public record CounterUnit(String name, Long bytes) {
    public static final CounterUnit BYTE = new CounterUnit("B", 1L);
    /** NVMe SMART / Health log Data Units: thousands of 512-byte units, whatever the LBA size. */
    public static final CounterUnit NVME_DATA_UNIT = new CounterUnit("512,000 B", 512_000L);

    public static final CounterUnit MIB = new CounterUnit("MiB", 1L << 20);
    public static final CounterUnit MIB_32 = new CounterUnit("32 MiB", 32L << 20);
    public static final CounterUnit GIB = new CounterUnit("GiB", 1L << 30);
    /** A drive database name ending in _GB; taken as 10^9 bytes as named. */
    public static final CounterUnit GB = new CounterUnit("GB", 1_000_000_000L);
    /** A NAND page of a size the drive does not tell; a ratio of two page counts is still a ratio. */
    public static final CounterUnit NAND_PAGE = new CounterUnit("NAND page", null);
    /** A unit nothing published says. */
    public static final CounterUnit UNKNOWN = new CounterUnit("unknown", null);

    /** Logical blocks of {@code sectorBytes} (ATA Total_LBAs_Written). */
    public static CounterUnit lba(long sectorBytes) {
        return new CounterUnit("LBA (" + sectorBytes + " B)", sectorBytes);
    }

    /** A vendor's own unit, not a published byte size: usable only against a counter in the same unit. */
    public static CounterUnit vendor(String name) {
        return new CounterUnit(name, null);
    }

    public boolean isUnknown() {
        return this.equals(UNKNOWN);
    }
}
