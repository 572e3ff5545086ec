package dev.ssdpulse.producer.sim.ftl.gc;

import java.util.Arrays;

/** Closed blocks in an array with O(1) add, remove and random access, for sampling and scanning selectors. */
final class CandidateSet {
    private final int[] blocks;
    private final int[] position;
    private int size;

    CandidateSet(int capacity) {
        this.blocks = new int[capacity];
        this.position = new int[capacity];
        Arrays.fill(position, -1);
    }

    void add(int block) {
        position[block] = size;
        blocks[size++] = block;
    }

    void remove(int block) {
        int pos = position[block];
        int last = blocks[--size];
        blocks[pos] = last;
        position[last] = pos;
        position[block] = -1;
    }

    int get(int index) {
        return blocks[index];
    }

    int size() {
        return size;
    }
}
