package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * Page-level (4 KiB unit) mapping: logical page number (LPN) to physical slot number (PPN =
 * block << slotShift | slot), the reverse map, and the number of valid units per block. Primitive
 * int arrays, 8 bytes per 4 KiB of capacity: a 128 GiB-raw drive needs ~256 MB. The PPN stride is the
 * block's largest slot count rounded up to a power of two, so block and slot are a shift and a mask away
 * (an int division costs as much as the rest of a GC copy).
 */
public final class MappingTable {
    public static final int UNMAPPED = -1;

    private final int[] logicalToPhysical;
    private final int[] physicalToLogical;
    private final int[] validCount;
    /** Slots block b was opened with (its packing); PPNs still step by the maximum, {@code slotsPerBlock}. */
    private final int[] capacityOfBlock;
    private final int slotsPerBlock;
    private final int slotShift;
    private final int slotMask;
    private int mappedUnits;
    private ValidCountListener listener = (block, count) -> { };

    /** @param maxSlotsPerBlock the most units a block can hold (rounded up to a power of two for the stride) */
    public MappingTable(int logicalUnits, int blocks, int maxSlotsPerBlock) {
        int slotsPerBlock = maxSlotsPerBlock <= 1 ? 1 : Integer.highestOneBit(maxSlotsPerBlock - 1) << 1;
        long physicalSlots = (long) blocks * slotsPerBlock;
        if (physicalSlots > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("physical slots " + physicalSlots + " exceed the int range of the mapping table");
        }
        this.slotsPerBlock = slotsPerBlock;
        this.slotShift = Integer.numberOfTrailingZeros(slotsPerBlock);
        this.slotMask = slotsPerBlock - 1;
        this.logicalToPhysical = new int[logicalUnits];
        this.physicalToLogical = new int[(int) physicalSlots];
        this.validCount = new int[blocks];
        this.capacityOfBlock = new int[blocks];
        Arrays.fill(capacityOfBlock, maxSlotsPerBlock);
        Arrays.fill(logicalToPhysical, UNMAPPED);
        Arrays.fill(physicalToLogical, UNMAPPED);
    }

    public void setListener(ValidCountListener listener) {
        this.listener = listener;
    }

    public int logicalUnits() {
        return logicalToPhysical.length;
    }

    /** PPN stride: at least the most units a block can hold (best compression); a power of two. */
    public int slotsPerBlock() {
        return slotsPerBlock;
    }

    /** log2 of {@link #slotsPerBlock()}: block = ppn >>> slotShift. */
    public int slotShift() {
        return slotShift;
    }

    /** slot = ppn &amp; slotMask. */
    public int slotMask() {
        return slotMask;
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
        validCount[ppn >>> slotShift]++;
    }

    /**
     * GC copy of {@code lpn} from {@code oldPpn} (in a victim being cleaned) to {@code newPpn}. Unlike
     * {@link #map} it needs no read of the forward map (the caller knows where the unit was) and tells no
     * listener (a victim is out of every selector while it is cleaned); the victim's reverse entries are
     * cleared by {@link #clearBlock} when it is erased.
     */
    public void relocate(int lpn, int oldPpn, int newPpn) {
        logicalToPhysical[lpn] = newPpn;
        physicalToLogical[newPpn] = lpn;
        validCount[oldPpn >>> slotShift]--;
        validCount[newPpn >>> slotShift]++;
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
        int base = block << slotShift;
        Arrays.fill(physicalToLogical, base, base + slotsPerBlock, UNMAPPED);
    }

    private void invalidate(int ppn) {
        physicalToLogical[ppn] = UNMAPPED;
        int block = ppn >>> slotShift;
        int count = --validCount[block];
        listener.onValidCountDecremented(block, count);
    }
}
