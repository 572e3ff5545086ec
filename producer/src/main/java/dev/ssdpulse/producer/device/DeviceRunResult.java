package dev.ssdpulse.producer.device;

import java.util.List;

/**
 * The result of {@link DeviceRunner#run}.
 *
 * @param status     COMPLETED, ABORTED (cancelled, e.g. Ctrl-C) or FAILED
 * @param reason     null when COMPLETED; else why
 * @param elapsedNs  run start to end
 * @param phases     one outcome per phase that started
 * @param lastError  the engine's last I/O error message, or null
 */
public record DeviceRunResult(
        Status status, String reason, long elapsedNs, List<PhaseOutcome> phases, String lastError) {

    public enum Status {
        COMPLETED,
        ABORTED,
        FAILED
    }

    public DeviceRunResult {
        phases = List.copyOf(phases);
    }

    public long totalIos() {
        return phases.stream().mapToLong(PhaseOutcome::ios).sum();
    }

    public long totalErrors() {
        return phases.stream().mapToLong(PhaseOutcome::errors).sum();
    }

    public long bytesRead() {
        return phases.stream().mapToLong(PhaseOutcome::bytesRead).sum();
    }

    public long bytesWritten() {
        return phases.stream().mapToLong(PhaseOutcome::bytesWritten).sum();
    }

    public long bytesTrimmed() {
        return phases.stream().mapToLong(PhaseOutcome::bytesTrimmed).sum();
    }
}
