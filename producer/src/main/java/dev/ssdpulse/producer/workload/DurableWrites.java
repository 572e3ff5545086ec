package dev.ssdpulse.producer.workload;

import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * A worker's requests with the phase's {@link WriteDurability}: a FLUSH request after every N writes and/or once the
 * flush interval has passed on the driver's clock since the worker's last FLUSH (only when it wrote since), and the
 * FUA flag on a share of the writes, drawn from their own stream so the rest of the request sequence is the same as
 * without it. A FLUSH moves no data: it does not count against the phase's byte budget.
 */
final class DurableWrites implements RequestGenerator {
    private final RequestGenerator requests;
    private final int flushEveryWrites;
    private final long flushIntervalNs;
    private final int fuaPercent;
    private final LongSupplier clockNs;
    private final SplittableRandom fuaDraws;
    private long writesSinceFlush;
    private long lastFlushNs;

    DurableWrites(RequestGenerator requests, WriteDurability durability, long seed, LongSupplier clockNs) {
        this.requests = requests;
        this.flushEveryWrites = durability.flushEveryWrites();
        this.flushIntervalNs = durability.flushIntervalNs();
        this.fuaPercent = durability.fuaPercent();
        this.clockNs = clockNs;
        this.fuaDraws = new SplittableRandom(WorkloadSpec.mix64(seed ^ 0x46554146_4C555348L));
        this.lastFlushNs = flushIntervalNs > 0 ? clockNs.getAsLong() : 0;
    }

    @Override
    public boolean next(IoRequest request) {
        if (writesSinceFlush > 0 && flushDue()) {
            writesSinceFlush = 0;
            if (flushIntervalNs > 0) {
                lastFlushNs = clockNs.getAsLong();
            }
            request.set(IoOpCode.FLUSH, 0, 0, 0);
            return true;
        }
        if (!requests.next(request)) {
            return false;
        }
        if (request.op == IoOpCode.WRITE) {
            writesSinceFlush++;
            request.fua = fuaPercent == 100 || (fuaPercent > 0 && fuaDraws.nextInt(100) < fuaPercent);
        }
        return true;
    }

    private boolean flushDue() {
        return (flushEveryWrites > 0 && writesSinceFlush >= flushEveryWrites)
                || (flushIntervalNs > 0 && clockNs.getAsLong() - lastFlushNs >= flushIntervalNs);
    }
}
