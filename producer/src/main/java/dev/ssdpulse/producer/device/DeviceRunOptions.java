package dev.ssdpulse.producer.device;

/**
 * How a {@link DeviceRunner} treats its target.
 *
 * @param targetSizeBytes    usable size of the prepared target (spans are relative to it; no I/O goes beyond)
 * @param blockDevice        the target is a block device (matters for PURGE)
 * @param allowDestroyData   the user passed --allow-destroy-data
 * @param progressIntervalNs how often {@link DeviceRunListener#onProgress} is called (1 s by default)
 */
public record DeviceRunOptions(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData,
                               long progressIntervalNs) {

    public static final long DEFAULT_PROGRESS_INTERVAL_NS = 1_000_000_000L;

    public DeviceRunOptions {
        if (targetSizeBytes <= 0) {
            throw new IllegalArgumentException("targetSizeBytes must be > 0, got " + targetSizeBytes);
        }
        if (progressIntervalNs <= 0) {
            throw new IllegalArgumentException("progressIntervalNs must be > 0, got " + progressIntervalNs);
        }
    }

    public static DeviceRunOptions forTarget(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData) {
        return new DeviceRunOptions(targetSizeBytes, blockDevice, allowDestroyData, DEFAULT_PROGRESS_INTERVAL_NS);
    }
}
