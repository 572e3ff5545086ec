package dev.ssdpulse.schemas;

import dev.ssdpulse.schemas.avro.AccessSpec;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.GroupEvent;
import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.LatencyPercentiles;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.LostWriteCase;
import dev.ssdpulse.schemas.avro.NandGeometry;
import dev.ssdpulse.schemas.avro.OpSummary;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.PhaseSummary;
import dev.ssdpulse.schemas.avro.PowerLossCounters;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.ResultSetRecord;
import dev.ssdpulse.schemas.avro.ResultSetStarted;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateMethod;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.VerifiedUnitClass;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.avro.WriteDurabilityModel;
import dev.ssdpulse.schemas.avro.WriteLogCoverage;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.avro.WriteVerificationClasses;
import dev.ssdpulse.schemas.avro.WriteVerificationLostContent;
import dev.ssdpulse.schemas.avro.WriteVerificationModelResult;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/** One realistic instance of every generated record type, with no field left at its default. */
public final class SampleRecords {
    public static final String RUN_ID = "run-2026-11-30T03-48-sim-4k-rand-7f3a";

    private SampleRecords() {}

    public static NandGeometry geometry() {
        return NandGeometry.newBuilder()
                .setChannels(8)
                .setDiesPerChannel(4)
                .setPlanesPerDie(2)
                .setBlocksPerPlane(1024)
                .setPagesPerBlock(256)
                .setPageSizeBytes(16384)
                .build();
    }

    public static DeviceDescription device() {
        return DeviceDescription.newBuilder()
                .setModel("ssdpulse-sim tlc-512g")
                .setSerial("SIM-000042")
                .setFirmware("sim-1.0")
                .setCapacityBytes(512_110_190_592L)
                .setLogicalBlockSizeBytes(4096)
                .setPhysicalBlockSizeBytes(16384)
                .setRawFlashBytes(549_755_813_888L)
                .setOverProvisioningRatio(0.0735)
                .setParityReserveBytes(4_294_967_296L)
                .setBadBlockReserveBytes(2_147_483_648L)
                .setGeometry(geometry())
                .setTargetPath("/dev/nvme0n1")
                .setTargetIsBlockDevice(true)
                .setPresetJson("{\"preset\":\"tlc-512g\",\"op\":0.0735}")
                .build();
    }

    public static HostDescription host() {
        return HostDescription.newBuilder()
                .setHostname("bench-01")
                .setKernel("Linux 6.1.0-13-amd64")
                .setIoScheduler("none")
                .setDirectIo(true)
                .setIoEngine("sync-workers")
                .setCpuModel("AMD EPYC 7B13")
                .setCpuCount(2)
                .setMemoryBytes(8_589_934_592L)
                .setJavaVersion("17.0.13")
                .build();
    }

    public static AccessSpec accessSpec() {
        return AccessSpec.newBuilder()
                .setTransferSizeBytes(4096)
                .setPercentOfSpec(100)
                .setPercentRead(70)
                .setPercentRandom(100)
                .setAlignmentBytes(4096)
                .build();
    }

    public static PhaseSpec phaseSpec() {
        return PhaseSpec.newBuilder()
                .setIndex(2)
                .setName("test")
                .setKind(PhaseKind.TEST)
                .setAccessSpecs(List.of(
                        accessSpec(),
                        AccessSpec.newBuilder()
                                .setTransferSizeBytes(131072)
                                .setPercentOfSpec(0)
                                .setPercentRead(0)
                                .setPercentRandom(0)
                                .setAlignmentBytes(131072)
                                .build()))
                .setQueueDepth(32)
                .setWorkers(4)
                .setSpanOffsetBytes(1_048_576L)
                .setSpanSizeBytes(256L << 30)
                .setDurationNs(5_000_000_000_000L)
                .setTotalBytes(1L << 40)
                .setRampNs(60_000_000_000L)
                .setRateLimitIops(200_000L)
                .setTrimEnabled(true)
                .build();
    }

    public static WorkloadDescription workload() {
        return WorkloadDescription.newBuilder()
                .setName("snia-pts-iops")
                .setDescription("SNIA PTS IOPS test")
                .setSpecJson("{\"name\":\"snia-pts-iops\"}")
                .setPhases(List.of(phaseSpec()))
                .build();
    }

    public static RunStarted runStarted() {
        return RunStarted.newBuilder()
                .setRunId(RUN_ID)
                .setRunName("4k random 70/30 steady state")
                .setProducerKind(ProducerKind.SIMULATOR)
                .setDevice(device())
                .setHost(host())
                .setWorkload(workload())
                .setSeed(-8_446_744_073_709_551L)
                .setWallClockStart(Instant.parse("2026-11-30T03:48:00.123456Z"))
                .setToolVersion("0.1.0-SNAPSHOT")
                .setOriginRunId("run-origin-1")
                .setLabels(Map.of("campaign", "q4-endurance", "dut", "slot-3"))
                .setSmartIntervalNs(1_000_000_000L)
                .setGroup("rack-3-endurance")
                .setMember("lab-7/nvme0n1")
                .build();
    }

    /** A batch of 7 I/Os with a negative submit delta and an error status. */
    public static IoBatch ioBatch() {
        IoBatchBuilder builder = new IoBatchBuilder(RUN_ID, 3, 7, 41, 20_992);
        IoBatch batch = null;
        for (int i = 0; i < 7; i++) {
            long submit = 1_000_000_000L + i * 12_345L - (i == 4 ? 30_000L : 0);
            batch = builder.add(
                    2,
                    (byte) (i % 4),
                    (long) i * 4096 * 1_000_003L,
                    4096 * (1 + i % 2),
                    submit,
                    80_000L + i * 1_111L,
                    1 + i % 32,
                    i == 5 ? 5 : 0);
        }
        return batch;
    }

    public static PhaseChanged phaseChanged() {
        return PhaseChanged.newBuilder()
                .setRunId(RUN_ID)
                .setPhaseIndex(2)
                .setPhaseName("test")
                .setPhaseKind(PhaseKind.TEST)
                .setTimeNs(3_600_000_000_000L)
                .build();
    }

    public static RunHeartbeat heartbeat() {
        return RunHeartbeat.newBuilder()
                .setRunId(RUN_ID)
                .setTimeNs(42_000_000_000L)
                .setWallClockEpochMs(Instant.ofEpochMilli(1_796_010_522_123L))
                .setIoCompleted(9_876_543L)
                .setIoPublished(9_876_000L)
                .setIoNotPublished(3L)
                .setCompleteUpToNs(41_000_000_000L)
                .setMembership(groupMembership())
                .build();
    }

    public static RunFinished runFinished() {
        return RunFinished.newBuilder()
                .setRunId(RUN_ID)
                .setStatus(RunStatus.ABORTED)
                .setReason("SIGINT")
                .setTimeNs(5_000_123_456_789L)
                .setWallClockEpochMs(Instant.ofEpochMilli(1_796_015_480_999L))
                .setIoCount(1_234_567_890L)
                .setIoCountPerWorker(List.of(308_641_972L, 308_641_973L, 308_641_972L, 308_641_973L))
                .setBatchCountPerWorker(List.of(602_816L, 602_817L, 602_816L, 602_817L))
                .setBytesRead(3_540_000_000_000L)
                .setBytesWritten(1_517_000_000_000L)
                .setBytesTrimmed(1_073_741_824L)
                .setIoNotPublished(17L)
                .build();
    }

    public static SmartSample smartSample() {
        return SmartSample.newBuilder()
                .setRunId(RUN_ID)
                .setTimeNs(60_000_000_000L)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(1_000_000_000_000L)
                .setHostBytesRead(2_000_000_000_000L)
                .setNandBytesWritten(2_900_000_000_000L)
                .setNandBytesWrittenHost(1_000_000_000_000L)
                .setNandBytesWrittenGc(1_800_000_000_000L)
                .setNandBytesWrittenWearLeveling(90_000_000_000L)
                .setNandBytesWrittenMetadata(10_000_000_000L)
                .setEraseCount(123_456L)
                .setFreeBlocks(512L)
                .setGcInvocations(98_765L)
                .setRawAttributes(Map.of("Media_Wearout_Indicator", "97"))
                .build();
    }

    public static LatencyPercentiles percentiles() {
        return LatencyPercentiles.newBuilder()
                .setP50Ns(81_000L)
                .setP90Ns(120_000L)
                .setP99Ns(450_000L)
                .setP999Ns(2_100_000L)
                .setP9999Ns(11_000_000L)
                .setP99999Ns(31_000_000L)
                .setP999999Ns(52_000_000L)
                .build();
    }

    public static LatencyStats latencyStats() {
        return LatencyStats.newBuilder()
                .setCount(1_000_000L)
                .setSumNs(93_000_000_000L)
                .setMinNs(12_000L)
                .setMaxNs(61_000_000L)
                .setPercentiles(percentiles())
                .setBinUpperBoundsNs(List.of(50_000L, 100_000L, 200_000L, 500_000L, 1_000_000L))
                .setBinCounts(List.of(10L, 700_000L, 250_000L, 40_000L, 9_000L, 990L))
                .setHdrHistogram(ByteBuffer.wrap(new byte[] {0x1c, (byte) 0x84, (byte) 0x93, 0x14, 0, 0, 0, 7, -1}))
                .build();
    }

    public static WindowMetrics windowMetrics() {
        return WindowMetrics.newBuilder()
                .setRunId(RUN_ID)
                .setOp(IoOp.WRITE)
                .setPhaseIndex(2)
                .setWindowStartNs(3_601_000_000_000L)
                .setWindowSizeNs(1_000_000_000L)
                .setIoCount(46_912L)
                .setBytes(192_151_552L)
                .setIops(46_912.0)
                .setMbPerSec(192.151552)
                .setLatency(latencyStats())
                .setErrorCount(2L)
                .build();
    }

    public static LatencyScatter latencyScatter() {
        return LatencyScatter.newBuilder()
                .setRunId(RUN_ID)
                .setWindowStartNs(3_601_000_000_000L)
                .setWindowSizeNs(1_000_000_000L)
                .setThresholdNs(10_000_000L)
                .setIoCount(2_412L)
                .setAtOrAboveThresholdCount(1L)
                .setKeptAtOrAboveThresholdCount(1L)
                .setCompletionOffsetsNs(List.of(1_250_000L, 480_000_000L, 999_999_999L))
                .setLatenciesNs(List.of(85_000L, 41_000_000L, 120_000L))
                .setOps(List.of(1, 1, 0))
                .build();
    }

    public static RunLatency runLatency() {
        return RunLatency.newBuilder()
                .setRunId(RUN_ID)
                .setOp(IoOp.READ)
                .setPhaseIndex(-1)
                .setAsOfTimeNs(4_000_000_000_000L)
                .setLatency(latencyStats())
                .setBytes(3_540_000_000_000L)
                .build();
    }

    public static WriteAmplification writeAmplification() {
        return WriteAmplification.newBuilder()
                .setRunId(RUN_ID)
                .setFromTimeNs(59_000_000_000L)
                .setToTimeNs(60_000_000_000L)
                .setSource(SmartSource.NVME_SMART_LOG)
                .setHostBytesWrittenDelta(120_000_000L)
                .setNandBytesWrittenDelta(348_000_000L)
                .setNandBytesWrittenGcDelta(216_000_000L)
                .setNandBytesWrittenWearLevelingDelta(12_000_000L)
                .setWaWindow(2.9)
                .setHostBytesWrittenCumulative(1_000_000_000_000L)
                .setNandBytesWrittenCumulative(2_900_000_000_000L)
                .setWaCumulative(2.9)
                .setFreeBlocks(512L)
                .build();
    }

    public static SteadyStateVerdict steadyStateVerdict() {
        return SteadyStateVerdict.newBuilder()
                .setRunId(RUN_ID)
                .setMethod(SteadyStateMethod.SNIA_PTS)
                .setOp(IoOp.WRITE)
                .setPhaseIndex(2)
                .setReached(true)
                .setFinalVerdict(true)
                .setDecidedAtNs(3_000_000_000_000L)
                .setWindowStartNs(2_700_000_000_000L)
                .setWindowEndNs(3_000_000_000_000L)
                .setRoundsOrSamples(5)
                .setMean(46_500.5)
                .setRange(3_100.25)
                .setSlope(-12.5)
                .setLimit(9_300.1)
                .setCriteria("window=5 range<=20% excursion<=10%")
                .setExplanation("range 3100 <= 9300 (20% of mean 46500); slope excursion 50 <= 4650")
                .build();
    }

    public static OpSummary opSummary() {
        return OpSummary.newBuilder()
                .setOp(IoOp.WRITE)
                .setIoCount(370_000_000L)
                .setBytes(1_517_000_000_000L)
                .setIops(74_000.0)
                .setMbPerSec(303.4)
                .setLatency(latencyStats())
                .setErrorCount(4L)
                .build();
    }

    public static PhaseSummary phaseSummary() {
        return PhaseSummary.newBuilder()
                .setPhaseIndex(2)
                .setName("test")
                .setKind(PhaseKind.TEST)
                .setStartNs(3_600_000_000_000L)
                .setEndNs(8_600_000_000_000L)
                .setOps(List.of(opSummary()))
                .build();
    }

    public static RunSummary runSummary() {
        return RunSummary.newBuilder()
                .setRunId(RUN_ID)
                .setStatus(RunStatus.COMPLETED)
                .setReason("duration reached")
                .setDurationNs(8_600_000_000_000L)
                .setOps(List.of(opSummary()))
                .setPhases(List.of(phaseSummary()))
                .setWriteAmplification(writeAmplification())
                .setSteadyState(List.of(steadyStateVerdict()))
                .setIoCount(1_234_567_890L)
                .setIoCountExpected(1_234_567_907L)
                .setLateIoCount(12L)
                .setDuplicateBatchCount(1L)
                .build();
    }

    public static IoStreamRecord ioStream(Object event) {
        return IoStreamRecord.newBuilder().setEvent(event).build();
    }

    public static ResultSetStarted resultSetStarted() {
        return new ResultSetStarted(
                "sim-20261130-041502-3f9a",
                "w10s",
                Map.of("windowNs", "10000000000"),
                Instant.ofEpochMilli(1_764_475_200_000L));
    }

    public static ResultSetRecord resultSetRecord(Object event) {
        return new ResultSetRecord("w10s", event);
    }

    public static ReplayPhaseResult replayPhaseResult() {
        return ReplayPhaseResult.newBuilder()
                .setPhaseIndex(1)
                .setTrace("app-load.iolog.gz")
                .setRecordedTiming(true)
                .setTimeScale(1.0)
                .setTraceIoCount(4_530)
                .setIssuedIoCount(4_530)
                .setLateIssueCount(12)
                .setLateThresholdNs(1_000_000)
                .setIssueLagP50Ns(90_000)
                .setIssueLagP99Ns(18_000_000)
                .setIssueLagMaxNs(31_000_000)
                .build();
    }

    public static RunDeleted runDeleted() {
        return new RunDeleted("sim-20261130-041502-3f9a", Instant.ofEpochMilli(1_764_475_200_000L), "typo run");
    }

    /** A power-loss verification that found a few units lost. */
    public static WriteVerification writeVerification() {
        return WriteVerification.newBuilder()
                .setRunId(RUN_ID)
                .setVerifiedAt(Instant.ofEpochMilli(1_796_010_480_123L))
                .setTarget("/dev/nvme0n1")
                .setTargetSizeBytes(1_000_204_886_016L)
                .setToolVersion("0.1.0")
                .setRunStatus(null)
                .setForced(false)
                .setCoverage(writeLogCoverage())
                .setUnitsChecked(2_000_000L)
                .setUnitsTrimmed(0L)
                .setClasses(new WriteVerificationClasses(1_999_000L, 600L, 100L, 250L, 50L))
                .setLostContent(new WriteVerificationLostContent(590L, 10L, 0L, 0L))
                .setModels(List.of(
                        new WriteVerificationModelResult(
                                WriteDurabilityModel.ACKNOWLEDGED, 2_000_000L, 950L, 600L, 100L, 250L),
                        new WriteVerificationModelResult(WriteDurabilityModel.FLUSHED, 1_990_000L, 3L, 3L, 0L, 0L),
                        new WriteVerificationModelResult(WriteDurabilityModel.FUA, 0L, 0L, 0L, 0L, 0L)))
                .setLostWrites(800L)
                .setUnserializableWrites(12L)
                .setLostAgeBoundsNs(List.of(100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L))
                .setLostAgeCounts(List.of(10L, 200L, 500L, 87L, 3L, 0L))
                .setWorstCases(List.of(writeCase()))
                .setPowerCounters(new PowerLossCounters(41L, 42L, null, null, "no OCP SMART extended log"))
                .setReadBytes(8_192_000_000L)
                .setReadNs(4_100_000_000L)
                .setStateBytes(33_554_432L)
                .setTickNs(1000L)
                .build();
    }

    public static WriteLogCoverage writeLogCoverage() {
        return new WriteLogCoverage(
                3_000_000L,
                3_000_000L,
                0L,
                0L,
                11_718L,
                3_599_990_000_000L,
                3_600_000_000_000L,
                3_599_999_000_000L,
                0L);
    }

    public static LostWriteCase writeCase() {
        return new LostWriteCase(
                123_456L,
                4L,
                2_999_000L,
                VerifiedUnitClass.REVERTED,
                "write 2998012 (older)",
                3_599_990_500_000L,
                9_500_000L,
                false,
                false);
    }

    public static GroupMembership groupMembership() {
        return GroupMembership.newBuilder()
                .setGroup("rack-3-endurance")
                .setMember("lab-7/nvme0n1")
                .setHost("lab-7")
                .setRunStart(Instant.parse("2026-11-30T03:48:00.123456Z"))
                .build();
    }

    /** A member that stopped early (the analytics timed it out). */
    public static GroupMember groupMember() {
        return GroupMember.newBuilder()
                .setMember("lab-7/nvme0n1")
                .setRunId(RUN_ID)
                .setHost("lab-7")
                .setStatus(RunStatus.INCOMPLETE)
                .setReason("no heartbeat for 60 s")
                .setStartOffsetNs(1_250_000_000L)
                .setEndNs(61_250_000_000L)
                .setIoCount(4_200_000L)
                .setBytes(17_203_200_000L)
                .setIoShare(0.31)
                .setBytesShare(0.29)
                .build();
    }

    public static RunGroup runGroup() {
        return RunGroup.newBuilder()
                .setGroupId("group:rack-3-endurance")
                .setGroup("rack-3-endurance")
                .setStatus(RunStatus.PARTIAL)
                .setReason("lab-7/nvme0n1 INCOMPLETE (no heartbeat for 60 s)")
                .setOrigin(Instant.parse("2026-11-30T03:47:58.873456Z"))
                .setMembers(List.of(groupMember()))
                .build();
    }

    public static GroupEvent groupEvent() {
        return GroupEvent.newBuilder()
                .setMemberRunId(RUN_ID)
                .setMembership(groupMembership())
                .setEvent(ioStream(heartbeat()))
                .build();
    }

    /** Every generated record type, top-level and nested, each once. */
    public static List<SpecificRecord> everyRecordType() {
        return List.of(
                runStarted(),
                device(),
                geometry(),
                host(),
                workload(),
                phaseSpec(),
                accessSpec(),
                ioBatch(),
                phaseChanged(),
                heartbeat(),
                runFinished(),
                ioStream(ioBatch()),
                smartSample(),
                windowMetrics(),
                latencyStats(),
                percentiles(),
                runLatency(),
                latencyScatter(),
                writeAmplification(),
                steadyStateVerdict(),
                runSummary(),
                opSummary(),
                phaseSummary(),
                resultSetStarted(),
                resultSetRecord(windowMetrics()),
                replayPhaseResult(),
                runDeleted(),
                writeVerification(),
                writeLogCoverage(),
                writeCase(),
                writeVerification().getClasses(),
                writeVerification().getLostContent(),
                writeVerification().getModels().get(0),
                writeVerification().getPowerCounters(),
                groupMembership(),
                groupMember(),
                runGroup(),
                groupEvent());
    }
}
