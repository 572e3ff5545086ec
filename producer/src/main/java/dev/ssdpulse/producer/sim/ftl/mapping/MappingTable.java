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
    /** Slots block b was opened with (its packing); PPNs still step by the maximum, {@code slotsPerBlock}. */
    private final int[] capacityOfBlock;
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
        this.capacityOfBlock = new int[blocks];
        Arrays.fill(capacityOfBlock, slotsPerBlock);
        Arrays.fill(logicalToPhysical, UNMAPPED);
        Arrays.fill(physicalToLogical, UNMAPPED);
    }

    public void setListener(ValidCountListener listener) {
        this.listener = listener;
    }

    public int logicalUnits() {
        return logicalToPhysical.length;
    }

    /** PPN stride: the most units a block can hold (best compression). */
    public int slotsPerBlock() {
        return slotsPerBlock;
    }

    /** Units block {@code block} holds when full: fewer than {@link #slotsPerBlock()} for less compressible data. */
    public int blockCapacity(int block) {
        return capacityOfBlock[block];
    }

    /** Called when a block is opened for data packed {@code slots} units to the block. */
    public void setBlockCapacity(int block, int slots) {
        if (slots < 1 || slots > slotsPerBlock) {
            throw new IllegalArgumentException("block capacity " + slots + " outside 1.." + slotsPerBlock);
        }
        capacityOfBlock[block] = slots;
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
