package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.block.BlockManager;
import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;

/**
 * Cost-benefit (Rosenblum & Ousterhout, LFS 1992; Kawaguchi et al. 1995): maximise
 * (1 - u) * age / (2u), u = valid fraction, age = time since the block was closed, preferring old blocks
 * whose remaining data is likely cold. Scans every candidate: O(blocks) per victim, so meant for
 * small and medium drives and comparisons, not for the speed benchmark.
 */
public final class CostBenefitVictimSelector implements VictimSelector {
    private final BlockFill fill;
    private final BlockManager blocks;
    private final CandidateSet set;

    public CostBenefitVictimSelector(BlockFill fill, BlockManager blocks) {
        this.fill = fill;
        this.blocks = blocks;
        this.set =
                new CandidateSet(blocks.geometry().planes(), blocks.geometry().blocksPerPlane());
    }

    @Override
    public void onBlockClosed(int block, long nowNs) {
        set.add(block);
    }

    @Override
    public void onValidCountDecremented(int block, int newValidCount) {
        // scored at selection time
    }

    @Override
    public int selectVictim(int plane, long nowNs) {
        int n = set.size(plane);
        if (n == 0) {
            return -1;
        }
        int best = -1;
        double bestScore = -1;
        for (int i = 0; i < n; i++) {
            int block = set.get(plane, i);
            int valid = fill.validCount(block);
            if (valid == 0) {
                best = block;
                break;
            }
            double u = valid / (double) fill.capacity(block);
            double age = 1.0 + (nowNs - blocks.closedAtNs(block));
            double score = (1 - u) * age / (2 * u);
            if (score > bestScore) {
                bestScore = score;
                best = block;
            }
        }
        set.remove(best);
        return best;
    }

    @Override
    public void remove(int block) {
        if (set.contains(block)) {
            set.remove(block);
        }
    }

    @Override
    public int candidates() {
        return set.total();
    }
}
