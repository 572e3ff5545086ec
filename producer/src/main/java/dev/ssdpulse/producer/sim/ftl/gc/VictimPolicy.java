package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;

/** The victim selection strategies a preset can name ({@code ftl.victimSelector}). */
public enum VictimPolicy {
    GREEDY,
    FIFO,
    D_CHOICES,
    COST_BENEFIT;

    public VictimSelector create(BlockFill fill, BlockManager blocks, int dChoices, long seed) {
        int planes = blocks.geometry().planes();
        int perPlane = blocks.geometry().blocksPerPlane();
        switch (this) {
            case GREEDY:
                return new GreedyVictimSelector(fill, planes, perPlane);
            case FIFO:
                return new FifoVictimSelector(planes, perPlane);
            case D_CHOICES:
                return new DChoicesVictimSelector(fill, planes, perPlane, dChoices, seed);
            case COST_BENEFIT:
                return new CostBenefitVictimSelector(fill, blocks);
            default:
                throw new IllegalStateException(name());
        }
    }
}
