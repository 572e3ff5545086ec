package dev.ssdpulse.producer.sim.ftl.block;

import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.sim.util.IntDivisor;

/**
 * Block states, free pools (one FIFO per plane, so erases spread over the plane's blocks), erase counts
 * and the stripe order in which write frontiers visit planes. Reserved blocks (parity/RAISE reserve,
 * bad-block replacement) are taken evenly from every plane and never hold data.
 */
public final class BlockManager {
    private static final byte FREE = 0;
    private static final byte OPEN = 1;
    private static final byte CLOSED = 2;
    private static final byte RESERVED = 3;

    private final NandGeometry geometry;
    private final IntDivisor blocksPerPlane;
    private final byte[] state;
    private final int[] eraseCount;
    private final long[] closedAtNs;
    private final int[][] freeRing;
    private final int[] freeHead;
    private final int[] freeSize;
    private final int[] stripeOrder;
    private final int reservedBlocks;
    private int freeBlocks;
    private long totalErases;
    private int maxEraseCount;
    /** Least erase count of the blocks that can hold data, and how many of them have it. */
    private int minEraseCount;

    private int blocksAtMinEraseCount;

    public BlockManager(NandGeometry geometry, int reservedBlocks) {
        this.geometry = geometry;
        this.blocksPerPlane = new IntDivisor(geometry.blocksPerPlane());
        int blocks = geometry.blocks();
        int planes = geometry.planes();
        int perPlane = geometry.blocksPerPlane();
        this.state = new byte[blocks];
        this.eraseCount = new int[blocks];
        this.closedAtNs = new long[blocks];
        this.freeRing = new int[planes][perPlane];
        this.freeHead = new int[planes];
        this.freeSize = new int[planes];
        this.reservedBlocks = reservedBlocks;
        // reserve from the top of each plane, round-robin over planes
        int[] reservedInPlane = new int[planes];
        for (int i = 0; i < reservedBlocks; i++) {
            reservedInPlane[i % planes]++;
        }
        for (int p = 0; p < planes; p++) {
            int usable = perPlane - reservedInPlane[p];
            for (int i = 0; i < perPlane; i++) {
                int block = p * perPlane + i;
                if (i < usable) {
                    freeRing[p][freeSize[p]++] = block;
                    freeBlocks++;
                } else {
                    state[block] = RESERVED;
                }
            }
        }
        this.blocksAtMinEraseCount = freeBlocks;
        // channel fastest, then die on the channel, then plane: consecutive pages land on different channels
        this.stripeOrder = new int[planes];
        int k = 0;
        for (int plane = 0; plane < geometry.planesPerDie(); plane++) {
            for (int d = 0; d < geometry.dies(); d++) {
                stripeOrder[k++] = d * geometry.planesPerDie() + plane;
            }
        }
    }

    public NandGeometry geometry() {
        return geometry;
    }

    public int freeBlocks() {
        return freeBlocks;
    }

    public int freeBlocks(int plane) {
        return freeSize[plane];
    }

    public long totalErases() {
        return totalErases;
    }

    public int eraseCount(int block) {
        return eraseCount[block];
    }

    public int maxEraseCount() {
        return maxEraseCount;
    }

    /** Least erase count of the blocks that can hold data (reserved blocks excluded). */
    public int minEraseCount() {
        return minEraseCount;
    }

    public boolean isClosed(int block) {
        return state[block] == CLOSED;
    }

    public long closedAtNs(int block) {
        return closedAtNs[block];
    }

    public int planeAtStripePosition(int position) {
        return stripeOrder[position];
    }

    public int planeOfBlock(int block) {
        return blocksPerPlane.divide(block);
    }

    /**
     * Takes a free block from {@code plane}, or from the next plane in stripe order with one.
     *
     * @throws IllegalStateException when no plane has a free block (GC thresholds too low for the spare)
     */
    public int allocate(int stripePosition) {
        int planes = stripeOrder.length;
        for (int i = 0; i < planes; i++) {
            int plane = stripeOrder[(stripePosition + i) % planes];
            if (freeSize[plane] > 0) {
                return take(plane);
            }
        }
        throw new IllegalStateException(
                "no free block left on any plane: the spare area is too small for the GC thresholds");
    }

    private int take(int plane) {
        int block = freeRing[plane][freeHead[plane]];
        freeHead[plane] = (freeHead[plane] + 1) % freeRing[plane].length;
        freeSize[plane]--;
        freeBlocks--;
        state[block] = OPEN;
        return block;
    }

    /** Takes a free block from {@code plane}, or from the next plane in stripe order if it has none. */
    public int allocateOnPlane(int plane) {
        if (freeSize[plane] > 0) {
            return take(plane);
        }
        return allocate(0);
    }

    public void markClosed(int block, long nowNs) {
        state[block] = CLOSED;
        closedAtNs[block] = nowNs;
    }

    /** The block was erased: back to its plane's free pool. */
    public void release(int block) {
        if (state[block] != CLOSED) {
            throw new IllegalStateException("block " + block + " released in state " + state[block]);
        }
        int plane = planeOfBlock(block);
        int[] ring = freeRing[plane];
        ring[(freeHead[plane] + freeSize[plane]) % ring.length] = block;
        freeSize[plane]++;
        freeBlocks++;
        state[block] = FREE;
        eraseCount[block]++;
        totalErases++;
        if (eraseCount[block] > maxEraseCount) {
            maxEraseCount = eraseCount[block];
        }
        if (eraseCount[block] == minEraseCount + 1 && --blocksAtMinEraseCount == 0) {
            // every usable block has been erased once more: recount (once per round of erases)
            minEraseCount++;
            for (int b = 0; b < state.length; b++) {
                if (state[b] != RESERVED && eraseCount[b] == minEraseCount) {
                    blocksAtMinEraseCount++;
                }
            }
        }
    }
}
