package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.device.engine.IoEngine;
import dev.ssdpulse.producer.device.engine.IoSlot;
import dev.ssdpulse.producer.device.engine.IoStatus;
import dev.ssdpulse.producer.integrity.UnitContents;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * A target's units read back for verification: the extents in reads of up to {@code readBytes}, {@code queueDepth}
 * of them in flight on an engine the caller opened read-only (an asynchronous one keeps the queue full from one
 * thread, as fio does), each read's units inspected ({@link UnitStamp#inspect}) and handed over in LBA order as
 * the reads complete in order. Reads only: the engine has no write to make, and the target is opened without
 * write access.
 */
public final class ReadBack implements UnitContents {
    private final IoEngine engine;
    private final int readBytes;
    private final int queueDepth;
    private final long ioTimeoutNs;
    private long bytesRead;
    private long readNanos;

    /**
     * @param engine     open on the target without write access ({@code writable} false)
     * @param readBytes  largest read, a multiple of 4 KiB
     * @param queueDepth reads in flight (1 with a synchronous engine)
     */
    public ReadBack(IoEngine engine, int readBytes, int queueDepth, long ioTimeoutNs) {
        if (readBytes < UnitStamp.UNIT_BYTES || readBytes % UnitStamp.UNIT_BYTES != 0) {
            throw new IllegalArgumentException("read size must be a multiple of 4 KiB, got " + readBytes);
        }
        this.engine = engine;
        this.readBytes = readBytes;
        this.queueDepth = engine.asynchronous() ? Math.min(queueDepth, engine.maxQueueDepth()) : 1;
        this.ioTimeoutNs = ioTimeoutNs;
    }

    /** Bytes read so far. */
    public long bytesRead() {
        return bytesRead;
    }

    /** Time from the first submission to the last completion handled, ns. */
    public long readNanos() {
        return readNanos;
    }

    @Override
    public void read(long[] extents, Observer observer) throws IOException {
        int unitsPerRead = readBytes / UnitStamp.UNIT_BYTES;
        IoSlot[] slots = new IoSlot[queueDepth];
        for (int i = 0; i < queueDepth; i++) {
            slots[i] = engine.allocateSlot(readBytes);
        }
        // reads in submission order, a ring: head..head+inFlight
        boolean[] done = new boolean[queueDepth];
        long[] firstLba = new long[queueDepth];
        IoSlot[] reaped = new IoSlot[queueDepth];
        CRC32C crc = new CRC32C();
        UnitStamp.Observation seen = new UnitStamp.Observation();
        int head = 0;
        int inFlight = 0;
        int extent = 0;
        long nextLba = extents.length > 0 ? extents[0] : 0;
        long extentEnd = extents.length > 0 ? extents[0] + extents[1] : 0;
        long started = System.nanoTime();
        long lastCompletion = started;
        try {
            engine.bindSubmitter();
            while (true) {
                while (inFlight < queueDepth && extent < extents.length) {
                    int units = (int) Math.min(unitsPerRead, extentEnd - nextLba);
                    int index = (head + inFlight) % queueDepth;
                    IoSlot s = slots[index];
                    s.op = IoOpCode.READ;
                    s.offsetBytes = nextLba << UnitStamp.UNIT_SHIFT;
                    s.sizeBytes = units << UnitStamp.UNIT_SHIFT;
                    firstLba[index] = nextLba;
                    done[index] = engine.submit(s);
                    inFlight++;
                    nextLba += units;
                    if (nextLba == extentEnd) {
                        extent += 2;
                        if (extent < extents.length) {
                            nextLba = extents[extent];
                            extentEnd = nextLba + extents[extent + 1];
                        }
                    }
                }
                if (inFlight == 0) {
                    break;
                }
                if (!done[head]) {
                    int n;
                    try {
                        n = engine.reap(reaped, 1, queueDepth, ioTimeoutNs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while reading the target back", e);
                    }
                    long now = System.nanoTime();
                    if (n == 0 && now - lastCompletion > ioTimeoutNs) {
                        throw new IOException(inFlight + " reads saw no completion for "
                                + (now - lastCompletion) / 1_000_000 + " ms: the device stopped responding");
                    }
                    for (int i = 0; i < n; i++) {
                        for (int j = 0; j < queueDepth; j++) {
                            if (slots[j] == reaped[i]) {
                                done[j] = true;
                            }
                        }
                        reaped[i] = null;
                        lastCompletion = now;
                    }
                }
                while (inFlight > 0 && done[head]) {
                    IoSlot s = slots[head];
                    if (s.status != IoStatus.OK) {
                        throw new IOException("reading " + s.sizeBytes + " bytes at offset " + s.offsetBytes
                                + " failed with errno " + s.status + describe(engine.lastError()));
                    }
                    bytesRead += s.sizeBytes;
                    long lba = firstLba[head];
                    for (int at = 0; at < s.sizeBytes; at += UnitStamp.UNIT_BYTES) {
                        UnitStamp.inspect(s.buffer, at, crc, seen);
                        observer.unit(lba++, seen);
                    }
                    done[head] = false;
                    head = (head + 1) % queueDepth;
                    inFlight--;
                }
            }
        } finally {
            // after a failure, reads may still be in flight: closing the engine waits for them
            readNanos += System.nanoTime() - started;
        }
    }

    private static String describe(String lastError) {
        return lastError == null ? "" : " (" + lastError + ")";
    }
}
