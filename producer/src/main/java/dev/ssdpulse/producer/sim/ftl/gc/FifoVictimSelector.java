package dev.ssdpulse.producer.sim.ftl.gc;

/**
 * FIFO (round-robin / "LRU" cleaning in Desnoyers' terms): the block closed longest ago, whatever its
 * valid count. This is the policy the analytic LRU formula describes exactly.
 */
public final class FifoVictimSelector implements VictimSelector {
    private final int[] ring;
    private int head;
    private int size;

    public FifoVictimSelector(int blocks) {
        this.ring = new int[blocks];
    }

    @Override
    public void onBlockClosed(int block, long nowNs) {
        ring[(head + size) % ring.length] = block;
        size++;
    }

    @Override
    public void onValidCountDecremented(int block, int newValidCount) {
        // order does not depend on valid counts
    }

    @Override
    public int selectVictim(long nowNs) {
        if (size == 0) {
            return -1;
        }
        int block = ring[head];
        head = (head + 1) % ring.length;
        size--;
        return block;
    }

    @Override
    public int candidates() {
        return size;
    }
}
