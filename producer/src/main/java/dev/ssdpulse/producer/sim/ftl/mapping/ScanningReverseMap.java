package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * A reverse map that stores no entry per physical slot: it keeps the owners of a few blocks (the likely GC
 * victims) and rebuilds them from one pass over the forward map when GC asks for a block it does not hold.
 * Why: on a 1 TB drive a per-slot map costs 4 bytes x 2^28 slots (1.07 GB), more than a 1 GiB heap; the
 * forward map alone is the whole mapping state. Exact: a pass records every mapped unit whose slot is in a
 * cached block, writes to and invalidations in a cached block are recorded as they happen, and an erased
 * block is dropped, so a cached block's owners equal those of a per-slot reverse map.
 *
 * <p>Which blocks a pass caches: on every plane, the blocks holding data with the fewest valid units (the
 * next greedy victims; other victim policies also take mostly low-valid blocks), plus the block asked for.
 * Cost: one pass decodes the whole forward map (244 M entries on the 1 TB preset); how many passes a run
 * needs depends on how many victims each cache fill serves (on the 1 TB seed-003 run, passes took about 3
 * in 8 thread samples).
 */
final class ScanningReverseMap implements ReverseMap {
    private static final int NONE = -1;

    private final PackedIntArray forward;
    private final int[] validCount;
    private final int blocksPerPlane;
    private final int slotShift;
    private final int slotMask;
    private final int cachedPerPlane;
    /** Cache position of each block, or NONE. */
    private final int[] positionOfBlock;

    private final int[] blockAtPosition;
    /** Blocks GC has listed and is cleaning: not cached again until erased (their owners are no longer asked for). */
    private final boolean[] listed;

    private final PagedIntArray owners;
    private final int[] histogram;
    private final int[] chunk = new int[4096];

    /**
     * @param cachedBlocks how many blocks' owners to hold (at least one per plane)
     */
    ScanningReverseMap(PackedIntArray forward, int[] validCount, int blocksPerPlane, int slotShift, int cachedBlocks) {
        this.forward = forward;
        this.validCount = validCount;
        this.blocksPerPlane = blocksPerPlane;
        this.slotShift = slotShift;
        this.slotMask = (1 << slotShift) - 1;
        int planes = validCount.length / blocksPerPlane;
        this.cachedPerPlane = Math.max(1, Math.min(blocksPerPlane, cachedBlocks / planes));
        int positions = cachedPerPlane * planes;
        this.positionOfBlock = new int[validCount.length];
        Arrays.fill(positionOfBlock, NONE);
        this.listed = new boolean[validCount.length];
        this.blockAtPosition = new int[positions];
        Arrays.fill(blockAtPosition, NONE);
        this.owners = new PagedIntArray(positions << slotShift);
        this.histogram = new int[(1 << slotShift) + 2];
    }

    static long bytesFor(long cachedBlocks, int slotShift) {
        return PagedIntArray.bytesFor(cachedBlocks << slotShift);
    }

    @Override
    public void recordWrite(int ppn, int lpn) {
        int position = positionOfBlock[ppn >>> slotShift];
        if (position != NONE) {
            owners.set(position << slotShift | (ppn & slotMask), lpn);
        }
    }

    @Override
    public void recordInvalidated(int ppn) {
        int position = positionOfBlock[ppn >>> slotShift];
        if (position != NONE) {
            owners.set(position << slotShift | (ppn & slotMask), -1);
        }
    }

    @Override
    public void prepare(int block) {
        if (positionOfBlock[block] == NONE && validCount[block] > 0) {
            refill(block);
        }
    }

    @Override
    public int ownerOf(int ppn) {
        int position = positionOfBlock[ppn >>> slotShift];
        return position == NONE ? -1 : owners.get(position << slotShift | (ppn & slotMask));
    }

    @Override
    public void listed(int block) {
        listed[block] = true;
        int position = positionOfBlock[block];
        if (position != NONE) {
            positionOfBlock[block] = NONE;
            blockAtPosition[position] = NONE;
        }
    }

    /** From the forward map: the cached owners may be dropped by a refill for another plane's victim. */
    @Override
    public boolean holds(int ppn, int lpn) {
        return forward.get(lpn) - 1 == ppn;
    }

    @Override
    public void onErased(int block) {
        listed[block] = false;
        int position = positionOfBlock[block];
        if (position != NONE) {
            positionOfBlock[block] = NONE;
            blockAtPosition[position] = NONE;
        }
    }

    private void refill(int wanted) {
        for (int position = 0; position < blockAtPosition.length; position++) {
            if (blockAtPosition[position] != NONE) {
                positionOfBlock[blockAtPosition[position]] = NONE;
                blockAtPosition[position] = NONE;
            }
        }
        int planes = validCount.length / blocksPerPlane;
        int wantedPlane = wanted / blocksPerPlane;
        for (int plane = 0; plane < planes; plane++) {
            choose(plane, plane == wantedPlane ? wanted : NONE);
        }
        owners.fill(-1);
        int units = forward.length();
        for (int from = 0; from < units; from += chunk.length) {
            int n = Math.min(chunk.length, units - from);
            for (int i = 0; i < n; i++) {
                chunk[i] = forward.get(from + i);
            }
            for (int i = 0; i < n; i++) {
                int ppn = chunk[i] - 1; // the forward map stores ppn + 1, 0 for unmapped
                if (ppn >= 0) {
                    int position = positionOfBlock[ppn >>> slotShift];
                    if (position != NONE) {
                        owners.set(position << slotShift | (ppn & slotMask), from + i);
                    }
                }
            }
        }
    }

    /** Caches the plane's blocks with the fewest (but some) valid units, {@code wanted} first if given. */
    private void choose(int plane, int wanted) {
        int first = plane * blocksPerPlane;
        int position = plane * cachedPerPlane;
        int end = position + cachedPerPlane;
        if (wanted != NONE) {
            take(wanted, position++);
        }
        Arrays.fill(histogram, 0);
        for (int b = first; b < first + blocksPerPlane; b++) {
            int v = validCount[b];
            if (v > 0 && !listed[b]) {
                histogram[v]++;
            }
        }
        // the largest valid count up to which every block fits, then blocks of the next count in block order
        int room = end - position;
        int limit = 1;
        while (limit < histogram.length && histogram[limit] <= room) {
            room -= histogram[limit];
            limit++;
        }
        for (int b = first; b < first + blocksPerPlane && position < end; b++) {
            int v = validCount[b];
            if (v > 0 && b != wanted && !listed[b] && (v < limit || (v == limit && room-- > 0))) {
                take(b, position++);
            }
        }
    }

    private void take(int block, int position) {
        positionOfBlock[block] = position;
        blockAtPosition[position] = block;
    }
}
