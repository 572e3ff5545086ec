package dev.ssdpulse.producer.sim.engine;

/** Receives SMART snapshots at the run's sampling interval (virtual time), plus one at start and end. */
@FunctionalInterface
public interface SmartSampleListener {
    void onSample(SimSmartCounters sample);
}
