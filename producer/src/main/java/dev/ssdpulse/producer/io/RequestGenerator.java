package dev.ssdpulse.producer.io;

/**
 * The request stream of one worker in one phase: which I/O to submit next. Implementations are
 * deterministic for a seed and not thread-safe (one per worker). Whether the phase is over (duration,
 * byte budget) is decided by the driver, which knows the clock; a generator only says when it has no
 * more requests at all (e.g. a single sequential pass over its span is done).
 */
public interface RequestGenerator {
    /**
     * Fills {@code request} with the next I/O.
     *
     * @return false when this generator has no more requests (the worker then stops submitting)
     */
    boolean next(IoRequest request);

    /**
     * The driver issued the request that {@link #next} gave with a due time ({@link IoRequest#dueNs}),
     * {@code lagNs} after it (0 when on time). Called in issue order, from the thread that drew the request
     * or under the worker's lock. Only a replayed trace's generator keeps it.
     */
    default void issued(long lagNs) {}
}
