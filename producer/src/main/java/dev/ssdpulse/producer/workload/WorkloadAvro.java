package dev.ssdpulse.producer.workload;

import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps a workload to the Avro {@link WorkloadDescription} of {@code RunStarted}: the canonical JSON (the
 * source of truth for replay) plus the scheduled phases as run, with spans resolved against the target.
 * Note the size: SNIA host-idle-recovery schedules ~3,600 phases (~0.2 MB of Avro), below Kafka's default
 * 1 MB record limit.
 */
public final class WorkloadAvro {
    private WorkloadAvro() {}

    public static WorkloadDescription toDescription(WorkloadSpec spec, long targetSizeBytes) {
        List<dev.ssdpulse.schemas.avro.PhaseSpec> phases = new ArrayList<>();
        for (ScheduledPhase sp : spec.schedule()) {
            phases.add(toAvro(sp, targetSizeBytes));
        }
        return WorkloadDescription.newBuilder()
                .setName(spec.name())
                .setDescription(spec.description())
                .setSpecJson(WorkloadJson.toCanonicalJson(spec))
                .setPhases(phases)
                .build();
    }

    public static dev.ssdpulse.schemas.avro.PhaseSpec toAvro(ScheduledPhase sp, long targetSizeBytes) {
        PhaseSpec p = sp.phase();
        List<dev.ssdpulse.schemas.avro.AccessSpec> specs = new ArrayList<>();
        for (AccessSpec a : p.accessSpecs()) {
            specs.add(dev.ssdpulse.schemas.avro.AccessSpec.newBuilder()
                    .setTransferSizeBytes(a.transferSizeBytes())
                    .setPercentOfSpec(a.percentOfSpec())
                    .setPercentRead(a.percentRead())
                    .setPercentRandom(a.percentRandom())
                    .setAlignmentBytes(Math.toIntExact(a.alignmentBytes()))
                    .build());
        }
        return dev.ssdpulse.schemas.avro.PhaseSpec.newBuilder()
                .setIndex(sp.index())
                .setName(sp.name())
                .setKind(PhaseKind.valueOf(p.kind().name()))
                .setAccessSpecs(specs)
                .setQueueDepth(p.queueDepth())
                .setWorkers(p.workers())
                .setSpanOffsetBytes(p.span().offsetBytes(targetSizeBytes))
                .setSpanSizeBytes(p.span().sizeBytes(targetSizeBytes))
                .setDurationNs(p.durationNs().isPresent() ? p.durationNs().getAsLong() : null)
                .setTotalBytes(
                        p.totalBytes(targetSizeBytes).isPresent()
                                ? p.totalBytes(targetSizeBytes).getAsLong()
                                : null)
                .setRampNs(p.rampNs())
                .setRateLimitIops(
                        p.rateLimitIops().isPresent() ? p.rateLimitIops().getAsLong() : null)
                .setTrimEnabled(p.trim())
                .build();
    }
}
