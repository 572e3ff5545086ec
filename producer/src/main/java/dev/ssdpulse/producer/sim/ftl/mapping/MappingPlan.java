package dev.ssdpulse.producer.sim.ftl.mapping;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * How the mapping table stores its maps for a heap budget: an int forward map and a per-slot reverse map when
 * both take at most 70 % of the budget (the rest is for the run: events, analytics); otherwise a packed
 * forward map, and if a per-slot reverse map still does not fit, a {@link ScanningReverseMap} caching what is
 * left after the forward map and ~100 MiB, at most 1/16 of the blocks and at least 4 per plane. All plans give the
 * same results; they differ in speed (packed writes and forward-map passes cost time) and heap.
 *
 * @param packForward  forward entries in the bits a PPN needs rather than an int
 * @param cachedBlocks 0 for a per-slot reverse map, else the blocks a scanning reverse map holds
 */
public record MappingPlan(boolean packForward, int cachedBlocks) {
    private static final long HEADROOM_BYTES = 100L << 20;

    /**
     * The heap that long-lived data can take in this JVM: the old generation's maximum where the collector
     * reports one below the heap's (Serial and Parallel: two thirds of {@code -Xmx} by default, and a map that
     * outlives a few young collections must fit there), else {@link Runtime#maxMemory()} (G1's old generation
     * may grow to the whole heap).
     */
    public static long longLivedHeapBytes() {
        long bytes = Runtime.getRuntime().maxMemory();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            String name = pool.getName();
            long max = pool.getUsage() == null ? -1 : pool.getUsage().getMax();
            if (pool.getType() == MemoryType.HEAP
                    && (name.contains("Old Gen") || name.contains("Tenured"))
                    && max > 0) {
                bytes = Math.min(bytes, max);
            }
        }
        return bytes;
    }

    public static MappingPlan forHeap(
            long logicalUnits, int blocks, int planes, int maxSlotsPerBlock, long heapBudgetBytes) {
        long mapBudgetBytes = heapBudgetBytes / 10 * 7;
        long reverseBytes = MappingTable.arrayReverseMapBytes(blocks, maxSlotsPerBlock);
        if (MappingTable.forwardMapBytes(logicalUnits, blocks, maxSlotsPerBlock, false) + reverseBytes
                <= mapBudgetBytes) {
            return new MappingPlan(false, 0);
        }
        long forwardBytes = MappingTable.forwardMapBytes(logicalUnits, blocks, maxSlotsPerBlock, true);
        if (forwardBytes + reverseBytes <= mapBudgetBytes) {
            return new MappingPlan(true, 0);
        }
        // more cached blocks serve more victims per pass over the forward map; at least a few per plane, as GC
        // chooses each plane's victims one at a time between host writes
        long spareBytes = heapBudgetBytes - forwardBytes - HEADROOM_BYTES;
        long perBlockBytes = MappingTable.scanningReverseMapBytes(1, maxSlotsPerBlock);
        return new MappingPlan(true, (int) Math.max(4L * planes, Math.min(blocks / 16, spareBytes / perBlockBytes)));
    }
}
