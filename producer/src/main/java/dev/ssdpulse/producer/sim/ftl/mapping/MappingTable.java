package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * Page-level (4 KiB unit) mapping: logical page number (LPN) to physical slot number (PPN =
 * block << slotShift | slot), the reverse map, and the number of valid units per block. The PPN stride is
 * the block's largest slot count rounded up to a power of two, so block and slot are a shift and a mask away
 * (an int division costs as much as the rest of a GC copy).
 *
 * <p>Memory: the forward map is an int per 4 KiB of user capacity, or, when that does not fit the heap
 * budget, packed at the bits a PPN needs (+1 for "unmapped"): 29 bits on the 1 TB preset (885 MB instead of
 * 977 MB; packed writes are slower, see {@link PackedIntArray}). The reverse map (which unit a slot
 * holds, for GC) is either an int per physical slot ({@link ArrayReverseMap}) or, when that does not fit
 * the heap budget, the owners of a few likely victims rebuilt from the forward map on demand
 * ({@link ScanningReverseMap}). Both give the same results; the second trades passes over the forward map
 * for 4 bytes per physical slot.
 *
 * <p>Speed: host writes ({@link #map}) are applied in batches of up to {@value #BATCH}, in order, before
 * anything reads the table (every reading method, and {@link #flush} which GC and the write frontiers call
 * before they consult the victim selectors the listener feeds). The batch first loads every unit's old
 * entry: on a large drive each is a cache and TLB miss, and independent loads overlap where one at a time
 * they cost a third of a random-write run. Results are those of applying each write at once. GC copies likewise
 * load a victim's forward entries side by side first ({@link #validUnitsOf}).
 */
public final class MappingTable {
    public static final int UNMAPPED = -1;
    private static final int BATCH = 32;

    /** PPN + 1 per LPN, 0 for unmapped (so a new array is all unmapped). */
    private final PackedIntArray forward;

    private final ReverseMap reverse;
    private final int[] validCount;
    /** Slots block b was opened with (its packing); PPNs still step by the maximum, {@code slotsPerBlock}. */
    private final int[] capacityOfBlock;

    private final int slotsPerBlock;
    private final int slotShift;
    private final int slotMask;
    private int mappedUnits;
    private final int[] pendingLpn = new int[BATCH];
    private final int[] pendingPpn = new int[BATCH];
    private int pending;
    /** Sum of the early loads, kept so the compiler cannot drop them. */
    private int touched;

    private ValidCountListener listener = (block, count) -> {};

    /** A table with an int forward map and a per-slot reverse map. */
    public MappingTable(int logicalUnits, int blocks, int maxSlotsPerBlock) {
        this(logicalUnits, blocks, maxSlotsPerBlock, blocks, false, 0);
    }

    /**
     * @param maxSlotsPerBlock the most units a block can hold (rounded up to a power of two for the stride)
     * @param blocksPerPlane   blocks are numbered plane by plane (used to spread the reverse-map cache over planes)
     * @param packForward      store forward entries in the bits a PPN needs rather than an int
     * @param cachedBlocks     0 for a per-slot reverse map; otherwise blocks whose owners a {@link ScanningReverseMap}
     *                         holds
     */
    public MappingTable(
            int logicalUnits,
            int blocks,
            int maxSlotsPerBlock,
            int blocksPerPlane,
            boolean packForward,
            int cachedBlocks) {
        int slotsPerBlock = strideFor(maxSlotsPerBlock);
        long physicalSlots = (long) blocks * slotsPerBlock;
        if (physicalSlots > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "physical slots " + physicalSlots + " exceed the int range of the mapping table");
        }
        this.slotsPerBlock = slotsPerBlock;
        this.slotShift = Integer.numberOfTrailingZeros(slotsPerBlock);
        this.slotMask = slotsPerBlock - 1;
        this.forward = new PackedIntArray(logicalUnits, packForward ? PackedIntArray.bitsFor(physicalSlots) : 32);
        this.validCount = new int[blocks];
        this.reverse = cachedBlocks <= 0
                ? new ArrayReverseMap((int) physicalSlots, slotsPerBlock)
                : new ScanningReverseMap(forward, validCount, blocksPerPlane, slotShift, cachedBlocks);
        this.capacityOfBlock = new int[blocks];
        Arrays.fill(capacityOfBlock, maxSlotsPerBlock);
    }

    private static int strideFor(int maxSlotsPerBlock) {
        return maxSlotsPerBlock <= 1 ? 1 : Integer.highestOneBit(maxSlotsPerBlock - 1) << 1;
    }

    /** Heap bytes of the forward map for these dimensions, packed or an int per unit. */
    public static long forwardMapBytes(long logicalUnits, int blocks, int maxSlotsPerBlock, boolean packed) {
        return PackedIntArray.bytesFor(
                logicalUnits, packed ? PackedIntArray.bitsFor((long) blocks * strideFor(maxSlotsPerBlock)) : 32);
    }

    /** Heap bytes of a per-slot reverse map for these dimensions. */
    public static long arrayReverseMapBytes(int blocks, int maxSlotsPerBlock) {
        return ArrayReverseMap.bytesFor((long) blocks * strideFor(maxSlotsPerBlock));
    }

    /** Heap bytes of a scanning reverse map holding {@code cachedBlocks} blocks. */
    public static long scanningReverseMapBytes(int cachedBlocks, int maxSlotsPerBlock) {
        return ScanningReverseMap.bytesFor(cachedBlocks, Integer.numberOfTrailingZeros(strideFor(maxSlotsPerBlock)));
    }

    public void setListener(ValidCountListener listener) {
        this.listener = listener;
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
        if (pending != 0) {
            flush();
        }
        return mappedUnits;
    }

    public int lookup(int lpn) {
        if (pending != 0) {
            flush();
        }
        return forward.get(lpn) - 1;
    }

    /** GC is about to read {@code block}'s owners with {@link #lpnAt} (a scanning reverse map may fill its cache). */
    public void prepareBlock(int block) {
        if (pending != 0) {
            flush();
        }
        reverse.prepare(block);
    }

    /**
     * The valid units of {@code block} (passed to {@link #prepareBlock}) in slot order: their LPNs into
     * {@code lpns}, their slots into {@code slots}; returns how many. Also loads each unit's forward entry:
     * GC is about to {@link #relocate} them, a random store into the forward map each, a cache and TLB miss on
     * a large drive when taken one copy at a time; loaded side by side here, the misses overlap.
     */
    public int validUnitsOf(int block, int[] lpns, int[] slots) {
        if (pending != 0) {
            flush();
        }
        int base = block << slotShift;
        int capacity = capacityOfBlock[block];
        int n = 0;
        int sum = 0;
        for (int slot = 0; slot < capacity; slot++) {
            int lpn = reverse.ownerOf(base + slot);
            if (lpn >= 0) {
                lpns[n] = lpn;
                slots[n] = slot;
                n++;
                sum += forward.get(lpn);
            }
        }
        touched += sum;
        return n;
    }

    /** The unit whose valid copy is in slot {@code ppn} (of a block passed to {@link #prepareBlock}), or UNMAPPED. */
    public int lpnAt(int ppn) {
        if (pending != 0) {
            flush();
        }
        return reverse.ownerOf(ppn);
    }

    public int validCount(int block) {
        if (pending != 0) {
            flush();
        }
        return validCount[block];
    }

    /** Points {@code lpn} at {@code ppn}, invalidating the old copy (applied in a batch, see the class comment). */
    public void map(int lpn, int ppn) {
        pendingLpn[pending] = lpn;
        pendingPpn[pending] = ppn;
        if (++pending == BATCH) {
            flush();
        }
    }

    /** Applies the writes {@link #map} has batched, in order. */
    public void flush() {
        int n = pending;
        if (n == 0) {
            return;
        }
        pending = 0; // before applying: the listener may read the table
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += forward.get(pendingLpn[i]);
        }
        touched += sum;
        for (int i = 0; i < n; i++) {
            apply(pendingLpn[i], pendingPpn[i]);
        }
    }

    private void apply(int lpn, int ppn) {
        int old = forward.get(lpn) - 1;
        if (old != UNMAPPED) {
            invalidate(old);
        } else {
            mappedUnits++;
        }
        forward.set(lpn, ppn + 1);
        reverse.recordWrite(ppn, lpn);
        validCount[ppn >>> slotShift]++;
    }

    /**
     * GC copy of {@code lpn} from {@code oldPpn} (in a victim being cleaned) to {@code newPpn}. Unlike
     * {@link #map} it needs no read of the forward map (the caller knows where the unit was) and tells no
     * listener (a victim is out of every selector while it is cleaned); the victim's reverse entries are
     * dropped by {@link #clearBlock} when it is erased.
     */
    public void relocate(int lpn, int oldPpn, int newPpn) {
        if (pending != 0) {
            flush();
        }
        forward.set(lpn, newPpn + 1);
        reverse.recordWrite(newPpn, lpn);
        validCount[oldPpn >>> slotShift]--;
        validCount[newPpn >>> slotShift]++;
    }

    /** TRIM: the unit no longer holds data. @return true if it was mapped */
    public boolean trim(int lpn) {
        if (pending != 0) {
            flush();
        }
        int old = forward.get(lpn) - 1;
        if (old == UNMAPPED) {
            return false;
        }
        invalidate(old);
        forward.set(lpn, 0);
        mappedUnits--;
        return true;
    }

    /** Called after a block's valid units were relocated and it was erased. */
    public void clearBlock(int block) {
        if (pending != 0) {
            flush();
        }
        if (validCount[block] != 0) {
            throw new IllegalStateException("block " + block + " erased with " + validCount[block] + " valid units");
        }
        reverse.onErased(block);
    }

    private void invalidate(int ppn) {
        reverse.recordInvalidated(ppn);
        int block = ppn >>> slotShift;
        int count = --validCount[block];
        listener.onValidCountDecremented(block, count);
    }
}
