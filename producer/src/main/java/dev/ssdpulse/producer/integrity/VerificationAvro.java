package dev.ssdpulse.producer.integrity;

import dev.ssdpulse.schemas.avro.LostWriteCase;
import dev.ssdpulse.schemas.avro.PowerLossCounters;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.VerifiedUnitClass;
import dev.ssdpulse.schemas.avro.WriteDurabilityModel;
import dev.ssdpulse.schemas.avro.WriteLogCoverage;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.avro.WriteVerificationClasses;
import dev.ssdpulse.schemas.avro.WriteVerificationLostContent;
import dev.ssdpulse.schemas.avro.WriteVerificationModelResult;
import java.time.Instant;
import java.util.List;

/**
 * The verification core's report as the record of topic ssdpulse.write-verification.v1, whoever verified: the
 * {@code verify} command after reading a device back, or a simulated drive's power cut.
 */
public final class VerificationAvro {
    private VerificationAvro() {}

    /**
     * What the verifier knows besides the report.
     *
     * @param runStatus       how the run ended (its RunFinished), null without one
     * @param forced          verified with --force
     * @param missingBatches  I/O batches missing from the log
     * @param unsafeShutdownsBefore the drive's unsafe-shutdown count at the run's start, null where unknown; likewise
     *                        after, and the OCP PLP start counts
     * @param countersNote    why a count is missing, or null
     */
    public record Context(
            String runId,
            Instant verifiedAt,
            String target,
            long targetSizeBytes,
            String toolVersion,
            RunStatus runStatus,
            boolean forced,
            long missingBatches,
            Long unsafeShutdownsBefore,
            Long unsafeShutdownsAfter,
            Long plpStartCountBefore,
            Long plpStartCountAfter,
            String countersNote,
            long readBytes,
            long readNs) {}

    public static WriteVerification of(VerificationReport r, Context c) {
        VerificationReport.Coverage cov = r.coverage();
        List<Long> bounds = r.lostByAge().upperBoundsNs();
        return WriteVerification.newBuilder()
                .setRunId(c.runId())
                .setVerifiedAt(c.verifiedAt())
                .setTarget(c.target())
                .setTargetSizeBytes(c.targetSizeBytes())
                .setToolVersion(c.toolVersion())
                .setRunStatus(c.runStatus())
                .setForced(c.forced())
                .setCoverage(new WriteLogCoverage(
                        cov.writes(),
                        cov.stampedWrites(),
                        cov.fuaWrites(),
                        cov.failedWrites(),
                        cov.flushes(),
                        cov.lastFlushSubmitNs() < 0 ? null : cov.lastFlushSubmitNs(),
                        cov.lastCompletionNs(),
                        cov.coveredUntilNs(),
                        c.missingBatches()))
                .setUnitsChecked(r.unitsChecked())
                .setUnitsTrimmed(r.unitsTrimmed())
                .setClasses(new WriteVerificationClasses(
                        r.count(UnitClass.INTACT),
                        r.count(UnitClass.LOST),
                        r.count(UnitClass.TORN),
                        r.count(UnitClass.REVERTED),
                        r.count(UnitClass.UNLOGGED)))
                .setLostContent(new WriteVerificationLostContent(
                        r.lost().zeros(),
                        r.lost().unstamped(),
                        r.lost().otherRun(),
                        r.lost().misplaced()))
                .setModels(r.models().stream()
                        .map(m -> new WriteVerificationModelResult(
                                model(m.model()),
                                m.requiredUnits(),
                                m.lostUnits(),
                                m.asLost(),
                                m.asTorn(),
                                m.asReverted()))
                        .toList())
                .setLostWrites(r.lostWrites())
                .setUnserializableWrites(r.unserializableWrites())
                // the last bucket is open: its bound (Long.MAX_VALUE) is not a bound
                .setLostAgeBoundsNs(bounds.subList(0, bounds.size() - 1))
                .setLostAgeCounts(r.lostByAge().counts())
                .setWorstCases(r.worstCases().stream()
                        .map(w -> new LostWriteCase(
                                w.lba(),
                                w.units(),
                                w.sequence(),
                                VerifiedUnitClass.valueOf(w.found().name()),
                                w.content(),
                                w.completeNs(),
                                w.ageNs(),
                                w.fua(),
                                w.flushed()))
                        .toList())
                .setPowerCounters(new PowerLossCounters(
                        c.unsafeShutdownsBefore(),
                        c.unsafeShutdownsAfter(),
                        c.plpStartCountBefore(),
                        c.plpStartCountAfter(),
                        c.countersNote()))
                .setReadBytes(c.readBytes())
                .setReadNs(c.readNs())
                .setStateBytes(r.stateBytes())
                .setTickNs(r.tickNs())
                .build();
    }

    private static WriteDurabilityModel model(DurabilityModel m) {
        return WriteDurabilityModel.valueOf(m.name());
    }
}
