package dev.ssdpulse.producer.sim.engine;

/** Told when phases start and end (times in ns since run start), e.g. to publish PhaseChanged events. */
public interface PhaseListener {
    void onPhaseStarted(int phaseIndex, long timeNs);

    void onPhaseEnded(int phaseIndex, long timeNs);

    PhaseListener NONE = new PhaseListener() {
        @Override
        public void onPhaseStarted(int phaseIndex, long timeNs) {}

        @Override
        public void onPhaseEnded(int phaseIndex, long timeNs) {}
    };
}
