package dev.ssdpulse.producer.device.engine;

import dev.ssdpulse.producer.integrity.StampWriter;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.schemas.iobatch.IoFlags;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;

/**
 * Fills a write with {@link UnitStamp}s, one per 4 KiB unit, and gives it the run's next sequence number
 * ({@code IoSlot.writeSequence}, recorded with the write's completion). The sequence counter is shared by every
 * worker of the run, so sequence order is submit order (up to the few nanoseconds between drawing a number and
 * submitting). Not thread-safe: one per I/O thread, sharing the counter.
 */
public final class StampFiller implements WriteFiller {
    private final StampWriter stamps;
    private final AtomicLong sequences;
    private final CRC32C crc = new CRC32C();

    public StampFiller(StampWriter stamps, AtomicLong sequences) {
        this.stamps = stamps;
        this.sequences = sequences;
    }

    @Override
    public void fill(IoSlot slot, int sizeBytes) {
        if ((sizeBytes & (UnitStamp.UNIT_BYTES - 1)) != 0 || (slot.offsetBytes & (UnitStamp.UNIT_BYTES - 1)) != 0) {
            throw new IllegalStateException("a stamped write must cover whole 4 KiB units, got " + sizeBytes
                    + " bytes at offset " + slot.offsetBytes);
        }
        long sequence = sequences.getAndIncrement();
        int units = sizeBytes >>> UnitStamp.UNIT_SHIFT;
        long firstLba = slot.offsetBytes >>> UnitStamp.UNIT_SHIFT;
        int flags = slot.fua ? IoFlags.FUA : IoFlags.NONE;
        for (int u = 0; u < units; u++) {
            stamps.write(slot.buffer, u << UnitStamp.UNIT_SHIFT, firstLba + u, sequence, units, u, flags, crc);
        }
        slot.writeSequence = sequence;
        slot.holdsReadData = false;
        slot.zeroed = false;
    }
}
