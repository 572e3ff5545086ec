package dev.ssdpulse.streams.steadystate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector.Mode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Hand-computed series against fio steadystate.c semantics (strict '<' against the limit). */
class FioSteadyStateDetectorTest {
    static final long S = 1_000_000_000L;

    static FioSteadyStateDetector fio(Mode mode, double limit, boolean percent, int durSeconds) {
        return new FioSteadyStateDetector(mode, limit, percent, durSeconds * S, 0, 0);
    }

    static List<Optional<SteadyStateResult>> feed(FioSteadyStateDetector d, long... samples) {
        List<Optional<SteadyStateResult>> results = new ArrayList<>();
        for (long v : samples) {
            results.add(d.acceptSample(v));
        }
        return results;
    }

    @Test
    void flatWithNoiseIsSteadyWhenTheWindowFills() {
        // mean 1000, max deviation 50 = 5 % < 10 %
        List<Optional<SteadyStateResult>> r = feed(fio(Mode.IOPS, 10, true, 5), 1000, 1050, 950, 1000, 1000);
        assertThat(r.subList(0, 4)).allMatch(Optional::isEmpty);
        SteadyStateResult result = r.get(4).orElseThrow();
        assertThat(result.reached()).isTrue();
        assertThat(result.finalVerdict()).isTrue();
        assertThat(result.method()).isEqualTo(SteadyStateMethod.FIO_IOPS);
        assertThat(result.mean()).isEqualTo(1000.0);
        assertThat(result.range()).isEqualTo(100.0);
        assertThat(result.limit()).isEqualTo(0.10);
        assertThat(result.decidedAtNs()).isEqualTo(5 * S);
        assertThat(result.windowStartNs()).isZero();
        assertThat(result.criteria()).isEqualTo("fio ss=iops:10% ss_dur=5s ss_ramp=0s interval=1s");
        assertThat(result.explanation()).contains("= 5.00000% of mean").contains("steady state reached");
        // the window in seconds, as every time a person reads
        assertThat(result.explanation()).startsWith("5 samples [0.000, 5.000) s: mean 1000");
    }

    @Test
    void deviationExactlyAtTheLimitIsNotSteadyAsInFio() {
        // 1000,1100,900,1000,1000: mean 1000, deviation 100 = 10 %, fio requires criterion < limit
        FioSteadyStateDetector d = fio(Mode.IOPS, 10, true, 5);
        List<Optional<SteadyStateResult>> r = feed(d, 1000, 1100, 900, 1000, 1000, 1000, 1000);
        assertThat(r.get(4).orElseThrow().reached()).isFalse();
        assertThat(r.get(5).orElseThrow().reached()).isFalse(); // 1100,900,1000,1000,1000: mean 1000, dev 100
        SteadyStateResult reached = r.get(6).orElseThrow(); // 900,1000 x4: mean 980, dev 80 = 8.16 %
        assertThat(reached.reached()).isTrue();
        assertThat(reached.mean()).isEqualTo(980.0);
        assertThat(reached.decidedAtNs()).isEqualTo(7 * S);
        assertThat(reached.windowStartNs()).isEqualTo(2 * S);
    }

    @Test
    void risingSlopeIsNotSteady() {
        // slope 100 per s, mean 1200: 8.33 % >= 1 %
        FioSteadyStateDetector d = fio(Mode.IOPS_SLOPE, 1, true, 5);
        List<Optional<SteadyStateResult>> r = feed(d, 1000, 1100, 1200, 1300, 1400, 1500);
        SteadyStateResult first = r.get(4).orElseThrow();
        assertThat(first.reached()).isFalse();
        assertThat(first.slope()).isCloseTo(100.0, within(1e-9));
        assertThat(first.explanation()).contains("8.33333% of mean");
        SteadyStateResult end = d.finish(6 * S).orElseThrow();
        assertThat(end.reached()).isFalse();
        assertThat(end.finalVerdict()).isTrue();
    }

    @Test
    void fallingSlopeIsJudgedOnItsAbsoluteValue() {
        FioSteadyStateDetector d = fio(Mode.IOPS_SLOPE, 5, true, 5);
        // slope -100, mean 1200: |-8.33 %| >= 5 %
        assertThat(feed(d, 1400, 1300, 1200, 1100, 1000).get(4).orElseThrow().reached())
                .isFalse();
        // slope -10, mean 1000: 1 % < 5 %
        assertThat(feed(fio(Mode.IOPS_SLOPE, 5, true, 5), 1020, 1010, 1000, 990, 980)
                        .get(4)
                        .orElseThrow()
                        .reached())
                .isTrue();
    }

    @Test
    void stepSettlesWhenTheWindowHoldsOnlyTheNewLevel() {
        FioSteadyStateDetector d = fio(Mode.IOPS, 10, true, 5);
        List<Optional<SteadyStateResult>> r = feed(d, 2000, 2000, 2000, 1000, 1000, 1000, 1000, 1000);
        assertThat(r.get(4).orElseThrow().reached()).isFalse();
        assertThat(r.get(5).orElseThrow().reached()).isFalse();
        assertThat(r.get(6).orElseThrow().reached()).isFalse();
        SteadyStateResult reached = r.get(7).orElseThrow();
        assertThat(reached.reached()).isTrue();
        assertThat(reached.decidedAtNs()).isEqualTo(8 * S);
    }

    @Test
    void absoluteSlopeLimitIsStrict() {
        // 0,10,20,30,40: fio slope = (300 - 10*100/5) / (30 - 100/5) = 10 exactly
        SteadyStateResult at = feed(fio(Mode.IOPS_SLOPE, 10, false, 5), 0, 10, 20, 30, 40)
                .get(4)
                .orElseThrow();
        assertThat(at.reached()).isFalse();
        assertThat(at.slope()).isEqualTo(10.0);
        assertThat(at.limit()).isEqualTo(10.0);
        assertThat(feed(fio(Mode.IOPS_SLOPE, 10.001, false, 5), 0, 10, 20, 30, 40)
                        .get(4)
                        .orElseThrow()
                        .reached())
                .isTrue();
    }

    @Test
    void windowsBecomeSamplesWithRampSkippedAndGapsAsZero() {
        // ramp 2 s: seconds 0 and 1 not recorded; second 4 has no window -> sample 0
        FioSteadyStateDetector d = new FioSteadyStateDetector(Mode.BW, 50, true, 4 * S, 2 * S, 0);
        List<SteadyStateResult> results = new ArrayList<>();
        long[][] windows = {{0, 1}, {1, 1}, {2, 1000}, {3, 1000}, {5, 1000}, {6, 1000}, {7, 1000}, {8, 1000}};
        for (long[] w : windows) {
            // two ops per second, as fio sums directions
            results.addAll(d.acceptWindow(w[0] * S, S, 1, w[1] / 2));
            results.addAll(d.acceptWindow(w[0] * S, S, 1, w[1] - w[1] / 2));
        }
        // samples: s2=1000, s3=1000, s4=0, s5=1000 -> window full after s5: mean 750, dev 750 = 100 % >= 50 %
        assertThat(results).isNotEmpty();
        assertThat(results.get(0).reached()).isFalse();
        assertThat(results.get(0).mean()).isEqualTo(750.0);
        assertThat(results.get(0).windowStartNs()).isEqualTo(2 * S);
        // s3..s6: 1000,0,1000,1000 mean 750; s4..s7: 0,1000,1000,1000; s5..s8 needs finish to flush second 8
        d.finish(9 * S).ifPresent(results::add);
        SteadyStateResult last = results.get(results.size() - 1);
        assertThat(last.reached()).isTrue();
        assertThat(last.windowStartNs()).isEqualTo(5 * S);
        assertThat(last.decidedAtNs()).isEqualTo(9 * S);
        assertThat(last.method()).isEqualTo(SteadyStateMethod.FIO_BW);
    }

    @Test
    void finishBeforeTheWindowFillsIsFinalNotReached() {
        FioSteadyStateDetector d = fio(Mode.IOPS, 10, true, 60);
        feed(d, 1000, 1000);
        SteadyStateResult r = d.finish(2 * S).orElseThrow();
        assertThat(r.reached()).isFalse();
        assertThat(r.finalVerdict()).isTrue();
        assertThat(r.explanation()).contains("2 of 60 samples");
    }

    @Test
    void parsesFioModeNamesAndRejectsBadConfig() {
        assertThat(Mode.parse("iops_slope")).isEqualTo(Mode.IOPS_SLOPE);
        assertThat(Mode.parse("BW")).isEqualTo(Mode.BW);
        assertThatThrownBy(() -> Mode.parse("lat")).hasMessageContaining("iops, iops_slope, bw, bw_slope");
        assertThatThrownBy(() -> new FioSteadyStateDetector(Mode.IOPS, 1, true, 1500_000_000L, 0, 0))
                .hasMessageContaining("multiple of the interval");
        FioSteadyStateDetector d = fio(Mode.IOPS, 10, true, 5);
        assertThatThrownBy(() -> d.acceptWindow(0, 2 * S, 1, 1)).hasMessageContaining("sample interval");
        d.acceptWindow(3 * S, S, 1, 1);
        assertThatThrownBy(() -> d.acceptWindow(2 * S, S, 1, 1)).hasMessageContaining("time order");
    }

    @Test
    void stateRoundTripContinuesIdentically() {
        FioSteadyStateDetector live = new FioSteadyStateDetector(Mode.IOPS_SLOPE, 0.5, true, 10 * S, 2 * S, 0);
        List<SteadyStateResult> a = new ArrayList<>();
        List<SteadyStateResult> b = new ArrayList<>();
        for (int s = 0; s < 17; s++) {
            live.acceptWindow(s * S, S, 1000 + (s < 8 ? 100 * s : s % 3), 0);
        }
        byte[] state = live.encodeState();
        FioSteadyStateDetector restored = FioSteadyStateDetector.decodeState(state);
        assertThat(restored.encodeState()).isEqualTo(state);
        for (int s = 17; s < 40; s++) {
            a.addAll(live.acceptWindow(s * S, S, 1000 + s % 3, 0));
            b.addAll(restored.acceptWindow(s * S, S, 1000 + s % 3, 0));
        }
        assertThat(b).isNotEmpty().isEqualTo(a);
        assertThat(b.get(b.size() - 1).reached()).isTrue();
        assertThat(restored.encodeState()).isEqualTo(live.encodeState());
    }

    @Test
    void slopePercentUsesFiosTruncatedIntegerMean() {
        // 1,2,2,2,2: slope = (20 - 10*9/5) / (30 - 20) = 0.2; fio divides by sum_y / dur = 9 / 5 = 1 (integer),
        // so the criterion is 20 % (not 11.1 % with the true mean 1.8): not steady at a 15 % limit
        SteadyStateResult r =
                feed(fio(Mode.IOPS_SLOPE, 15, true, 5), 1, 2, 2, 2, 2).get(4).orElseThrow();
        assertThat(r.slope()).isCloseTo(0.2, within(1e-12));
        assertThat(r.reached()).isFalse();
        assertThat(r.explanation()).contains("= 20.0000% of mean");
    }

    @Test
    void aSteadyStateThatStopsHoldingIsReportedLostAndFoundAgainWhileFiosVerdictStays() {
        FioSteadyStateDetector d = fio(Mode.IOPS, 10, true, 5);
        // 1000 for 8 s (steady at 5 s), a cliff to 300 at 8 s, then 300 on
        List<Optional<SteadyStateResult>> r =
                feed(d, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 300, 300, 300, 300, 300, 300);
        SteadyStateResult reached = r.get(4).orElseThrow();
        assertThat(reached.reached()).isTrue();
        assertThat(reached.steadyNow()).isTrue();
        assertThat(reached.reachedAtNs()).isEqualTo(5 * S);
        assertThat(reached.lostAtNs()).isNull();
        assertThat(r.subList(5, 8)).as("still steady: nothing to say").allMatch(Optional::isEmpty);
        SteadyStateResult lost = r.get(8).orElseThrow();
        assertThat(lost.reached()).as("fio's verdict stays").isTrue();
        assertThat(lost.finalVerdict()).isTrue();
        assertThat(lost.steadyNow()).isFalse();
        assertThat(lost.reachedAtNs()).isEqualTo(5 * S);
        assertThat(lost.lostAtNs()).isEqualTo(9 * S);
        assertThat(lost.explanation()).startsWith("steady state lost at 9.000 s");
        assertThat(r.subList(9, 12)).as("the window still holds the cliff").allMatch(Optional::isEmpty);
        SteadyStateResult again = r.get(12).orElseThrow();
        assertThat(again.steadyNow()).isTrue();
        assertThat(again.lostAtNs()).isEqualTo(9 * S);
        assertThat(again.windowStartNs()).isEqualTo(8 * S);
        assertThat(again.explanation()).startsWith("steady again at 13.000 s");
        assertThat(d.finish(20 * S)).isEmpty();

        FioSteadyStateDetector restored = FioSteadyStateDetector.decodeState(d.encodeState());
        assertThat(restored.encodeState()).isEqualTo(d.encodeState());
    }
}
