package dev.ssdpulse.streams.avro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.IoOp;
import dev.ssdpulse.schemas.avro.LatencyStats;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.latency.LatencyAccumulator;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.latency.RestoredLatency;
import dev.ssdpulse.streams.steadystate.SteadyStateMethod;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import dev.ssdpulse.streams.summary.RunSummaryAccumulator;
import dev.ssdpulse.streams.summary.RunSummaryData;
import dev.ssdpulse.streams.waf.PhaseWa;
import dev.ssdpulse.streams.waf.SmartCounters;
import dev.ssdpulse.streams.waf.WaBounds;
import dev.ssdpulse.streams.waf.WaInterval;
import dev.ssdpulse.streams.window.PhasePart;
import dev.ssdpulse.streams.window.WindowResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

class AvroMappersTest {

    static LatencyAccumulator latency(int n, long seed) {
        LatencyAccumulator acc = new LatencyAccumulator();
        Random random = new Random(seed);
        for (int i = 0; i < n; i++) {
            acc.record(20_000 + (long) (random.nextDouble() * random.nextDouble() * 60_000_000));
        }
        return acc;
    }

    @SuppressWarnings("unchecked")
    static <T extends SpecificRecord> T roundTrip(T record) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
        new SpecificDatumWriter<T>(record.getSchema()).write(record, encoder);
        encoder.flush();
        SpecificDatumReader<T> reader = new SpecificDatumReader<>(record.getSchema());
        return reader.read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    }

    @Test
    void latencyStatsCarryExactValuesAndRebuildTheAccumulator() throws IOException {
        LatencyAccumulator acc = latency(20_000, 1);
        LatencyStats stats = roundTrip(AvroMappers.latencyStats(acc, true));
        assertThat(stats.getCount()).isEqualTo(acc.count());
        assertThat(stats.getSumNs()).isEqualTo(acc.sumNs());
        assertThat(stats.getMinNs()).isEqualTo(acc.minNs());
        assertThat(stats.getMaxNs()).isEqualTo(acc.maxNs());
        assertThat(stats.getBinUpperBoundsNs()).hasSize(20).startsWith(50_000L);
        assertThat(stats.getBinCounts()).hasSize(21);
        long[] counts = acc.binCounts();
        for (int i = 0; i < counts.length; i++) {
            assertThat(stats.getBinCounts().get(i)).isEqualTo(counts[i]);
        }
        assertThat(stats.getPercentiles().getP50Ns()).isEqualTo(acc.percentileNs(50));
        assertThat(stats.getPercentiles().getP999Ns()).isEqualTo(acc.percentileNs(99.9));
        assertThat(stats.getPercentiles().getP999999Ns()).isEqualTo(acc.percentileNs(99.9999));
        assertThat(RestoredLatency.of(stats)).isEqualTo(acc);
        assertThat(AvroMappers.latencyStats(acc, false).getHdrHistogram().remaining())
                .isZero();
    }

    @Test
    void customBinsSurviveTheMapping() {
        LatencyAccumulator acc = new LatencyAccumulator(LatencyBins.parse("1ms,10ms"));
        acc.record(5);
        acc.record(20_000_000);
        LatencyAccumulator back = RestoredLatency.of(AvroMappers.latencyStats(acc, true));
        assertThat(back).isEqualTo(acc);
        assertThat(back.bins()).isEqualTo(acc.bins());
    }

    @Test
    void windowMetricsMapEveryField() throws IOException {
        LatencyAccumulator acc = latency(500, 2);
        WindowResult w = new WindowResult(
                IoOpCode.WRITE,
                7_000_000_000L,
                1_000_000_000L,
                2,
                500,
                2_048_000,
                3,
                acc,
                List.of(new PhasePart(2, 500, 2_048_000, 3, 6_999_000_000L, 7_900_000_000L, acc)));
        WindowMetrics m = roundTrip(AvroMappers.windowMetrics("run-1", w, true));
        assertThat(m.getRunId()).isEqualTo("run-1");
        assertThat(m.getOp()).isEqualTo(IoOp.WRITE);
        assertThat(m.getPhaseIndex()).isEqualTo(2);
        assertThat(m.getWindowStartNs()).isEqualTo(7_000_000_000L);
        assertThat(m.getWindowSizeNs()).isEqualTo(1_000_000_000L);
        assertThat(m.getIoCount()).isEqualTo(500);
        assertThat(m.getBytes()).isEqualTo(2_048_000);
        assertThat(m.getIops()).isEqualTo(500.0);
        assertThat(m.getMbPerSec()).isEqualTo(2.048);
        assertThat(m.getErrorCount()).isEqualTo(3);
        assertThat(RestoredLatency.of(m.getLatency())).isEqualTo(acc);
    }

    @Test
    void runLatencyWaAndVerdict() throws IOException {
        LatencyAccumulator acc = latency(100, 3);
        RunLatency rl = roundTrip(AvroMappers.runLatency("r", IoOpCode.READ, -1, 99, acc, 409_600));
        assertThat(rl.getPhaseIndex()).isEqualTo(-1);
        assertThat(rl.getAsOfTimeNs()).isEqualTo(99);
        assertThat(rl.getBytes()).isEqualTo(409_600);
        assertThat(rl.getLatency().getCount()).isEqualTo(100);

        WaInterval interval = new WaInterval(
                1,
                2,
                "B",
                10,
                20,
                100,
                250,
                100L,
                150L,
                null,
                null,
                2.5,
                WaBounds.of(100, 10, 250, 20),
                1000,
                2000,
                2.0,
                WaBounds.of(1000, 10, 2000, 20),
                42L);
        WriteAmplification wa = roundTrip(AvroMappers.writeAmplification("r", SmartSource.SIMULATOR, interval));
        assertThat(wa.getFromTimeNs()).isEqualTo(1);
        assertThat(wa.getToTimeNs()).isEqualTo(2);
        assertThat(wa.getHostBytesWrittenDelta()).isEqualTo(100);
        assertThat(wa.getNandBytesWrittenDelta()).isEqualTo(250);
        assertThat(wa.getNandBytesWrittenGcDelta()).isEqualTo(150L);
        assertThat(wa.getNandBytesWrittenWearLevelingDelta()).isNull();
        assertThat(wa.getWaWindow()).isEqualTo(2.5);
        assertThat(wa.getWaCumulative()).isEqualTo(2.0);
        assertThat(wa.getFreeBlocks()).isEqualTo(42L);
        assertThat(wa.getSource()).isEqualTo(SmartSource.SIMULATOR);
        assertThat(wa.getUnit()).isEqualTo("B");
        assertThat(wa.getHostResolution()).isEqualTo(10);
        assertThat(wa.getNandResolution()).isEqualTo(20);
        assertThat(wa.getWaWindowLow()).isEqualTo(230.0 / 110);
        assertThat(wa.getWaWindowHigh()).isEqualTo(270.0 / 90);
        assertThat(wa.getWaWindowResolved()).isFalse();
        assertThat(wa.getWaCumulativeLow()).isEqualTo(1980.0 / 1010);
        assertThat(wa.getWaCumulativeHigh()).isEqualTo(2020.0 / 990);
        assertThat(wa.getWaCumulativeResolved()).isTrue();

        SteadyStateResult result = new SteadyStateResult(
                SteadyStateMethod.FIO_IOPS_SLOPE,
                true,
                true,
                10,
                5,
                10,
                5,
                1000.0,
                20.0,
                -1.5,
                0.01,
                "fio ss=iops_slope:1%",
                "because");
        SteadyStateVerdict v = roundTrip(AvroMappers.steadyStateVerdict("r", IoOpCode.WRITE, 3, result));
        assertThat(v.getMethod()).isEqualTo(dev.ssdpulse.schemas.avro.SteadyStateMethod.FIO_IOPS_SLOPE);
        assertThat(v.getOp()).isEqualTo(IoOp.WRITE);
        assertThat(v.getPhaseIndex()).isEqualTo(3);
        assertThat(v.getReached()).isTrue();
        assertThat(v.getFinalVerdict()).isTrue();
        assertThat(v.getDecidedAtNs()).isEqualTo(10);
        assertThat(v.getWindowStartNs()).isEqualTo(5);
        assertThat(v.getWindowEndNs()).isEqualTo(10);
        assertThat(v.getRoundsOrSamples()).isEqualTo(5);
        assertThat(v.getMean()).isEqualTo(1000.0);
        assertThat(v.getRange()).isEqualTo(20.0);
        assertThat(v.getSlope()).isEqualTo(-1.5);
        assertThat(v.getLimit()).isEqualTo(0.01);
        assertThat(v.getCriteria()).isEqualTo("fio ss=iops_slope:1%");
        assertThat(v.getExplanation()).isEqualTo("because");
        for (SteadyStateMethod m : SteadyStateMethod.values()) {
            assertThat(dev.ssdpulse.schemas.avro.SteadyStateMethod.valueOf(m.name()))
                    .isNotNull();
        }
    }

    @Test
    void aReplayPhaseHasItsLoadTimeAndIssueResultOtherPhasesNeither() throws IOException {
        RunSummaryAccumulator acc = new RunSummaryAccumulator();
        // phase 0: a test; phase 1: a replay whose I/Os span 1.0 ms submit .. 9.0 ms completion
        acc.add(IoOpCode.READ, 0, 500_000, 4096, 100_000, 0);
        acc.add(IoOpCode.READ, 1, 1_100_000, 4096, 100_000, 0);
        acc.add(IoOpCode.WRITE, 1, 9_000_000, 8192, 3_000_000, 0);
        ReplayPhaseResult issued = ReplayPhaseResult.newBuilder()
                .setPhaseIndex(1)
                .setTrace("boot.iolog")
                .setRecordedTiming(true)
                .setTimeScale(2.0)
                .setTraceIoCount(2)
                .setIssuedIoCount(2)
                .setLateIssueCount(1)
                .setLateThresholdNs(1_000_000)
                .setIssueLagP50Ns(10)
                .setIssueLagP99Ns(2_000_000)
                .setIssueLagMaxNs(2_000_000)
                .build();
        RunSummary summary = roundTrip(AvroMappers.runSummary(
                "r",
                RunStatus.COMPLETED,
                null,
                acc.summarize(10_000_000L),
                i -> i == 0 ? new PhaseLabel("t", PhaseKind.TEST) : new PhaseLabel("boot", PhaseKind.REPLAY),
                null,
                List.of(),
                3,
                0,
                0,
                Map.of(),
                0,
                Map.of(1, issued)));
        assertThat(summary.getPhases().get(0).getLoadTimeNs()).isNull();
        assertThat(summary.getPhases().get(0).getReplay()).isNull();
        assertThat(summary.getPhases().get(1).getLoadTimeNs()).isEqualTo(9_000_000 - 1_000_000);
        assertThat(summary.getPhases().get(1).getReplay()).isEqualTo(issued);
    }

    @Test
    void runSummaryMapsOpsPhasesAndCounters() throws IOException {
        RunSummaryAccumulator acc = new RunSummaryAccumulator();
        acc.add(IoOpCode.READ, 0, 1_000_000, 4096, 100_000, 0);
        acc.add(IoOpCode.WRITE, 1, 2_000_000, 8192, 200_000, 1);
        RunSummaryData data = acc.summarize(2_000_000L);
        RunSummary summary = roundTrip(AvroMappers.runSummary(
                "r",
                RunStatus.COMPLETED,
                null,
                data,
                i -> i == 0 ? new PhaseLabel("precondition", PhaseKind.PRECONDITION_INDEPENDENT) : null,
                null,
                List.of(),
                2,
                1,
                0,
                Map.of(1, new PhaseWa(3.5, WaBounds.of(1000, 32, 3500, 64))),
                7,
                Map.of()));
        assertThat(summary.getDurationNs()).isEqualTo(2_000_000);
        assertThat(summary.getIoNotPublished()).isEqualTo(7);
        assertThat(summary.getPhases().get(0).getWriteAmplification()).isNull();
        assertThat(summary.getPhases().get(1).getWriteAmplification()).isEqualTo(3.5);
        assertThat(summary.getPhases().get(1).getWriteAmplificationLow()).isEqualTo(3436.0 / 1032);
        assertThat(summary.getPhases().get(1).getWriteAmplificationHigh()).isEqualTo(3564.0 / 968);
        assertThat(summary.getPhases().get(1).getWriteAmplificationResolved()).isFalse();
        assertThat(summary.getPhases().get(0).getWriteAmplificationLow()).isNull();
        assertThat(summary.getIoCount()).isEqualTo(2);
        assertThat(summary.getIoCountExpected()).isEqualTo(2);
        assertThat(summary.getLateIoCount()).isEqualTo(1);
        assertThat(summary.getOps()).extracting(o -> o.getOp()).containsExactly(IoOp.READ, IoOp.WRITE);
        assertThat(summary.getOps().get(1).getErrorCount()).isEqualTo(1);
        assertThat(summary.getOps().get(0).getIops()).isEqualTo(500.0);
        assertThat(summary.getPhases()).hasSize(2);
        assertThat(summary.getPhases().get(0).getName()).isEqualTo("precondition");
        assertThat(summary.getPhases().get(0).getKind()).isEqualTo(PhaseKind.PRECONDITION_INDEPENDENT);
        assertThat(summary.getPhases().get(1).getName()).isEqualTo("phase-1");
        assertThat(summary.getPhases().get(1).getKind()).isEqualTo(PhaseKind.OTHER);
        assertThat(summary.getPhases().get(1).getStartNs()).isEqualTo(1_800_000);
        assertThat(summary.getPhases().get(1).getEndNs()).isEqualTo(2_000_000);
        assertThat(RestoredLatency.of(summary.getOps().get(1).getLatency()))
                .isEqualTo(acc.runTotals(IoOpCode.WRITE).latency());
    }

    @Test
    void smartSampleBecomesCounters() {
        SmartSample sample = SmartSample.newBuilder()
                .setRunId("r")
                .setTimeNs(5)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWritten(10L)
                .setHostBytesRead(null)
                .setNandBytesWritten(30L)
                .setNandBytesWrittenHost(10L)
                .setNandBytesWrittenGc(20L)
                .setNandBytesWrittenWearLeveling(null)
                .setNandBytesWrittenMetadata(0L)
                .setEraseCount(null)
                .setFreeBlocks(7L)
                .setGcInvocations(null)
                .setRawAttributes(Map.of())
                .build();
        assertThat(AvroMappers.smartCounters(sample))
                .isEqualTo(SmartCounters.exactBytes(5, 10L, 30L, 10L, 20L, null, 0L, 7L));
    }

    @Test
    void aDrivesWaCountersWinOverItsByteFieldsAndANoteMeansNoWa() {
        SmartSample.Builder drive = SmartSample.newBuilder()
                .setRunId("r")
                .setTimeNs(9)
                .setSource(SmartSource.SMARTCTL)
                .setHostBytesWritten(246L * 512)
                .setNandBytesWritten(null)
                .setFreeBlocks(null)
                .setRawAttributes(Map.of());
        SmartSample pages = SmartSample.newBuilder(drive.build())
                .setWaUnit("NAND page")
                .setWaHostWrites(1000L)
                .setWaHostResolution(1L)
                .setWaNandWrites(1500L)
                .setWaNandResolution(2L)
                .build();
        assertThat(AvroMappers.smartCounters(pages))
                .isEqualTo(new SmartCounters(9, "NAND page", 1000L, 1, 1500L, 2, null, null, null, null, null));
        SmartSample refused = SmartSample.newBuilder(drive.build())
                .setNandBytesWritten(5000L)
                .setWaNote("unit unknown")
                .build();
        assertThat(AvroMappers.smartCounters(refused).hostBytesWritten())
                .as("a sample that says why it has no WA gives none, whatever its byte fields hold")
                .isNull();
    }
}
