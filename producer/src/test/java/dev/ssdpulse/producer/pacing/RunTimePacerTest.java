package dev.ssdpulse.producer.pacing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunTimePacerTest {
    private static final long S = 1_000_000_000L;
    private static final long SLICE = 50_000_000L;

    @Test
    void runTimeMapsToWallTimeAtTheSpeed() {
        ManualWallClock clock = new ManualWallClock(0);
        assertThat(new RunTimePacer(clock, 10, SLICE).wallOffsetNs(300 * S)).isEqualTo(30 * S);
        assertThat(new RunTimePacer(clock, 0.5, SLICE).wallOffsetNs(10 * S)).isEqualTo(20 * S);
        RunTimePacer pacer = new RunTimePacer(clock, 4, SLICE);
        clock.advance(3 * S);
        assertThat(pacer.runTimeNowNs()).isEqualTo(12 * S);
        assertThat(pacer.elapsedWallNs()).isEqualTo(3 * S);
    }

    @Test
    void waitsExactlyUntilDueInSlicesNoLongerThanTheMaximum() throws InterruptedException {
        ManualWallClock clock = new ManualWallClock(0);
        RunTimePacer pacer = new RunTimePacer(clock, 2, SLICE);
        assertThat(pacer.awaitRunTime(2 * S + 30_000_000L, () -> false)).isTrue();
        assertThat(clock.sleptNs()).isEqualTo(S + 15_000_000L);
        assertThat(clock.sleepsNs()).hasSize(21).allSatisfy(ns -> assertThat(ns).isLessThanOrEqualTo(SLICE));
        // due already: no sleep at all
        assertThat(pacer.awaitRunTime(S, () -> false)).isTrue();
        assertThat(clock.sleepsNs()).hasSize(21);
    }

    @Test
    void aProducerThatFellBehindCatchesUpInsteadOfDrifting() throws InterruptedException {
        ManualWallClock clock = new ManualWallClock(0);
        RunTimePacer pacer = new RunTimePacer(clock, 1, SLICE);
        clock.advance(5 * S); // e.g. a slow send
        for (long t = 1; t <= 5; t++) {
            assertThat(pacer.awaitRunTime(t * S, () -> false)).isTrue();
        }
        assertThat(clock.sleepsNs()).isEmpty();
        assertThat(pacer.awaitRunTime(6 * S, () -> false)).isTrue();
        assertThat(clock.sleptNs()).isEqualTo(S);
    }

    @Test
    void aPhaseStartingLateIsPacedFromItsOwnStartNotInABurst() throws InterruptedException {
        ManualWallClock clock = new ManualWallClock(0);
        // kept from the run's recorded start; setup and unpaced preparation take 7 s of wall time
        RunTimePacer pacer = new RunTimePacer(clock, 1, SLICE, 0);
        clock.advance(7 * S);
        assertThat(pacer.startPhase(0)).isEqualTo(7 * S);
        assertThat(pacer.originShiftNs()).isEqualTo(7 * S);
        assertThat(pacer.runTimeNowNs()).isZero();
        // a 20-s phase takes 20 s of wall time from its own start: each second waits its second
        for (long t = 1; t <= 20; t++) {
            long before = clock.sleptNs();
            assertThat(pacer.awaitRunTime(t * S, () -> false)).isTrue();
            assertThat(clock.sleptNs() - before).isEqualTo(S);
        }
        assertThat(clock.nanoTime()).isEqualTo(27 * S);
        // a phase on schedule keeps the start
        assertThat(pacer.startPhase(20 * S)).isZero();
        assertThat(pacer.originShiftNs()).isEqualTo(7 * S);
    }

    @Test
    void aStopRequestEndsTheWaitWithinOneSlice() throws InterruptedException {
        ManualWallClock clock = new ManualWallClock(0);
        RunTimePacer pacer = new RunTimePacer(clock, 1, SLICE);
        long stopAtNs = 3 * SLICE + 1;
        assertThat(pacer.awaitRunTime(60 * S, () -> clock.nanoTime() >= stopAtNs))
                .isFalse();
        assertThat(clock.nanoTime()).isBetween(stopAtNs, stopAtNs + SLICE);
        // a stop is honoured even when the step is already due
        assertThat(pacer.awaitRunTime(0, () -> true)).isFalse();
    }

    @Test
    void nanoTimeWrapAroundDoesNotBreakTheSchedule() throws InterruptedException {
        ManualWallClock clock = new ManualWallClock(Long.MAX_VALUE - S / 2);
        RunTimePacer pacer = new RunTimePacer(clock, 1, SLICE);
        assertThat(pacer.awaitRunTime(S, () -> false)).isTrue();
        assertThat(clock.sleptNs()).isEqualTo(S);
        assertThat(pacer.runTimeNowNs()).isEqualTo(S);
    }

    @Test
    void refusesSpeedsAndSlicesThatCannotPace() {
        ManualWallClock clock = new ManualWallClock(0);
        assertThatThrownBy(() -> new RunTimePacer(clock, 0, SLICE)).hasMessageContaining("speed must be");
        assertThatThrownBy(() -> new RunTimePacer(clock, Double.NaN, SLICE)).hasMessageContaining("speed must be");
        assertThatThrownBy(() -> new RunTimePacer(clock, Double.POSITIVE_INFINITY, SLICE))
                .hasMessageContaining("speed must be");
        assertThatThrownBy(() -> new RunTimePacer(clock, 1, 0)).hasMessageContaining("maxSliceNs");
    }
}
