package dev.ssdpulse.producer.workload;

import dev.ssdpulse.producer.io.RequestGenerator;
import java.util.function.LongSupplier;

/**
 * Builds the request generator of one worker in one phase.
 *
 * <p>Termination: a phase with a byte budget ({@code totalBytes}) splits it over its workers (the first
 * {@code total % workers} workers get one byte more) and each generator returns false once it has issued
 * its share, possibly overshooting by less than one request. A phase with only a duration never runs dry:
 * the driver ends it on its clock. IDLE and plain PURGE phases have no requests (the driver idles or purges).
 *
 * <p>Time fields: {@code IoRequest.delayNs} is the minimum gap between this submit and the worker's previous
 * submit; it carries IOMeter's burst delay and the rate limit (phase rate / workers per worker, exact over
 * time). A driver paces with it rather than sleeping after completions.
 *
 * <p>FLUSH and FUA ({@link WriteDurability}): a FLUSH request after every N writes of the worker, or once a flush
 * interval has passed on the driver's clock; the FUA flag on a share of the writes.
 */
public final class WorkloadGenerators {
    private static final RequestGenerator NO_REQUESTS = request -> false;

    private WorkloadGenerators() {}

    /**
     * @param phase           the phase (from {@link ScheduledPhase#phase()})
     * @param worker          worker index, 0 .. workers-1
     * @param seed            the scheduled phase's seed ({@link ScheduledPhase#seed()}); mixed with the worker
     * @param targetSizeBytes capacity of the target the spans are relative to
     * @throws IllegalArgumentException when the span does not fit the target or a worker's region is smaller
     *                                  than a transfer
     */
    public static RequestGenerator forPhase(PhaseSpec phase, int worker, long seed, long targetSizeBytes) {
        if (phase.durability().flushIntervalNs() > 0) {
            throw new IllegalArgumentException("phase '" + phase.name() + "': flushInterval needs a driver with a"
                    + " clock (the device engine); use flushEveryWrites here");
        }
        return forPhase(phase, worker, seed, targetSizeBytes, () -> 0L);
    }

    /**
     * As {@link #forPhase(PhaseSpec, int, long, long)}, with the driver's clock for a time-based FLUSH
     * ({@code flushInterval}).
     *
     * @param clockNs the driver's time in ns (any origin), read only when the phase has a flush interval
     */
    public static RequestGenerator forPhase(
            PhaseSpec phase, int worker, long seed, long targetSizeBytes, LongSupplier clockNs) {
        if (worker < 0 || worker >= phase.workers()) {
            throw new IllegalArgumentException("worker " + worker + " is not in 0.." + (phase.workers() - 1)
                    + " for phase '" + phase.name() + "'");
        }
        if (phase.accessSpecs().isEmpty()) {
            return NO_REQUESTS;
        }
        long spanStart = phase.span().offsetBytes(targetSizeBytes);
        long spanSize = phase.span().sizeBytes(targetSizeBytes);
        if (spanStart < 0 || spanSize <= 0 || spanStart + spanSize > targetSizeBytes) {
            throw new IllegalArgumentException("phase '" + phase.name() + "': span [" + spanStart + ", "
                    + (spanStart + spanSize) + ") is not inside a target of " + Units.describeBytes(targetSizeBytes));
        }
        long regionStart = spanStart;
        long regionSize = spanSize;
        if (phase.spanSharing() == SpanSharing.SPLIT && phase.workers() > 1) {
            long align = phase.accessSpecs().stream()
                    .mapToLong(AccessSpec::alignmentBytes)
                    .max()
                    .orElse(512);
            long slice = spanSize / phase.workers() / align * align;
            regionStart = spanStart + worker * slice;
            regionSize = worker == phase.workers() - 1 ? spanStart + spanSize - regionStart : slice;
        }
        long budget = Long.MAX_VALUE;
        if (phase.totalBytes().isPresent()) {
            long total = phase.totalBytes().get().resolve(spanSize);
            budget = total / phase.workers() + (worker < total % phase.workers() ? 1 : 0);
        }
        // seed + phase name + worker: distinct streams per worker and per phase even if a driver passes the
        // workload seed itself rather than the scheduled phase's seed.
        long workerSeed =
                WorkloadSpec.mix64(seed ^ WorkloadSpec.mix64(phase.name().hashCode() * 0x9E3779B97F4A7C15L + worker));
        RequestGenerator requests = new AccessSpecGenerator(phase, regionStart, regionSize, budget, workerSeed);
        return phase.durability().any()
                ? new DurableWrites(requests, phase.durability(), workerSeed, clockNs)
                : requests;
    }
}
