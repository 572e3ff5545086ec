package dev.ssdpulse.producer.sim;

/**
 * Analytic WA of greedy/LRU cleaning under uniform random writes. Desnoyers, "Analytic modeling of SSD
 * write performance" (SYSTOR 2012), shows that greedy cleaning converges for large blocks to the LRU
 * (FIFO) result A = 1 / (1 - X0), X0 = -W0(-alpha e^-alpha) / alpha, where alpha = physical / logical
 * pages and W0 is the principal branch of the Lambert W function (also Bux and Iliadis, "Performance of
 * greedy garbage collection in flash-based solid-state drives", Performance Evaluation 2010). With small
 * blocks greedy does somewhat better than this formula.
 */
public final class GreedyWriteAmplificationModel {
    private GreedyWriteAmplificationModel() {}

    /** WA for {@code alpha} = physical / logical (> 1). */
    public static double writeAmplification(double alpha) {
        if (!(alpha > 1)) {
            throw new IllegalArgumentException("alpha (physical/logical) must be > 1, got " + alpha);
        }
        double x0 = -lambertW0(-alpha * Math.exp(-alpha)) / alpha;
        return 1 / (1 - x0);
    }

    /**
     * Principal branch W0(x) for x >= -1/e, by Halley iteration from a branch-point series (near -1/e) or
     * log-based start; converges to ~1e-15 relative.
     */
    public static double lambertW0(double x) {
        double branch = -1 / Math.E;
        if (x < branch - 1e-15) {
            throw new IllegalArgumentException("W0 is undefined below -1/e, got " + x);
        }
        if (x <= branch) {
            return -1;
        }
        double w;
        if (x < -0.25) {
            double p = Math.sqrt(2 * (Math.E * x + 1));
            w = -1 + p - p * p / 3 + 11.0 / 72 * p * p * p;
        } else if (x < 3) {
            w = Math.log1p(x) * 0.9;
        } else {
            double l = Math.log(x);
            w = l - Math.log(l);
        }
        for (int i = 0; i < 100; i++) {
            double ew = Math.exp(w);
            double f = w * ew - x;
            double wp1 = w + 1;
            if (wp1 == 0) {
                break;
            }
            double step = f / (ew * wp1 - (w + 2) * f / (2 * wp1));
            w -= step;
            if (Math.abs(step) <= 1e-15 * (1 + Math.abs(w))) {
                break;
            }
        }
        return w;
    }
}
