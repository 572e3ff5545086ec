package dev.ssdpulse.streams.waf;

/**
 * The range of write amplification that quantised counters allow. A counter that moves in steps of q (32 MiB,
 * 1 GiB, NVMe's 512,000-byte data units) holds the true amount to within one step whichever way the drive
 * rounds, so a difference of two readings d is the true difference to within (d - q, d + q). With host and NAND
 * differences h and n and steps qh and qn, the true ratio lies between
 *
 * <pre>
 *   low  = max(0, n - qn) / (h + qh)
 *   high = (n + qn) / (h - qh)        (no upper bound while h <= qh)
 * </pre>
 *
 * Over several unbroken chains of samples (a counter reset starts another) the steps add up, one per chain.
 * The ratio is <i>resolved</i> when {@code high - low <= 5 %} of the ratio n / h; until then it is shown as
 * "not yet resolvable". Exact counters (steps 0) give low = high = n / h.
 *
 * @param low      lowest ratio; null when the host wrote nothing measurable (h = 0)
 * @param high     highest ratio; null when there is no upper bound (h <= qh) or h = 0
 * @param resolved whether the bounds lie within {@link #RESOLVED_RELATIVE_WIDTH} of the ratio
 */
public record WaBounds(Double low, Double high, boolean resolved) {
    /** The widest range, relative to the ratio, at which WA counts as resolved: 5 %. */
    public static final double RESOLVED_RELATIVE_WIDTH = 0.05;

    /** No ratio (the host wrote nothing). */
    public static final WaBounds NONE = new WaBounds(null, null, false);

    /**
     * @param host     host difference, in the counters' unit
     * @param hostStep total step error of the host side (sum over chains), same unit
     * @param nand     NAND difference
     * @param nandStep total step error of the NAND side
     */
    public static WaBounds of(long host, long hostStep, long nand, long nandStep) {
        if (host <= 0) {
            return NONE;
        }
        double ratio = (double) nand / host;
        double low = Math.max(0.0, (double) nand - nandStep) / ((double) host + hostStep);
        Double high = host > hostStep ? ((double) nand + nandStep) / ((double) host - hostStep) : null;
        boolean resolved = high != null && high - low <= RESOLVED_RELATIVE_WIDTH * ratio;
        return new WaBounds(low, high, resolved);
    }
}
