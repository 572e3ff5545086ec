package dev.ssdpulse.producer.sim.ftl.gc;

import java.util.Arrays;

/**
 * Closed blocks of each plane in arrays with O(1) add, remove and random access, for sampling and scanning selectors.
 */
final class CandidateSet {
    private final int blocksPerPlane;
    private final int[][] blocks;
    private final int[] position;
    private final int[] size;
    private int total;

    CandidateSet(int planes, int blocksPerPlane) {
        this.blocksPerPlane = blocksPerPlane;
        this.blocks = new int[planes][blocksPerPlane];
        this.position = new int[planes * blocksPerPlane];
        this.size = new int[planes];
        Arrays.fill(position, -1);
    }

    void add(int block) {
        int p = block / blocksPerPlane;
        position[block] = size[p];
        blocks[p][size[p]++] = block;
        total++;
    }

    void remove(int block) {
        int p = block / blocksPerPlane;
        int pos = position[block];
        int last = blocks[p][--size[p]];
        blocks[p][pos] = last;
        position[last] = pos;
        position[block] = -1;
        total--;
    }

    boolean contains(int block) {
        return position[block] >= 0;
    }

    int get(int plane, int index) {
        return blocks[plane][index];
    }

    int size(int plane) {
        return size[plane];
    }

    int total() {
        return total;
    }
}
