package dev.ssdpulse.producer.device.hostinfo;

import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the run event records about the host and the target's device. Any fact may be null; {@link #unavailable}
 * then says why (key = field name). Collecting facts never fails a run.
 *
 * @param blockDevice            kernel name of the whole disk under the target (e.g. vda, nvme0n1), or null
 * @param ioScheduler            the active ([bracketed]) scheduler of that disk
 * @param capacityBytes          the disk's capacity (sectors x 512)
 * @param rotational             true for spinning media
 */
public record HostFacts(
        String hostname,
        String kernel,
        String blockDevice,
        String ioScheduler,
        String model,
        String serial,
        String firmware,
        Long capacityBytes,
        Integer logicalBlockSizeBytes,
        Integer physicalBlockSizeBytes,
        Boolean rotational,
        String cpuModel,
        int cpuCount,
        Long memoryBytes,
        boolean directIo,
        String ioEngine,
        String javaVersion,
        Map<String, String> unavailable) {

    public HostFacts {
        unavailable = Map.copyOf(unavailable);
    }

    public HostDescription toHostDescription() {
        return HostDescription.newBuilder()
                .setHostname(hostname)
                .setKernel(kernel)
                .setIoScheduler(ioScheduler)
                .setDirectIo(directIo)
                .setIoEngine(ioEngine)
                .setCpuModel(cpuModel)
                .setCpuCount(cpuCount)
                .setMemoryBytes(memoryBytes)
                .setJavaVersion(javaVersion)
                .build();
    }

    /**
     * The device description of the run. For a file target the model, capacity and block sizes are those of the
     * disk holding the file (the thing being benchmarked); unknown model is "unknown", unknown capacity falls back
     * to the target size, unknown logical block size to 512.
     */
    public DeviceDescription toDeviceDescription(Path target, boolean targetIsBlockDevice, long targetSizeBytes) {
        return DeviceDescription.newBuilder()
                .setModel(model != null ? model : "unknown")
                .setSerial(serial)
                .setFirmware(firmware)
                .setCapacityBytes(capacityBytes != null ? capacityBytes : targetSizeBytes)
                .setLogicalBlockSizeBytes(logicalBlockSizeBytes != null ? logicalBlockSizeBytes : 512)
                .setPhysicalBlockSizeBytes(physicalBlockSizeBytes)
                .setTargetPath(target.toString())
                .setTargetIsBlockDevice(targetIsBlockDevice)
                .build();
    }
}
