package dev.ssdpulse.producer.device;

/**
 * How a {@link DeviceRunner} treats its target.
 *
 * @param targetSizeBytes    usable size of the prepared target (spans are relative to it; no I/O goes beyond)
 * @param blockDevice        the target is a block device (matters for PURGE)
 * @param allowDestroyData   the user passed --allow-destroy-data
 * @param progressIntervalNs how often {@link DeviceRunListener#onProgress} is called (1 s by default)
 * @param ioTimeoutNs        with an asynchronous engine: a phase whose outstanding I/Os see no completion for this
 *                           long fails ("the device stopped responding") instead of waiting forever (60 s by
 *                           default; the kernel's own SCSI/NVMe timeouts are 30 s, plus retries)
 */
public record DeviceRunOptions(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData,
                               long progressIntervalNs, long ioTimeoutNs) {

    public static final long DEFAULT_PROGRESS_INTERVAL_NS = 1_000_000_000L;
    public static final long DEFAULT_IO_TIMEOUT_NS = 60_000_000_000L;

    public DeviceRunOptions(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData,
                            long progressIntervalNs) {
        this(targetSizeBytes, blockDevice, allowDestroyData, progressIntervalNs, DEFAULT_IO_TIMEOUT_NS);
    }

    public DeviceRunOptions {
        if (targetSizeBytes <= 0) {
            throw new IllegalArgumentException("targetSizeBytes must be > 0, got " + targetSizeBytes);
        }
        if (progressIntervalNs <= 0) {
            throw new IllegalArgumentException("progressIntervalNs must be > 0, got " + progressIntervalNs);
        }
        if (ioTimeoutNs <= 0) {
            throw new IllegalArgumentException("ioTimeoutNs must be > 0, got " + ioTimeoutNs);
        }
    }

    public static DeviceRunOptions forTarget(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData) {
        return new DeviceRunOptions(targetSizeBytes, blockDevice, allowDestroyData, DEFAULT_PROGRESS_INTERVAL_NS);
    }
}
