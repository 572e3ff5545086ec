package dev.ssdpulse.producer.sim.ftl;

/**
 * The controller's write buffer (SRAM page buffer, or a DRAM write cache when configured larger). A host
 * unit is acknowledged once it has a buffer slot; the slot is freed when the page holding the unit has
 * been programmed. Slots are freed in program-issue order (a release never precedes an earlier one),
 * which is slightly pessimistic when pages on different planes finish out of order: the error is at
 * most one tPROG per release and vanishes once the drive is NAND-bound.
 */
public final class WriteBuffer {
    private final int capacityUnits;
    private final long[] releaseAtNs;
    private final int[] releaseUnits;
    private int head;
    private int size;
    private int usedUnits;
    private long lastReleaseNs;

    public WriteBuffer(int capacityUnits) {
        if (capacityUnits < 1) {
            throw new IllegalArgumentException("write buffer needs at least one unit");
        }
        this.capacityUnits = capacityUnits;
        this.releaseAtNs = new long[capacityUnits + 1];
        this.releaseUnits = new int[capacityUnits + 1];
    }

    /** @return the time a slot for one unit is available, at or after {@code atNs} */
    public long acquire(long atNs) {
        long t = atNs;
        while (size > 0 && releaseAtNs[head] <= t) {
            pop();
        }
        while (usedUnits >= capacityUnits) {
            if (size == 0) {
                throw new IllegalStateException("write buffer of " + capacityUnits + " units is smaller than one page");
            }
            t = Math.max(t, releaseAtNs[head]);
            pop();
        }
        usedUnits++;
        return t;
    }

    /** {@code units} slots become free at {@code atNs} (their page program completes). */
    public void release(int units, long atNs) {
        long t = Math.max(atNs, lastReleaseNs);
        lastReleaseNs = t;
        int tail = (head + size) % releaseAtNs.length;
        releaseAtNs[tail] = t;
        releaseUnits[tail] = units;
        size++;
    }

    /** Time every buffered unit issued so far is on flash (a FLUSH completes then). */
    public long drainedAtNs() {
        return lastReleaseNs;
    }

    private void pop() {
        usedUnits -= releaseUnits[head];
        head = (head + 1) % releaseAtNs.length;
        size--;
    }
}
