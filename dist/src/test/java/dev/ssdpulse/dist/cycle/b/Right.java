package dev.ssdpulse.dist.cycle.b;

import dev.ssdpulse.dist.cycle.a.Left;

/** The other half of the deliberate package cycle of {@link Left}. */
public final class Right {
    private Right() {}

    public static int depth(int n) {
        return n <= 0 ? 0 : 1 + Left.depth(n - 1);
    }
}
