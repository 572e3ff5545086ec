package dev.ssdpulse.producer.device;

import dev.ssdpulse.producer.device.engine.CpuList;

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
 * @param submitBatch        with an asynchronous engine: how many prepared requests a worker hands to the kernel
 *                           per submission, as fio's {@code iodepth_batch_submit}. 1 (fio's default too): each
 *                           request goes out as soon as it is prepared (with io_uring, the one that takes the
 *                           last free slot goes with the wait that follows: one system call). Larger batches save
 *                           system calls at high queue depth but hold the first requests of a batch back; on the
 *                           2-core VM's virtio disk, 4 KiB random writes at QD32 ran ~30 % faster with 1 than with
 *                           a whole reap's worth per call
 * @param cpusAllowed        the CPUs every I/O thread is pinned to (fio's {@code cpus_allowed}, each thread may use
 *                           any of them), or null to leave placement to the scheduler
 * @param stamps             stamp every write ({@code verify: true}), or null to write the phases' data patterns
 */
public record DeviceRunOptions(
        long targetSizeBytes,
        boolean blockDevice,
        boolean allowDestroyData,
        long progressIntervalNs,
        long ioTimeoutNs,
        int submitBatch,
        CpuList cpusAllowed,
        WriteStamps stamps) {

    public static final long DEFAULT_PROGRESS_INTERVAL_NS = 1_000_000_000L;
    public static final long DEFAULT_IO_TIMEOUT_NS = 60_000_000_000L;
    public static final int DEFAULT_SUBMIT_BATCH = 1;

    public DeviceRunOptions(
            long targetSizeBytes,
            boolean blockDevice,
            boolean allowDestroyData,
            long progressIntervalNs,
            long ioTimeoutNs,
            int submitBatch,
            CpuList cpusAllowed) {
        this(
                targetSizeBytes,
                blockDevice,
                allowDestroyData,
                progressIntervalNs,
                ioTimeoutNs,
                submitBatch,
                cpusAllowed,
                null);
    }

    public DeviceRunOptions(
            long targetSizeBytes,
            boolean blockDevice,
            boolean allowDestroyData,
            long progressIntervalNs,
            long ioTimeoutNs) {
        this(
                targetSizeBytes,
                blockDevice,
                allowDestroyData,
                progressIntervalNs,
                ioTimeoutNs,
                DEFAULT_SUBMIT_BATCH,
                null);
    }

    public DeviceRunOptions(
            long targetSizeBytes, boolean blockDevice, boolean allowDestroyData, long progressIntervalNs) {
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
        if (submitBatch < 1) {
            throw new IllegalArgumentException("submitBatch must be >= 1, got " + submitBatch);
        }
    }

    /** The same options, writing stamped units. */
    public DeviceRunOptions withStamps(WriteStamps s) {
        return new DeviceRunOptions(
                targetSizeBytes,
                blockDevice,
                allowDestroyData,
                progressIntervalNs,
                ioTimeoutNs,
                submitBatch,
                cpusAllowed,
                s);
    }

    public static DeviceRunOptions forTarget(long targetSizeBytes, boolean blockDevice, boolean allowDestroyData) {
        return new DeviceRunOptions(targetSizeBytes, blockDevice, allowDestroyData, DEFAULT_PROGRESS_INTERVAL_NS);
    }
}
