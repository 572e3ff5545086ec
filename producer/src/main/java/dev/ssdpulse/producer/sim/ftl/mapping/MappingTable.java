package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * Page-level (4 KiB unit) mapping: logical page number (LPN) to physical slot number (PPN =
 * block * slotsPerBlock + slot), the reverse map, and the number of valid units per block. Primitive
 * int arrays, 8 bytes per 4 KiB of capacity: a 128 GiB-raw drive needs ~256 MB.
 */
public final class MappingTable {
    public static final int UNMAPPED = -1;

    private final int[] logicalToPhysical;
    private final int[] physicalToLogical;
    private final int[] validCount;
    private final int slotsPerBlock;
    private int mappedUnits;
    private ValidCountListener listener = (block, count) -> { };

    public MappingTable(int logicalUnits, int blocks, int slotsPerBlock) {
        long physicalSlots = (long) blocks * slotsPerBlock;
        if (physicalSlots > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("physical slots " + physicalSlots + " exceed the int range of the mapping table");
        }
        this.slotsPerBlock = slotsPerBlock;
        this.logicalToPhysical = new int[logicalUnits];
        this.physicalToLogical = new int[(int) physicalSlots];
        this.validCount = new int[blocks];
        Arrays.fill(logicalToPhysical, UNMAPPED);
        Arrays.fill(physicalToLogical, UNMAPPED);
    }

    public void setListener(ValidCountListener listener) {
        this.listener = listener;
    }

    public int logicalUnits() {
        return logicalToPhysical.length;
    }

    public int slotsPerBlock() {
        return slotsPerBlock;
    }

    public int mappedUnits() {
        return mappedUnits;
    }

    public int lookup(int lpn) {
        return logicalToPhysical[lpn];
    }

    public int lpnAt(int ppn) {
        return physicalToLogical[ppn];
    }

    public int validCount(int block) {
        return validCount[block];
    }

    /** Points {@code lpn} at {@code ppn}, invalidating the old copy; used for host and GC writes alike. */
    public void map(int lpn, int ppn) {
        int old = logicalToPhysical[lpn];
        if (old != UNMAPPED) {
            invalidate(old);
        } else {
            mappedUnits++;
        }
        logicalToPhysical[lpn] = ppn;
        physicalToLogical[ppn] = lpn;
        validCount[ppn / slotsPerBlock]++;
    }

    /** TRIM: the unit no longer holds data. @return true if it was mapped */
    public boolean trim(int lpn) {
        int old = logicalToPhysical[lpn];
        if (old == UNMAPPED) {
            return false;
        }
        invalidate(old);
        logicalToPhysical[lpn] = UNMAPPED;
        mappedUnits--;
        return true;
    }

    /** Called after a block's valid units were relocated and it was erased. */
    public void clearBlock(int block) {
        if (validCount[block] != 0) {
            throw new IllegalStateException("block " + block + " erased with " + validCount[block] + " valid units");
        }
        int base = block * slotsPerBlock;
        Arrays.fill(physicalToLogical, base, base + slotsPerBlock, UNMAPPED);
    }

    private void invalidate(int ppn) {
        physicalToLogical[ppn] = UNMAPPED;
        int block = ppn / slotsPerBlock;
        int count = --validCount[block];
        listener.onValidCountDecremented(block, count);
    }
}
