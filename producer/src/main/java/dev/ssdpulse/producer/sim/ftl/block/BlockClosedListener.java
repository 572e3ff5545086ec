package dev.ssdpulse.producer.sim.ftl.block;

/** Told when a block is completely written, i.e. becomes a GC candidate. */
@FunctionalInterface
public interface BlockClosedListener {
    void onBlockClosed(int block, long nowNs);
}
