package dev.ssdpulse.producer.integrity;

import java.util.List;
import java.util.Map;

/**
 * The result of checking a target against a run's log. Unit counts are 4 KiB units; times are ns since the run's
 * start (the log's clock).
 *
 * @param coverage      how much of the run the log holds
 * @param unitsChecked  units the log says were written, each read back and classified
 * @param unitsTrimmed  units whose last logged operation was a TRIM (undefined content): not checked
 * @param units         the checked units by class
 * @param lost          what the LOST units held
 * @param models        per durability model, the units whose required write is lost (by class)
 * @param lostWrites    writes of which at least one unit is not intact (not counting units overwritten later),
 *                      under {@link DurabilityModel#ACKNOWLEDGED}
 * @param unserializableWrites lost writes acknowledged before a write that survived was submitted: the drive kept
 *                      a later write and lost an earlier one (Zheng et al.'s unserializable writes)
 * @param lostByAge     lost writes by how long before the last logged completion they completed (diskchecker's view)
 * @param worstCases    the lost writes that completed longest before the last logged completion, oldest first
 * @param unitsWithRunStamp units holding a stamp of this run (intact or not): 0 means another device
 * @param tickNs        resolution of the times kept per unit: two writes closer than a tick count as concurrent
 * @param stateBytes    memory the per-unit record took
 */
public record VerificationReport(
        Coverage coverage,
        long unitsChecked,
        long unitsTrimmed,
        Map<UnitClass, Long> units,
        LostContent lost,
        List<ModelResult> models,
        long lostWrites,
        long unserializableWrites,
        AgeHistogram lostByAge,
        List<WorstCase> worstCases,
        long unitsWithRunStamp,
        long tickNs,
        long stateBytes) {

    public long count(UnitClass c) {
        return units.getOrDefault(c, 0L);
    }

    public ModelResult model(DurabilityModel m) {
        return models.stream().filter(r -> r.model() == m).findFirst().orElseThrow();
    }

    /**
     * How much of the run the log holds.
     *
     * @param writes            successful writes logged
     * @param stampedWrites     of which stamped (all of a run with verify: true)
     * @param fuaWrites         of which FUA
     * @param failedWrites      writes that completed with an error (not acknowledged)
     * @param flushes           successful FLUSHes logged
     * @param lastFlushSubmitNs submit time of the last completed FLUSH (-1 without one): what it made durable
     * @param lastCompletionNs  the latest completion the log holds
     * @param coveredUntilNs    every completion up to here is in the log: the earliest of the last completions of the
     *                          workers active at the end (each worker's log is its completions in order, so a worker's
     *                          log ends where its published part ends)
     */
    public record Coverage(
            long writes,
            long stampedWrites,
            long fuaWrites,
            long failedWrites,
            long flushes,
            long lastFlushSubmitNs,
            long lastCompletionNs,
            long coveredUntilNs) {}

    /** What the LOST units held. */
    public record LostContent(long zeros, long unstamped, long otherRun, long misplaced) {}

    /**
     * One durability model.
     *
     * @param requiredUnits units with a write the model requires
     * @param lostUnits     of which the write (or a later one) is not there: {@code asLost + asTorn + asReverted}
     */
    public record ModelResult(
            DurabilityModel model, long requiredUnits, long lostUnits, long asLost, long asTorn, long asReverted) {}

    /** Counts of lost writes whose completion was at most {@code upperBoundsNs[i]} before the last logged one. */
    public record AgeHistogram(List<Long> upperBoundsNs, List<Long> counts) {}

    /**
     * A lost write.
     *
     * @param lba        its first lost unit
     * @param units      consecutive lost units of the write from there
     * @param sequence   its stamp sequence
     * @param found      the first lost unit's class
     * @param content    what that unit holds instead ("zeros", "write 812 (older)", ...)
     * @param completeNs when the write completed
     * @param ageNs      how long before the last logged completion
     * @param fua        it was a FUA write
     * @param flushed    a FLUSH completed after it (it was required under the FLUSHED model too)
     */
    public record WorstCase(
            long lba,
            long units,
            long sequence,
            UnitClass found,
            String content,
            long completeNs,
            long ageNs,
            boolean fua,
            boolean flushed) {}
}
