package dev.ssdpulse.cli.reliability;

import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WriteVerification;

/** A {@link RunOutput} that passes everything to the real one: tests override only what they watch or hold. */
abstract class ForwardingRunOutput implements RunOutput {
    protected final RunOutput delegate;

    ForwardingRunOutput(RunOutput delegate) {
        this.delegate = delegate;
    }

    @Override
    public String runId() {
        return delegate.runId();
    }

    @Override
    public void onIoCompleted(
            int worker,
            int phaseIndex,
            byte op,
            long offsetBytes,
            int sizeBytes,
            long submitTimeNs,
            long latencyNs,
            int queueDepth,
            int status) {
        delegate.onIoCompleted(
                worker, phaseIndex, op, offsetBytes, sizeBytes, submitTimeNs, latencyNs, queueDepth, status);
    }

    @Override
    public void completedThrough(int worker, long runTimeNs) {
        delegate.completedThrough(worker, runTimeNs);
    }

    @Override
    public void phaseStarted(ScheduledPhase phase, long timeNs) {
        delegate.phaseStarted(phase, timeNs);
    }

    @Override
    public void replayFinished(ReplayResult result) {
        delegate.replayFinished(result);
    }

    @Override
    public void smart(SmartSample sample) {
        delegate.smart(sample);
    }

    @Override
    public void verification(WriteVerification verification) {
        delegate.verification(verification);
    }

    @Override
    public int finish(RunStatus status, String reason, long durationNs) {
        return delegate.finish(status, reason, durationNs);
    }
}
