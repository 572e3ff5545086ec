package dev.ssdpulse.producer.device.engine;

import java.nio.file.Path;

/**
 * Completes every I/O at once without touching any storage, like fio's {@code null} engine. Used to test the
 * runner and to measure the tool's own ceiling: IOPS with this engine is the most the runner, the generators and
 * the completion sink can sustain, so a device result near that ceiling is tool-bound, not device-bound.
 * The timestamps are still taken (two {@code nanoTime} calls), so the timing overhead is part of the ceiling.
 *
 * <p>{@link #queued} makes it an asynchronous engine (see {@link IoEngine}): submit queues, the next reap
 * completes everything queued, in submission order. That exercises the runner's submit/reap loop, and its
 * ceiling, exactly as libaio and io_uring drive it, without a device.
 */
public final class NullIoEngine implements IoEngine {
    private final int alignmentBytes;
    private final int maxQueueDepth;
    private long sizeBytes;
    /** Asynchronous mode: the queued slots, a FIFO in a ring of maxQueueDepth. */
    private final IoSlot[] queue;

    private int head;
    private int count;

    public NullIoEngine() {
        this(512);
    }

    /** @param alignmentBytes alignment the engine reports (to exercise the runner's alignment checks) */
    public NullIoEngine(int alignmentBytes) {
        this(alignmentBytes, 0);
    }

    private NullIoEngine(int alignmentBytes, int maxQueueDepth) {
        this.alignmentBytes = alignmentBytes;
        this.maxQueueDepth = maxQueueDepth;
        this.queue = maxQueueDepth == 0 ? null : new IoSlot[maxQueueDepth];
    }

    /** An asynchronous null engine keeping up to {@code maxQueueDepth} I/Os queued per submitting thread. */
    public static NullIoEngine queued(int alignmentBytes, int maxQueueDepth) {
        if (maxQueueDepth < 1) {
            throw new IllegalArgumentException("maxQueueDepth must be >= 1, got " + maxQueueDepth);
        }
        return new NullIoEngine(alignmentBytes, maxQueueDepth);
    }

    @Override
    public String name() {
        return queue == null ? "null" : "null-queued";
    }

    @Override
    public boolean asynchronous() {
        return queue != null;
    }

    @Override
    public int maxQueueDepth() {
        return queue == null ? Integer.MAX_VALUE : maxQueueDepth;
    }

    @Override
    public IoEngine openSibling() {
        if (queue == null) {
            throw new UnsupportedOperationException("the synchronous null engine is shared by all threads");
        }
        NullIoEngine sibling = new NullIoEngine(alignmentBytes, maxQueueDepth);
        sibling.open(null, sizeBytes, true, true);
        return sibling;
    }

    @Override
    public void open(Path target, long sizeBytes, boolean direct, boolean writable) {
        this.sizeBytes = sizeBytes;
    }

    @Override
    public int alignmentBytes() {
        return alignmentBytes;
    }

    @Override
    public boolean supportsTrim() {
        return true;
    }

    @Override
    public boolean submit(IoSlot slot) {
        slot.submitNanos = System.nanoTime();
        slot.status =
                slot.offsetBytes < 0 || slot.offsetBytes + slot.sizeBytes > sizeBytes ? IoStatus.EINVAL : IoStatus.OK;
        if (queue == null || slot.status != IoStatus.OK) {
            slot.completeNanos = System.nanoTime();
            return true;
        }
        if (count == maxQueueDepth) {
            throw new IllegalStateException("null-queued: more than " + maxQueueDepth + " I/Os outstanding");
        }
        queue[(head + count++) % maxQueueDepth] = slot;
        return false;
    }

    @Override
    public int reap(IoSlot[] out, int min, int max, long timeoutNs) {
        if (queue == null) {
            return 0;
        }
        int n = Math.min(max, count);
        long now = System.nanoTime();
        for (int i = 0; i < n; i++) {
            IoSlot s = queue[head];
            queue[head] = null;
            head = (head + 1) % maxQueueDepth;
            s.completeNanos = now;
            out[i] = s;
        }
        count -= n;
        return n;
    }

    @Override
    public String lastError() {
        return null;
    }

    @Override
    public void close() {}
}
