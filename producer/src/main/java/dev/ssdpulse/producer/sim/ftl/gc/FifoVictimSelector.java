package dev.ssdpulse.producer.sim.ftl.gc;

/**
 * FIFO (round-robin / "LRU" cleaning in Desnoyers' terms): the block closed longest ago, whatever its
 * valid count. This is the policy the analytic LRU formula describes exactly.
 */
public final class FifoVictimSelector implements VictimSelector {
    private final int blocksPerPlane;
    private final int[][] ring;
    private final int[] head;
    private final int[] size;
    private int total;

    public FifoVictimSelector(int planes, int blocksPerPlane) {
        this.blocksPerPlane = blocksPerPlane;
        this.ring = new int[planes][blocksPerPlane];
        this.head = new int[planes];
        this.size = new int[planes];
    }

    @Override
    public void onBlockClosed(int block, long nowNs) {
        int p = block / blocksPerPlane;
        ring[p][(head[p] + size[p]) % blocksPerPlane] = block;
        size[p]++;
        total++;
    }

    @Override
    public void onValidCountDecremented(int block, int newValidCount) {
        // order does not depend on valid counts
    }

    @Override
    public int selectVictim(int plane, long nowNs) {
        if (size[plane] == 0) {
            return -1;
        }
        int block = ring[plane][head[plane]];
        head[plane] = (head[plane] + 1) % blocksPerPlane;
        size[plane]--;
        total--;
        return block;
    }

    /** O(blocks per plane); wear levelling calls it rarely. */
    @Override
    public void remove(int block) {
        int p = block / blocksPerPlane;
        for (int i = 0; i < size[p]; i++) {
            if (ring[p][(head[p] + i) % blocksPerPlane] == block) {
                for (int j = i; j < size[p] - 1; j++) {
                    ring[p][(head[p] + j) % blocksPerPlane] = ring[p][(head[p] + j + 1) % blocksPerPlane];
                }
                size[p]--;
                total--;
                return;
            }
        }
    }

    @Override
    public int candidates() {
        return total;
    }
}
