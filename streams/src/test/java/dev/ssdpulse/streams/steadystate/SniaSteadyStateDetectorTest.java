package dev.ssdpulse.streams.steadystate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed series. For a 5-round window with x = 0..4: mean = sum / 5, slope = sum((x - 2) y) / 10,
 * excursion = |slope| x 4.
 */
class SniaSteadyStateDetectorTest {
    static final long ROUND = 60_000_000_000L;

    static SniaSteadyStateDetector detector() {
        return new SniaSteadyStateDetector(0, TrackedVariable.IOPS);
    }

    /** Feeds round values; returns the evaluation of every round (empty before round 5). */
    static List<Optional<SteadyStateResult>> feed(SniaSteadyStateDetector d, double... values) {
        List<Optional<SteadyStateResult>> results = new ArrayList<>();
        for (double v : values) {
            results.add(d.acceptRound(v));
        }
        return results;
    }

    @Test
    void flatWithNoiseReachesSteadyStateAtRoundFive() {
        // mean 1000, range 20 (2 %), slope sum((x-2)y)/10 = (-2000 - 1010 + 1005 + 1990) / 10 = -1.5, excursion 6 (0.6
        // %)
        SniaSteadyStateDetector d = detector();
        List<Optional<SteadyStateResult>> r = feed(d, 1000, 1010, 990, 1005, 995);
        assertThat(r.subList(0, 4)).allMatch(Optional::isEmpty);
        SteadyStateResult result = r.get(4).orElseThrow();
        assertThat(result.reached()).isTrue();
        assertThat(result.finalVerdict()).isTrue();
        assertThat(result.roundsOrSamples()).isEqualTo(5);
        assertThat(result.mean()).isCloseTo(1000.0, within(1e-9));
        assertThat(result.range()).isCloseTo(20.0, within(1e-9));
        assertThat(result.slope()).isCloseTo(-1.5, within(1e-9));
        assertThat(result.windowStartNs()).isZero();
        assertThat(result.windowEndNs()).isEqualTo(5 * ROUND);
        assertThat(result.decidedAtNs()).isEqualTo(5 * ROUND);
        assertThat(result.explanation()).contains("rounds 1-5").contains("steady state reached in round 5");
        assertThat(result.criteria()).isEqualTo("snia iops round=60s window=5 range<=20% excursion<=10% maxRounds=25");
        assertThat(d.acceptRound(5000)).isEmpty();
    }

    @Test
    void risingSeriesNeverReachesAndIsFinalAtRound25() {
        // y = 1000 + 100 (r - 1): range 400 always; at round 25 mean 3200 -> range 12.5 % ok, excursion 400 = 12.5 % >
        // 10 %
        SniaSteadyStateDetector d = detector();
        double[] values = new double[25];
        for (int r = 1; r <= 25; r++) {
            values[r - 1] = 1000 + 100 * (r - 1);
        }
        List<Optional<SteadyStateResult>> results = feed(d, values);
        for (int r = 5; r < 25; r++) {
            SteadyStateResult res = results.get(r - 1).orElseThrow();
            assertThat(res.reached()).as("round %d", r).isFalse();
            assertThat(res.finalVerdict()).as("round %d", r).isFalse();
        }
        SteadyStateResult last = results.get(24).orElseThrow();
        assertThat(last.reached()).isFalse();
        assertThat(last.finalVerdict()).isTrue();
        assertThat(last.slope()).isCloseTo(100.0, within(1e-9));
        assertThat(last.mean()).isCloseTo(3200.0, within(1e-9));
        assertThat(last.explanation()).contains("not reached within 25 rounds");
        assertThat(d.isDecided()).isTrue();
    }

    @Test
    void fallingSeriesNeverReaches() {
        SniaSteadyStateDetector d = detector();
        double[] values = new double[25];
        for (int r = 1; r <= 25; r++) {
            values[r - 1] = 3000 - 100 * (r - 1);
        }
        List<Optional<SteadyStateResult>> results = feed(d, values);
        assertThat(results.subList(4, 25)).allMatch(o -> !o.orElseThrow().reached());
        SteadyStateResult last = results.get(24).orElseThrow();
        assertThat(last.finalVerdict()).isTrue();
        assertThat(last.slope()).isCloseTo(-100.0, within(1e-9));
    }

    @Test
    void stepIsSteadyOnceFiveRoundsFollowIt() {
        // 2000 for rounds 1-3, then 1000: rounds 4-8 is the first window entirely after the step
        SniaSteadyStateDetector d = detector();
        List<Optional<SteadyStateResult>> results = feed(d, 2000, 2000, 2000, 1000, 1000, 1000, 1000, 1000);
        assertThat(results.get(4).orElseThrow().reached()).isFalse(); // rounds 1-5: range 1000 / mean 1600
        assertThat(results.get(5).orElseThrow().reached()).isFalse();
        assertThat(results.get(6).orElseThrow().reached()).isFalse(); // rounds 3-7: range 1000 / mean 1200
        SteadyStateResult reached = results.get(7).orElseThrow();
        assertThat(reached.reached()).isTrue();
        assertThat(reached.roundsOrSamples()).isEqualTo(8);
        assertThat(reached.windowStartNs()).isEqualTo(3 * ROUND);
        assertThat(reached.windowEndNs()).isEqualTo(8 * ROUND);
    }

    @Test
    void rangeExactlyTwentyPercentIsSteadyJustAboveIsNot() {
        // 90,110,100,100,100: mean 100, range 20 = 20 %; slope (-2*90 - 110 + 100 + 200)/10 = 1, excursion 4 %
        SteadyStateResult atLimit =
                feed(detector(), 90, 110, 100, 100, 100).get(4).orElseThrow();
        assertThat(atLimit.reached()).isTrue();
        assertThat(atLimit.range()).isCloseTo(20.0, within(1e-9));
        // 899,1100,1000,1000,1000: mean 999.8, range 201 = 20.1 %
        SteadyStateResult above =
                feed(detector(), 899, 1100, 1000, 1000, 1000).get(4).orElseThrow();
        assertThat(above.reached()).isFalse();
        assertThat(above.explanation()).contains("range").contains("exceeded");
    }

    @Test
    void excursionExactlyTenPercentIsSteadyJustAboveIsNot() {
        // 190..210 step 5: mean 200, slope 5, excursion 20 = 10 %, range 20 = 10 %
        SteadyStateResult atLimit =
                feed(detector(), 190, 195, 200, 205, 210).get(4).orElseThrow();
        assertThat(atLimit.reached()).isTrue();
        assertThat(atLimit.slope()).isCloseTo(5.0, within(1e-9));
        // 189,195,200,205,211: slope (-378 - 195 + 205 + 422)/10 = 5.4, excursion 21.6 = 10.8 %; range 22 = 11 %
        SteadyStateResult above =
                feed(detector(), 189, 195, 200, 205, 211).get(4).orElseThrow();
        assertThat(above.reached()).isFalse();
        assertThat(above.slope()).isCloseTo(5.4, within(1e-9));
        assertThat(above.explanation()).contains("excursion").contains("exceeded");
    }

    @Test
    void windowsFeedRoundsAndEmptyRoundsCountAsZero() {
        // 10-s rounds of 1-s windows: 100 I/Os per second -> 100 IOPS per round, except round 3 has no I/O
        SniaSteadyStateDetector d =
                new SniaSteadyStateDetector(0, 10_000_000_000L, TrackedVariable.IOPS, 5, 20, 10, 25);
        List<SteadyStateResult> results = new ArrayList<>();
        for (int second = 0; second < 100; second++) {
            if (second / 10 == 2) {
                continue;
            }
            results.addAll(d.acceptWindow(second * 1_000_000_000L, 1_000_000_000L, 100, 409_600));
        }
        d.finish(100_000_000_000L).ifPresent(results::add);
        // rounds 1-5 include round 3 = 0: not steady; rounds 4-8 are all 100 IOPS: steady at round 8
        assertThat(results.get(0).reached()).isFalse();
        assertThat(results.get(0).mean()).isCloseTo(80.0, within(1e-9));
        SteadyStateResult reached =
                results.stream().filter(SteadyStateResult::reached).findFirst().orElseThrow();
        assertThat(reached.roundsOrSamples()).isEqualTo(8);
        assertThat(reached.mean()).isCloseTo(100.0, within(1e-9));
        assertThat(reached.decidedAtNs()).isEqualTo(80_000_000_000L);
        assertThat(d.acceptWindow(120_000_000_000L, 1_000_000_000L, 1, 1)).isEmpty(); // decided: ignored
    }

    @Test
    void bandwidthIsTrackedWhenAsked() {
        SniaSteadyStateDetector d =
                new SniaSteadyStateDetector(0, 1_000_000_000L, TrackedVariable.BYTES_PER_SEC, 5, 20, 10, 25);
        List<SteadyStateResult> results = new ArrayList<>();
        long[] bytes = {1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1};
        for (int i = 0; i < bytes.length; i++) {
            results.addAll(d.acceptWindow(i * 1_000_000_000L, 1_000_000_000L, 1 + i * 1000, bytes[i]));
        }
        assertThat(results).hasSize(1);
        assertThat(results.get(0).reached()).isTrue(); // IOPS would be rising steeply, bytes/s are flat
        assertThat(results.get(0).mean()).isCloseTo(1_000_000.0, within(1e-6));
    }

    @Test
    void finishWithoutEnoughRoundsIsFinalNotReached() {
        SniaSteadyStateDetector d = detector();
        feed(d, 1000, 1000, 1000);
        SteadyStateResult result = d.finish(3 * ROUND + 5).orElseThrow();
        assertThat(result.reached()).isFalse();
        assertThat(result.finalVerdict()).isTrue();
        assertThat(result.roundsOrSamples()).isEqualTo(3);
        assertThat(result.explanation()).contains("fewer than 5 rounds");
        assertThat(d.finish(10 * ROUND)).isEmpty();
    }

    @Test
    void rejectsWindowsStraddlingRoundsAndBadConfig() {
        SniaSteadyStateDetector d = new SniaSteadyStateDetector(0, 1_500_000_000L, TrackedVariable.IOPS, 5, 20, 10, 25);
        d.acceptWindow(0, 1_000_000_000L, 1, 1);
        assertThatThrownBy(() -> d.acceptWindow(1_000_000_000L, 1_000_000_000L, 1, 1))
                .hasMessageContaining("straddles");
        assertThatThrownBy(() -> new SniaSteadyStateDetector(0, ROUND, TrackedVariable.IOPS, 5, 20, 10, 4))
                .hasMessageContaining("maxRounds");
    }

    @Test
    void stateRoundTripContinuesIdentically() {
        SniaSteadyStateDetector live =
                new SniaSteadyStateDetector(0, 10_000_000_000L, TrackedVariable.IOPS, 5, 20, 10, 25);
        long[] counts = {500, 900, 1000, 1020, 980, 1000, 990, 1010, 1000, 1000};
        for (int s = 0; s < 45; s++) {
            live.acceptWindow(s * 1_000_000_000L, 1_000_000_000L, counts[s / 10] / 10, 0);
        }
        byte[] state = live.encodeState();
        SniaSteadyStateDetector restored = SniaSteadyStateDetector.decodeState(state);
        assertThat(restored.encodeState()).isEqualTo(state);
        List<SteadyStateResult> a = new ArrayList<>();
        List<SteadyStateResult> b = new ArrayList<>();
        for (int s = 45; s < 100; s++) {
            a.addAll(live.acceptWindow(s * 1_000_000_000L, 1_000_000_000L, counts[s / 10] / 10, 0));
            b.addAll(restored.acceptWindow(s * 1_000_000_000L, 1_000_000_000L, counts[s / 10] / 10, 0));
        }
        assertThat(b).isNotEmpty().isEqualTo(a);
        assertThat(restored.encodeState()).isEqualTo(live.encodeState());
        assertThatThrownBy(() -> SniaSteadyStateDetector.decodeState(new byte[] {9}))
                .hasMessageContaining("version 9");
    }
}
