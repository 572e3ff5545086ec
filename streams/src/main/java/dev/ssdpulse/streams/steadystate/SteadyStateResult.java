package dev.ssdpulse.streams.steadystate;

/**
 * One steady-state evaluation.
 *
 * @param method         criterion
 * @param reached        the criterion holds for the measurement window
 * @param finalVerdict   no later sample can change the verdict (reached, max rounds passed, or series ended)
 * @param decidedAtNs    run time of the end of the last round / sample used, ns
 * @param windowStartNs  start of the measurement window, ns since run start
 * @param windowEndNs    end of the measurement window, ns since run start
 * @param roundsOrSamples SNIA: rounds completed so far; fio: samples in the window
 * @param mean           mean of the tracked values over the window (IOPS or bytes/s)
 * @param range          max - min of the tracked values over the window
 * @param slope          least-squares slope; SNIA: per round, fio: per second
 * @param limit          SNIA: range limit as a fraction (0.20); fio: the limit as configured, as a fraction
 *                       for percentage limits, in IOPS or bytes/s otherwise
 * @param criteria       the criteria as text
 * @param explanation    why, with the numbers
 * @param steadyNow      whether the criterion holds over the latest window; null where not tracked (SNIA)
 * @param reachedAtNs    when the criterion first held; null before
 * @param lostAtNs       when a reached steady state was last lost; null if never
 */
public record SteadyStateResult(
        SteadyStateMethod method,
        boolean reached,
        boolean finalVerdict,
        long decidedAtNs,
        long windowStartNs,
        long windowEndNs,
        int roundsOrSamples,
        double mean,
        double range,
        double slope,
        double limit,
        String criteria,
        String explanation,
        Boolean steadyNow,
        Long reachedAtNs,
        Long lostAtNs) {

    /** An evaluation of a criterion that does not track steady state after its verdict (SNIA PTS). */
    public SteadyStateResult(
            SteadyStateMethod method,
            boolean reached,
            boolean finalVerdict,
            long decidedAtNs,
            long windowStartNs,
            long windowEndNs,
            int roundsOrSamples,
            double mean,
            double range,
            double slope,
            double limit,
            String criteria,
            String explanation) {
        this(
                method,
                reached,
                finalVerdict,
                decidedAtNs,
                windowStartNs,
                windowEndNs,
                roundsOrSamples,
                mean,
                range,
                slope,
                limit,
                criteria,
                explanation,
                null,
                null,
                null);
    }
}
