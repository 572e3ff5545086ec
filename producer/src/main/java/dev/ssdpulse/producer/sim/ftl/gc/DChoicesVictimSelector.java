package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.mapping.BlockFill;
import java.util.SplittableRandom;

/**
 * Random greedy / d-choices (Van Houdt 2013): sample d closed blocks uniformly (with replacement) and
 * clean the one with the fewest valid units. d = 1 is random cleaning; large d approaches greedy. The
 * sampling stream is seeded, so runs stay deterministic.
 */
public final class DChoicesVictimSelector implements VictimSelector {
    private final BlockFill fill;
    private final CandidateSet set;
    private final int d;
    private final SplittableRandom random;

    public DChoicesVictimSelector(BlockFill fill, int planes, int blocksPerPlane, int d, long seed) {
        if (d < 1) {
            throw new IllegalArgumentException("d-choices needs d >= 1, got " + d);
        }
        this.fill = fill;
        this.set = new CandidateSet(planes, blocksPerPlane);
        this.d = d;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void onBlockClosed(int block, long nowNs) {
        set.add(block);
    }

    @Override
    public void onValidCountDecremented(int block, int newValidCount) {
        // sampled at selection time
    }

    @Override
    public int selectVictim(int plane, long nowNs) {
        int n = set.size(plane);
        if (n == 0) {
            return -1;
        }
        int best = -1;
        int bestValid = Integer.MAX_VALUE;
        for (int i = 0; i < d; i++) {
            int block = set.get(plane, random.nextInt(n));
            int valid = fill.validCount(block);
            if (valid < bestValid) {
                bestValid = valid;
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
