package dev.ssdpulse.producer.sim.ftl.mapping;

/** Told when a block loses a valid unit, so victim selectors can keep their order up to date in O(1). */
@FunctionalInterface
public interface ValidCountListener {
    void onValidCountDecremented(int block, int newValidCount);
}
