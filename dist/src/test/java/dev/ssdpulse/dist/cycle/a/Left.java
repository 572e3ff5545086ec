package dev.ssdpulse.dist.cycle.a;

import dev.ssdpulse.dist.cycle.b.Right;

/** One half of a deliberate package cycle: proves that {@code PackageCyclesTest}'s rule finds one. */
public final class Left {
    private Left() {}

    public static int depth(int n) {
        return n <= 0 ? 0 : 1 + Right.depth(n - 1);
    }
}
