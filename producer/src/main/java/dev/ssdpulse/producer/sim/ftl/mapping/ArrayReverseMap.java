package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * One int per physical slot (the unit last written there) plus one validity bit per slot: O(1) everywhere,
 * for drives whose slots fit the heap budget. Why the bitmap: a host write invalidates a random slot; clearing
 * a bit of an 8 MiB bitmap (2012 preset) stays in the CPU's last-level cache, where storing -1 into a 268 MB
 * int array missed to DRAM once per host write. The owners are stored in pages ({@link PagedIntArray}); the
 * bitmap, 1/32 of their size, stays one array, which saves a load on every invalidation.
 */
final class ArrayReverseMap implements ReverseMap {
    private final PagedIntArray ownerOfSlot;
    private final long[] validBits;
    private final int slotsPerBlock;

    /** @param slotsPerBlock the PPN stride, a power of two */
    ArrayReverseMap(int physicalSlots, int slotsPerBlock) {
        this.ownerOfSlot = new PagedIntArray(physicalSlots);
        this.validBits = new long[(physicalSlots + 63) >>> 6];
        this.slotsPerBlock = slotsPerBlock;
    }

    static long bytesFor(long physicalSlots) {
        return PagedIntArray.bytesFor(physicalSlots) + (physicalSlots + 63) / 64 * 8;
    }

    @Override
    public void recordWrite(int ppn, int lpn) {
        ownerOfSlot.set(ppn, lpn);
        validBits[ppn >>> 6] |= 1L << ppn;
    }

    @Override
    public void recordInvalidated(int ppn) {
        validBits[ppn >>> 6] &= ~(1L << ppn);
    }

    @Override
    public void prepare(int block) {}

    @Override
    public int ownerOf(int ppn) {
        return (validBits[ppn >>> 6] & (1L << ppn)) != 0 ? ownerOfSlot.get(ppn) : -1;
    }

    @Override
    public void listed(int block) {}

    @Override
    public boolean holds(int ppn, int lpn) {
        return (validBits[ppn >>> 6] & (1L << ppn)) != 0; // a valid slot holds the unit last written there
    }

    @Override
    public void onErased(int block) {
        // GC copies do not clear the victim's bits; the erase does
        long first = (long) block * slotsPerBlock;
        if (slotsPerBlock >= 64) {
            Arrays.fill(validBits, (int) (first >>> 6), (int) ((first + slotsPerBlock) >>> 6), 0L);
        } else {
            for (long s = first; s < first + slotsPerBlock; s++) {
                validBits[(int) (s >>> 6)] &= ~(1L << s);
            }
        }
    }
}
