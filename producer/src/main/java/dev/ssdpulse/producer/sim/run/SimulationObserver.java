package dev.ssdpulse.producer.sim.run;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.workload.ScheduledPhase;

/**
 * Everything a simulated workload run reports, in virtual-time order: each completed I/O, each phase as it
 * starts (drive preparation phases such as PURGE and a leading FILL included, at time 0), and SMART
 * samples. Times are ns since the run's start.
 */
public interface SimulationObserver extends IoCompletionSink {

    void onPhaseStarted(ScheduledPhase phase, long timeNs);

    void onSmartSample(SimSmartCounters counters);

    /** A REPLAY phase ended: how its I/Os were issued against their recorded times. */
    default void onReplayFinished(ReplayResult result) {}
}
