package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;
import dev.ssdpulse.producer.sim.util.IntDivisor;
import java.util.Arrays;

/**
 * Greedy: the closed block with the fewest valid units. Blocks sit in intrusive doubly linked lists
 * bucketed by valid count, so an invalidation is O(1) and a selection scans up from a lower-bound hint
 * (amortised O(1) under steady load).
 */
public final class GreedyVictimSelector implements VictimSelector {
    private final BlockFill fill;
    private final IntDivisor blocksPerPlane;
    private final int bucketsPerPlane;
    private final int[] bucketHead;
    private final int[] next;
    private final int[] prev;
    private final boolean[] member;
    private final int[] minHint;
    private int candidates;

    public GreedyVictimSelector(BlockFill fill, int planes, int blocksPerPlane) {
        this.fill = fill;
        this.blocksPerPlane = new IntDivisor(blocksPerPlane);
        this.bucketsPerPlane = fill.maxSlotsPerBlock() + 1;
        this.bucketHead = new int[planes * bucketsPerPlane];
        int blocks = planes * blocksPerPlane;
        this.next = new int[blocks];
        this.prev = new int[blocks];
        this.member = new boolean[blocks];
        Arrays.fill(bucketHead, -1);
        this.minHint = new int[planes];
        Arrays.fill(minHint, bucketsPerPlane);
    }

    @Override
    public void onBlockClosed(int block, long nowNs) {
        insert(block, fill.validCount(block));
        member[block] = true;
        candidates++;
    }

    @Override
    public void onValidCountDecremented(int block, int newValidCount) {
        if (!member[block]) {
            return;
        }
        unlink(block, newValidCount + 1);
        insert(block, newValidCount);
    }

    @Override
    public int selectVictim(int plane, long nowNs) {
        int base = plane * bucketsPerPlane;
        for (int v = minHint[plane]; v < bucketsPerPlane; v++) {
            int block = bucketHead[base + v];
            if (block >= 0) {
                minHint[plane] = v;
                unlink(block, v);
                member[block] = false;
                candidates--;
                return block;
            }
        }
        minHint[plane] = bucketsPerPlane;
        return -1;
    }

    @Override
    public void remove(int block) {
        if (member[block]) {
            unlink(block, fill.validCount(block));
            member[block] = false;
            candidates--;
        }
    }

    @Override
    public int candidates() {
        return candidates;
    }

    private void insert(int block, int validCount) {
        int plane = blocksPerPlane.divide(block);
        int bucket = plane * bucketsPerPlane + validCount;
        int head = bucketHead[bucket];
        next[block] = head;
        prev[block] = -1;
        if (head >= 0) {
            prev[head] = block;
        }
        bucketHead[bucket] = block;
        if (validCount < minHint[plane]) {
            minHint[plane] = validCount;
        }
    }

    private void unlink(int block, int validCount) {
        int bucket = blocksPerPlane.divide(block) * bucketsPerPlane + validCount;
        int p = prev[block];
        int n = next[block];
        if (p >= 0) {
            next[p] = n;
        } else {
            bucketHead[bucket] = n;
        }
        if (n >= 0) {
            prev[n] = p;
        }
    }
}
