package dev.ssdpulse.producer.sim.ftl.mapping;

import java.util.Arrays;

/**
 * How full each block is: its valid units and the units it holds when full (its packing). The mapping table
 * keeps the counts; victim selectors read them. A separate object so both can be built without either
 * needing the other first: the table is built with its selector as listener, the selector with this.
 * Reads are current once the table has applied its pending writes ({@link MappingTable#flush}), which it does
 * before every callback and which GC and the write frontiers do before they consult a selector.
 */
public final class BlockFill {
    final int[] validCount;
    final int[] capacity;
    private final int maxSlotsPerBlock;

    public BlockFill(int blocks, int maxSlotsPerBlock) {
        this.validCount = new int[blocks];
        this.capacity = new int[blocks];
        this.maxSlotsPerBlock = maxSlotsPerBlock;
        Arrays.fill(capacity, maxSlotsPerBlock);
    }

    public int validCount(int block) {
        return validCount[block];
    }

    /** Units block {@code block} holds when full. */
    public int capacity(int block) {
        return capacity[block];
    }

    /** The most units any block can hold (at the controller's best compression). */
    public int maxSlotsPerBlock() {
        return maxSlotsPerBlock;
    }

    public int blocks() {
        return validCount.length;
    }
}
