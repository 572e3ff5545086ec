package dev.ssdpulse.streams.waf;

/**
 * Sums WA intervals of one run (in time order, not necessarily adjacent: those of one phase) into one ratio with
 * its bounds. Adjacent intervals (one starts where the one before ended, same steps) form an unbroken chain whose
 * readings in between cancel out, so each chain adds one step of error per counter, not each interval.
 * Not thread-safe.
 */
public final class WaSum {
    private long host;
    private long nand;
    private long hostStep;
    private long nandStep;
    private long chainEndNs = Long.MIN_VALUE;
    private long chainHostStep = -1;
    private long chainNandStep = -1;
    private String unit;
    private boolean mixedUnits;
    private int intervals;

    /** Adds one interval (from {@code fromNs} to {@code toNs}) of counters in {@code unit} with the given steps. */
    public void add(
            long fromNs, long toNs, String unit, long hostDelta, long hostStepNow, long nandDelta, long nandStepNow) {
        if (this.unit == null) {
            this.unit = unit;
        } else if (!this.unit.equals(unit)) {
            mixedUnits = true;
        }
        boolean continues = fromNs == chainEndNs && hostStepNow == chainHostStep && nandStepNow == chainNandStep;
        if (!continues) {
            hostStep += hostStepNow;
            nandStep += nandStepNow;
            chainHostStep = hostStepNow;
            chainNandStep = nandStepNow;
        }
        chainEndNs = toNs;
        host += hostDelta;
        nand += nandDelta;
        intervals++;
    }

    /** Whether any interval was added. */
    public boolean isEmpty() {
        return intervals == 0;
    }

    public PhaseWa result() {
        if (mixedUnits || host <= 0) {
            return new PhaseWa(null, WaBounds.NONE);
        }
        return new PhaseWa((double) nand / host, WaBounds.of(host, hostStep, nand, nandStep));
    }
}
