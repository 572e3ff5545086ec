package dev.ssdpulse.producer.replay;

import dev.ssdpulse.schemas.avro.ReplayPhaseResult;

/**
 * How a REPLAY phase's I/Os were issued against their recorded times: the producer's side of the phase's
 * result (the load time itself is measured from the I/Os, by the analysis).
 *
 * @param issuedIoCount  I/Os handed to the device (fewer than the trace's when the phase was cut short)
 * @param lateIssueCount with recorded timing, I/Os issued more than {@code lateThresholdNs} after their due time
 */
public record ReplayResult(
        int phaseIndex,
        String trace,
        boolean recordedTiming,
        double timeScale,
        long traceIoCount,
        long issuedIoCount,
        long lateIssueCount,
        long lateThresholdNs,
        long issueLagP50Ns,
        long issueLagP99Ns,
        long issueLagMaxNs) {

    public ReplayPhaseResult toAvro() {
        return ReplayPhaseResult.newBuilder()
                .setPhaseIndex(phaseIndex)
                .setTrace(trace)
                .setRecordedTiming(recordedTiming)
                .setTimeScale(timeScale)
                .setTraceIoCount(traceIoCount)
                .setIssuedIoCount(issuedIoCount)
                .setLateIssueCount(lateIssueCount)
                .setLateThresholdNs(lateThresholdNs)
                .setIssueLagP50Ns(issueLagP50Ns)
                .setIssueLagP99Ns(issueLagP99Ns)
                .setIssueLagMaxNs(issueLagMaxNs)
                .build();
    }
}
