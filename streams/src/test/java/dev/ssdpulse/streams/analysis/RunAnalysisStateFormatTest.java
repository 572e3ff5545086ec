package dev.ssdpulse.streams.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ReplayPhaseResult;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.streams.codec.BinaryWriter;
import dev.ssdpulse.streams.latency.LatencyScatterSampler;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The run state with the REPLAY phases' results (format 4), and the formats before it, still read: with the latency
 * scatter (3) and before it (2).
 */
class RunAnalysisStateFormatTest {
    private static final long S = 1_000_000_000L;
    private static final AnalysisSettings SETTINGS = AnalysisSettings.defaults();

    private static void ios(RunAnalysis a, int fromSecond, int toSecond) {
        SplittableRandom random = new SplittableRandom(fromSecond);
        for (long t = fromSecond * S; t < toSecond * S; t += S / 1500) {
            a.io(
                    random.nextInt(2),
                    0,
                    t,
                    4096,
                    random.nextInt(50) == 0 ? 30_000_000 : 100_000 + random.nextInt(900_000),
                    0);
        }
    }

    @Test
    void aRestoredStateGivesTheSameScatterAsAnUninterruptedRun() {
        CollectingOutput whole = new CollectingOutput();
        RunAnalysis a = new RunAnalysis("run-f", SETTINGS, whole);
        a.phaseChanged(0, "test", PhaseKind.TEST, 0);
        ios(a, 0, 4);
        ios(a, 4, 8);
        a.finish(RunStatus.COMPLETED, null, 8 * S, -1, 0);

        CollectingOutput resumed = new CollectingOutput();
        RunAnalysis b = new RunAnalysis("run-f", SETTINGS, resumed);
        b.phaseChanged(0, "test", PhaseKind.TEST, 0);
        ios(b, 0, 4);
        byte[] state = b.encode();
        assertThat(state[0]).as("format").isEqualTo((byte) 4);
        RunAnalysis c = RunAnalysis.decode("run-f", state, SETTINGS, resumed);
        ios(c, 4, 8);
        c.finish(RunStatus.COMPLETED, null, 8 * S, -1, 0);
        assertThat(resumed.scatters).hasSize(8).isEqualTo(whole.scatters);
        assertThat(resumed.windows).isEqualTo(whole.windows);
    }

    @Test
    void aFormatTwoStateIsReadAndItsRunGetsAScatterFromThenOn() {
        CollectingOutput out = new CollectingOutput();
        RunAnalysis a = new RunAnalysis("run-old", SETTINGS, out);
        a.phaseChanged(0, "test", PhaseKind.TEST, 0);
        // a state written before the scatter: this code's state before any I/O, without the replay results' count
        // (0, one byte) and the scatter's (empty) block at its end and with format byte 2, is exactly what that
        // version wrote
        byte[] v4 = a.encode();
        byte[] v3 = Arrays.copyOf(v4, v4.length - 1);
        BinaryWriter emptyScatter = new BinaryWriter(64);
        new LatencyScatterSampler(
                        "run-old",
                        S,
                        LatencyScatterSampler.DEFAULT_THRESHOLD_NS,
                        LatencyScatterSampler.DEFAULT_SAMPLES_PER_WINDOW)
                .encodeInto(emptyScatter);
        byte[] v2 = Arrays.copyOf(v3, v3.length - emptyScatter.toByteArray().length);
        v2[0] = 2;
        RunAnalysis restored = RunAnalysis.decode("run-old", v2, SETTINGS, out);
        ios(restored, 0, 3);
        restored.finish(RunStatus.COMPLETED, null, 3 * S, -1, 0);
        List<LatencyScatter> scatters = out.scatters;
        assertThat(scatters)
                .hasSize(3)
                .allSatisfy(s -> assertThat(s.getIoCount()).isBetween(1500L, 1501L));
        assertThat(scatters.stream().mapToLong(LatencyScatter::getIoCount).sum())
                .isEqualTo(out.lastSummary().getIoCount());

        byte[] v1 = v3.clone();
        v1[0] = 1;
        assertThatThrownBy(() -> RunAnalysis.decode("run-old", v1, SETTINGS, out))
                .hasMessageContaining("format 1");
    }

    @Test
    void theReplayResultsSurviveTheStateAndAFormatThreeStateHasNone() {
        ReplayPhaseResult result = ReplayPhaseResult.newBuilder()
                .setPhaseIndex(0)
                .setTrace("classpath:workloads/traces/boot.iolog.gz")
                .setRecordedTiming(true)
                .setTimeScale(1.0)
                .setTraceIoCount(9_701)
                .setIssuedIoCount(9_701)
                .setLateIssueCount(12)
                .setLateThresholdNs(1_000_000)
                .setIssueLagP50Ns(40_000)
                .setIssueLagP99Ns(900_000)
                .setIssueLagMaxNs(3_000_000)
                .build();
        CollectingOutput out = new CollectingOutput();
        RunAnalysis a = new RunAnalysis("run-r", SETTINGS, out);
        a.phaseChanged(0, "boot", PhaseKind.REPLAY, 0);
        byte[] v3 = Arrays.copyOf(a.encode(), a.encode().length - 1);
        v3[0] = 3;
        ios(a, 0, 2);
        a.replayFinished(result);
        RunAnalysis restored = RunAnalysis.decode("run-r", a.encode(), SETTINGS, out);
        restored.finish(RunStatus.COMPLETED, null, 2 * S, -1, 0);
        assertThat(out.lastSummary().getPhases().get(0).getReplay()).isEqualTo(result);
        assertThat(out.lastSummary().getPhases().get(0).getLoadTimeNs()).isPositive();

        CollectingOutput old = new CollectingOutput();
        RunAnalysis fromV3 = RunAnalysis.decode("run-r", v3, SETTINGS, old);
        ios(fromV3, 0, 2);
        fromV3.finish(RunStatus.COMPLETED, null, 2 * S, -1, 0);
        assertThat(old.lastSummary().getPhases().get(0).getReplay()).isNull();
        assertThat(old.lastSummary().getPhases().get(0).getLoadTimeNs())
                .isEqualTo(out.lastSummary().getPhases().get(0).getLoadTimeNs());
    }
}
