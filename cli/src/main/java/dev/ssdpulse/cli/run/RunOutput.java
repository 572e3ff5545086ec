package dev.ssdpulse.cli.run;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WriteVerification;

/**
 * Where a producer command's run goes: streamed to Kafka ({@link StreamedRunOutput}) or analysed in-process
 * ({@link OfflineRunOutput}). Producers (simulator, device engine, importers) report the same things to
 * either, so a run measured offline and one streamed differ only in where the analytics run.
 */
public interface RunOutput extends IoCompletionSink {

    String runId();

    /** A phase starts; called when no worker is submitting. */
    void phaseStarted(ScheduledPhase phase, long timeNs);

    /**
     * A paced run's times come due {@code shiftNs} later on the wall clock than from its recorded start (its pacer
     * moved its origin forward rather than start a phase in a burst); called before the I/Os it applies to.
     */
    default void runTimeOriginMoved(long shiftNs) {}

    /** A REPLAY phase ended: how its I/Os were issued against their recorded times (before {@link #finish}). */
    void replayFinished(ReplayResult result);

    /** A SMART-style counter sample. */
    void smart(SmartSample sample);

    /**
     * The run's writes verified after a simulated power cut (before {@link #finish}): the same record {@code verify}
     * writes for a real drive.
     */
    void verification(WriteVerification verification);

    /** Ends the run, prints what happened; returns the command's exit code. */
    int finish(RunStatus status, String reason, long durationNs);
}
