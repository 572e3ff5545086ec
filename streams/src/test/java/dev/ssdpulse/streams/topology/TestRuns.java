package dev.ssdpulse.streams.topology;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import java.util.List;
import java.util.Map;

/** A minimal but complete RunStarted for broker tests. */
final class TestRuns {
    private TestRuns() {}

    static RunStarted runStarted(String runId) {
        DeviceDescription device = DeviceDescription.newBuilder()
                .setModel("test-device")
                .setSerial("T-1")
                .setFirmware("1")
                .setCapacityBytes(1L << 30)
                .setLogicalBlockSizeBytes(4096)
                .setPhysicalBlockSizeBytes(4096)
                .setRawFlashBytes(null)
                .setOverProvisioningRatio(null)
                .setParityReserveBytes(null)
                .setBadBlockReserveBytes(null)
                .setGeometry(null)
                .setTargetPath("sim")
                .setTargetIsBlockDevice(false)
                .setPresetJson(null)
                .build();
        HostDescription host = HostDescription.newBuilder()
                .setHostname("test")
                .setKernel("k")
                .setIoScheduler("none")
                .setDirectIo(false)
                .setIoEngine("sim")
                .setCpuModel("cpu")
                .setCpuCount(2)
                .setMemoryBytes(1L << 30)
                .setJavaVersion("17")
                .build();
        AccessSpec spec = AccessSpec.newBuilder()
                .setTransferSizeBytes(4096)
                .setPercentOfSpec(100)
                .setPercentRead(70)
                .setPercentRandom(100)
                .setAlignmentBytes(4096)
                .build();
        PhaseSpec phase = PhaseSpec.newBuilder()
                .setIndex(0)
                .setName("test")
                .setKind(PhaseKind.TEST)
                .setAccessSpecs(List.of(spec))
                .setQueueDepth(1)
                .setWorkers(1)
                .setSpanOffsetBytes(0L)
                .setSpanSizeBytes(1L << 30)
                .setDurationNs(1_000_000_000L)
                .setTotalBytes(null)
                .setRampNs(0L)
                .setRateLimitIops(null)
                .setTrimEnabled(false)
                .build();
        WorkloadDescription workload = WorkloadDescription.newBuilder()
                .setName("test")
                .setDescription("test")
                .setSpecJson("{}")
                .setPhases(List.of(phase))
                .build();
        return RunStarted.newBuilder()
                .setRunId(runId)
                .setRunName("test run")
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(device)
                .setHost(host)
                .setWorkload(workload)
                .setSeed(1L)
                .setWallClockStartEpochNs(0L)
                .setToolVersion("test")
                .setOriginRunId(null)
                .setLabels(Map.of())
                .setSmartIntervalNs(null)
                .build();
    }
}
