package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.workload.ScheduledPhase;

/**
 * Run lifecycle callbacks of a {@link DeviceRunner}, all on the thread that called {@code run} and never while an
 * I/O thread of the run is active, except {@link #onProgress} (called while I/O threads run, from the runner
 * thread). A phase's completions are all delivered to the sink before {@link #onPhaseEnded}, and none of the next
 * phase before the next {@link #onPhaseStarted}; so a publisher may flush on these calls.
 */
public interface DeviceRunListener {
    /** @param timeNs ns since run start */
    default void onPhaseStarted(ScheduledPhase phase, long timeNs) {}

    default void onPhaseEnded(ScheduledPhase phase, PhaseOutcome outcome) {}

    default void onProgress(DeviceProgress progress) {}

    /** Something the user should read (e.g. "PURGE on a file: nothing to purge"). */
    default void onNotice(String message) {}

    DeviceRunListener NONE = new DeviceRunListener() {};
}
