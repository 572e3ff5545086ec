package dev.ssdpulse.producer.sim.ftl.gc;

import dev.ssdpulse.producer.sim.ftl.block.BlockClosedListener;
import dev.ssdpulse.producer.sim.ftl.mapping.ValidCountListener;

/**
 * GC victim choice, per plane (GC is plane-local, see {@link GarbageCollector}). A selector tracks the
 * closed (fully written) blocks: it is told when a block closes and when a block loses a valid unit, and
 * hands out (and forgets) a victim of a given plane on request. Blocks that are
 * not closed must be ignored in {@link #onValidCountDecremented}.
 */
public interface VictimSelector extends BlockClosedListener, ValidCountListener {

    /** @return a closed block of {@code plane} to clean, removed from the candidates, or -1 when there is none */
    int selectVictim(int plane, long nowNs);

    /** Takes a specific block out of the candidates (wear levelling moves it); no-op if it is not one. */
    void remove(int block);

    /** Candidates currently tracked. */
    int candidates();
}
