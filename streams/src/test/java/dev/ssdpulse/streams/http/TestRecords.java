package dev.ssdpulse.streams.http;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyPercentiles;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.streams.latency.LatencyBins;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hand-built Avro records for the HTTP tests (a broker-free stand-in for the topology's outputs). */
public final class TestRecords {
    static final long S = 1_000_000_000L;

    private TestRecords() {}

    public static RunStarted runStarted(String runId, String name, long capacityBytes, long wallClockStartEpochNs) {
        DeviceDescription device = DeviceDescription.newBuilder()
                .setModel("OCZ Vertex 4 (simulated)")
                .setSerial("T-1")
                .setFirmware("1")
                .setCapacityBytes(capacityBytes)
                .setLogicalBlockSizeBytes(4096)
                .setPhysicalBlockSizeBytes(4096)
                .setRawFlashBytes(null)
                .setOverProvisioningRatio(0.07)
                .setParityReserveBytes(null)
                .setBadBlockReserveBytes(null)
                .setGeometry(null)
                .setTargetPath("sim")
                .setTargetIsBlockDevice(false)
                .setPresetJson(null)
                .build();
        HostDescription host = HostDescription.newBuilder()
                .setHostname("bench")
                .setKernel("6.1")
                .setIoScheduler("mq-deadline")
                .setDirectIo(true)
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
        List<PhaseSpec> phases = new ArrayList<>();
        phases.add(phase(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, spec));
        phases.add(phase(1, "test", PhaseKind.TEST, spec));
        WorkloadDescription workload = WorkloadDescription.newBuilder()
                .setName("4k-random-70-30")
                .setDescription("4 KiB random, 70 % reads")
                .setSpecJson("{}")
                .setPhases(phases)
                .build();
        return RunStarted.newBuilder()
                .setRunId(runId)
                .setRunName(name)
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(device)
                .setHost(host)
                .setWorkload(workload)
                .setSeed(7L)
                .setWallClockStartEpochNs(wallClockStartEpochNs)
                .setToolVersion("test")
                .setOriginRunId(null)
                .setLabels(Map.of("scheduler", "mq-deadline"))
                .setSmartIntervalNs(null)
                .build();
    }

    private static PhaseSpec phase(int index, String name, PhaseKind kind, AccessSpec spec) {
        return PhaseSpec.newBuilder()
                .setIndex(index)
                .setName(name)
                .setKind(kind)
                .setAccessSpecs(List.of(spec))
                .setQueueDepth(4)
                .setWorkers(1)
                .setSpanOffsetBytes(0L)
                .setSpanSizeBytes(1L << 30)
                .setDurationNs(10 * S)
                .setTotalBytes(null)
                .setRampNs(0L)
                .setRateLimitIops(null)
                .setTrimEnabled(false)
                .build();
    }

    /** Latency stats with the IOMeter bins; binCounts as given (padded with zeros). */
    static LatencyStats latency(long count, long meanNs, long p50Ns, long p99Ns, long maxNs, long... binCounts) {
        long[] bounds = LatencyBins.iometer().upperBoundsNs();
        List<Long> b = new ArrayList<>();
        for (long x : bounds) {
            b.add(x);
        }
        List<Long> c = new ArrayList<>();
        for (int i = 0; i <= bounds.length; i++) {
            c.add(i < binCounts.length ? binCounts[i] : 0L);
        }
        LatencyPercentiles p = LatencyPercentiles.newBuilder()
                .setP50Ns(p50Ns)
                .setP90Ns(p99Ns)
                .setP99Ns(p99Ns)
                .setP999Ns(maxNs)
                .setP9999Ns(maxNs)
                .setP99999Ns(maxNs)
                .setP999999Ns(maxNs)
                .build();
        return LatencyStats.newBuilder()
                .setCount(count)
                .setSumNs(count * meanNs)
                .setMinNs(p50Ns / 2)
                .setMaxNs(maxNs)
                .setPercentiles(p)
                .setBinUpperBoundsNs(b)
                .setBinCounts(c)
                .setHdrHistogram(ByteBuffer.allocate(0))
                .build();
    }

    static WindowMetrics window(String runId, IoOp op, int phase, long startNs, long ioCount, long maxNs) {
        long[] bins = new long[21];
        bins[5] = ioCount - 1; // 1..2 ms
        bins[maxNs > 50_000_000L ? 12 : 5] += 1; // (50, 100] ms or 1..2 ms
        return WindowMetrics.newBuilder()
                .setRunId(runId)
                .setOp(op)
                .setPhaseIndex(phase)
                .setWindowStartNs(startNs)
                .setWindowSizeNs(S)
                .setIoCount(ioCount)
                .setBytes(ioCount * 4096)
                .setIops(ioCount)
                .setMbPerSec(ioCount * 4096 / 1e6)
                .setLatency(latency(ioCount, 1_500_000, 1_200_000, 1_900_000, maxNs, bins))
                .setErrorCount(0)
                .build();
    }

    static WriteAmplification wa(String runId, long fromNs, long toNs, double cumulative) {
        return WriteAmplification.newBuilder()
                .setRunId(runId)
                .setFromTimeNs(fromNs)
                .setToTimeNs(toNs)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWrittenDelta(1000)
                .setNandBytesWrittenDelta(2500)
                .setNandBytesWrittenGcDelta(null)
                .setNandBytesWrittenWearLevelingDelta(null)
                .setWaWindow(2.5)
                .setHostBytesWrittenCumulative(1000)
                .setNandBytesWrittenCumulative(2500)
                .setWaCumulative(cumulative)
                .setFreeBlocks(null)
                // the simulator's counters are exact: the bounds are the ratios themselves
                .setUnit("B")
                .setHostResolution(0)
                .setNandResolution(0)
                .setWaWindowLow(2.5)
                .setWaWindowHigh(2.5)
                .setWaWindowResolved(true)
                .setWaCumulativeLow(cumulative)
                .setWaCumulativeHigh(cumulative)
                .setWaCumulativeResolved(true)
                .build();
    }

    static RunSummary summary(String runId, long ioCount) {
        OpSummary op = OpSummary.newBuilder()
                .setOp(IoOp.READ)
                .setIoCount(ioCount)
                .setBytes(ioCount * 4096)
                .setIops(ioCount / 10.0)
                .setMbPerSec(ioCount * 4096 / 10e6)
                .setLatency(latency(
                        ioCount,
                        1_500_000,
                        1_200_000,
                        1_900_000,
                        60_000_000L,
                        0,
                        0,
                        0,
                        0,
                        0,
                        ioCount - 3,
                        0,
                        0,
                        0,
                        0,
                        0,
                        1,
                        1,
                        1))
                .setErrorCount(0)
                .build();
        return RunSummary.newBuilder()
                .setRunId(runId)
                .setStatus(RunStatus.COMPLETED)
                .setReason(null)
                .setDurationNs(10 * S)
                .setOps(List.of(op))
                .setPhases(List.of())
                .setWriteAmplification(wa(runId, 0, 10 * S, 2.5))
                .setSteadyState(List.of())
                .setIoCount(ioCount)
                .setIoCountExpected(ioCount)
                .setLateIoCount(0)
                .setDuplicateBatchCount(0)
                .build();
    }
}
