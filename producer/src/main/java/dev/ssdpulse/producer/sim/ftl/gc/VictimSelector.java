package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.config.VictimPolicy;
import dev.ssdpulse.producer.sim.ftl.block.BlockClosedListener;
import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;
import dev.ssdpulse.producer.sim.ftl.mapping.ValidCountListener;

/**
 * GC victim choice, per plane (GC is plane-local, see {@link GarbageCollector}). A selector tracks the
 * closed (fully written) blocks: it is told when a block closes and when a block loses a valid unit, and
 * hands out (and forgets) a victim of a given plane on request. Blocks that are
 * not closed must be ignored in {@link #onValidCountDecremented}.
 */
public interface VictimSelector extends BlockClosedListener, ValidCountListener {

    /** The selector a preset names; {@code dChoices} and {@code seed} are used by D_CHOICES only. */
    static VictimSelector create(VictimPolicy policy, BlockFill fill, BlockManager blocks, int dChoices, long seed) {
        int planes = blocks.geometry().planes();
        int perPlane = blocks.geometry().blocksPerPlane();
        switch (policy) {
            case GREEDY:
                return new GreedyVictimSelector(fill, planes, perPlane);
            case FIFO:
                return new FifoVictimSelector(planes, perPlane);
            case D_CHOICES:
                return new DChoicesVictimSelector(fill, planes, perPlane, dChoices, seed);
            case COST_BENEFIT:
                return new CostBenefitVictimSelector(fill, blocks);
            default:
                throw new IllegalStateException(policy.name());
        }
    }

    /** @return a closed block of {@code plane} to clean, removed from the candidates, or -1 when there is none */
    int selectVictim(int plane, long nowNs);

    /** Takes a specific block out of the candidates (wear levelling moves it); no-op if it is not one. */
    void remove(int block);

    /** Candidates currently tracked. */
    int candidates();
}
