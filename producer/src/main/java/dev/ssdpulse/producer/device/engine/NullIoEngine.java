package dev.ssdpulse.producer.device.engine;

import java.nio.file.Path;

/**
 * Completes every I/O at once without touching any storage, like fio's {@code null} engine. Used to test the
 * runner and to measure the tool's own ceiling: IOPS with this engine is the most the runner, the generators and
 * the completion sink can sustain, so a device result near that ceiling is tool-bound, not device-bound.
 * The timestamps are still taken (two {@code nanoTime} calls), so the timing overhead is part of the ceiling.
 */
public final class NullIoEngine implements IoEngine {
    private final int alignmentBytes;
    private long sizeBytes;

    public NullIoEngine() {
        this(512);
    }

    /** @param alignmentBytes alignment the engine reports (to exercise the runner's alignment checks) */
    public NullIoEngine(int alignmentBytes) {
        this.alignmentBytes = alignmentBytes;
    }

    @Override
    public String name() {
        return "null";
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
        slot.status = slot.offsetBytes < 0 || slot.offsetBytes + slot.sizeBytes > sizeBytes
                ? IoStatus.EINVAL : IoStatus.OK;
        slot.completeNanos = System.nanoTime();
        return true;
    }

    @Override
    public int reap(IoSlot[] out, int min, int max, long timeoutNs) {
        return 0;
    }

    @Override
    public String lastError() {
        return null;
    }

    @Override
    public void close() {
    }
}
