package dev.ssdpulse.producer.device.testing;

import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoSlot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps an engine and, from the {@code healthyIos}-th submit on, makes the device misbehave: every I/O completes
 * with {@code errno} (EIO, ENOSPC, ENODEV for a target that disappeared), or, with {@link #hanging}, is accepted
 * and never completes (a device that stopped answering). Used where device-mapper's {@code error}/{@code flakey}
 * targets are unavailable (this machine's kernel has no device-mapper). Siblings share the I/O counter, so
 * "after n I/Os" counts the whole phase.
 */
public final class FaultInjectingIoEngine implements IoEngine {
    private final IoEngine inner;
    private final long healthyIos;
    private final int errno;
    private final boolean hang;
    private final AtomicLong submitted;
    /** Requests completed with the injected error, handed back by the next reap (asynchronous inner engine). */
    private final ArrayDeque<IoSlot> failed = new ArrayDeque<>();

    private FaultInjectingIoEngine(IoEngine inner, long healthyIos, int errno, boolean hang, AtomicLong submitted) {
        this.inner = inner;
        this.healthyIos = healthyIos;
        this.errno = errno;
        this.hang = hang;
        this.submitted = submitted;
    }

    public static FaultInjectingIoEngine failing(IoEngine inner, long healthyIos, int errno) {
        return new FaultInjectingIoEngine(inner, healthyIos, errno, false, new AtomicLong());
    }

    /** From the {@code healthyIos}-th submit on, I/Os never complete (needs an asynchronous inner engine). */
    public static FaultInjectingIoEngine hanging(IoEngine inner, long healthyIos) {
        if (!inner.asynchronous()) {
            throw new IllegalArgumentException("a hang needs an asynchronous engine (a synchronous one would block)");
        }
        return new FaultInjectingIoEngine(inner, healthyIos, 0, true, new AtomicLong());
    }

    @Override
    public String name() {
        return "fault(" + inner.name() + ")";
    }

    @Override
    public boolean asynchronous() {
        return inner.asynchronous();
    }

    @Override
    public int maxQueueDepth() {
        return inner.maxQueueDepth();
    }

    @Override
    public IoEngine openSibling() throws IOException {
        return new FaultInjectingIoEngine(inner.openSibling(), healthyIos, errno, hang, submitted);
    }

    @Override
    public void open(Path target, long sizeBytes, boolean direct, boolean writable) throws IOException {
        inner.open(target, sizeBytes, direct, writable);
    }

    @Override
    public int alignmentBytes() {
        return inner.alignmentBytes();
    }

    @Override
    public boolean supportsTrim() {
        return inner.supportsTrim();
    }

    @Override
    public void bindSubmitter() {
        inner.bindSubmitter();
    }

    @Override
    public boolean submitsWhileWaiting() {
        return inner.submitsWhileWaiting();
    }

    @Override
    public IoSlot allocateSlot(int capacityBytes) {
        return inner.allocateSlot(capacityBytes);
    }

    @Override
    public boolean submit(IoSlot slot) {
        if (submitted.incrementAndGet() <= healthyIos) {
            return inner.submit(slot);
        }
        slot.submitNanos = System.nanoTime();
        if (hang) {
            return false; // accepted, never completed
        }
        slot.status = errno;
        if (!inner.asynchronous()) {
            slot.completeNanos = System.nanoTime();
            return true;
        }
        failed.add(slot);
        return false;
    }

    @Override
    public int reap(IoSlot[] out, int min, int max, long timeoutNs) throws InterruptedException {
        int n = 0;
        long now = System.nanoTime();
        while (n < max && !failed.isEmpty()) {
            IoSlot s = failed.poll();
            s.completeNanos = now;
            out[n++] = s;
        }
        if (n < max) {
            IoSlot[] rest = new IoSlot[max - n];
            int m = inner.reap(rest, Math.max(0, min - n), max - n, n > 0 ? 0 : timeoutNs);
            System.arraycopy(rest, 0, out, n, m);
            n += m;
        } else {
            inner.reap(out, 0, 0, 0); // a reap hands the queued requests to the kernel even when it returns none
        }
        return n;
    }

    @Override
    public String lastError() {
        return submitted.get() > healthyIos ? (hang ? "injected hang" : "injected errno " + errno) : inner.lastError();
    }

    @Override
    public void close() throws IOException {
        try {
            inner.close();
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
