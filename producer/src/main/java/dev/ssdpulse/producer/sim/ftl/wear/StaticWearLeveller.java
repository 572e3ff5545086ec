package dev.ssdpulse.producer.sim.ftl.wear;

import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.gc.GarbageCollector;

/**
 * Static wear levelling: static (cold) data pins its blocks at a low erase count while hot blocks
 * cycle. Every {@code checkEveryErases} erases, if the most-erased block is more than
 * {@code eraseSpread} erases ahead of the least-erased closed block, that block's data is moved so the
 * block rejoins the free pool. The scan is O(blocks) per check, i.e. O(blocks / checkEveryErases) per
 * erase, and is skipped while the spread over all usable blocks is within bounds (then no closed block can
 * exceed it). A spread of 0 turns it off.
 */
public final class StaticWearLeveller {
    private final BlockManager blocks;
    private final GarbageCollector gc;
    private final int eraseSpread;
    private final int checkEveryErases;
    private long nextCheckAtErases;

    public StaticWearLeveller(BlockManager blocks, GarbageCollector gc, int eraseSpread) {
        this.blocks = blocks;
        this.gc = gc;
        this.eraseSpread = eraseSpread;
        this.checkEveryErases = Math.max(16, blocks.geometry().blocks() / 1024);
        this.nextCheckAtErases = checkEveryErases;
    }

    /** @return when a wear-levelling move's erase completes, or -1 if none was needed */
    public long maybeLevel(long nowNs) {
        if (eraseSpread <= 0 || blocks.totalErases() < nextCheckAtErases) {
            return -1;
        }
        nextCheckAtErases = blocks.totalErases() + checkEveryErases;
        if (blocks.maxEraseCount() - blocks.minEraseCount() <= eraseSpread) {
            return -1; // no block, closed or not, is colder than the spread allows: spare the scan of every block
        }
        int coldest = -1;
        int coldestErases = Integer.MAX_VALUE;
        int n = blocks.geometry().blocks();
        for (int b = 0; b < n; b++) {
            if (blocks.isClosed(b) && blocks.eraseCount(b) < coldestErases) {
                coldestErases = blocks.eraseCount(b);
                coldest = b;
            }
        }
        if (coldest < 0 || blocks.maxEraseCount() - coldestErases <= eraseSpread) {
            return -1;
        }
        return gc.relocateForWearLevelling(coldest, nowNs);
    }
}
