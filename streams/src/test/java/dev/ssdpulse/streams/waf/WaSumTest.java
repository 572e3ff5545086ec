package dev.ssdpulse.streams.waf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaSumTest {
    static final long Q = 32L << 20;

    @Test
    void adjacentIntervalsAreOneChainWithOneStepOfError() {
        WaSum sum = new WaSum();
        sum.add(0, 10, "B", 100 * Q, Q, 150 * Q, Q);
        sum.add(10, 20, "B", 100 * Q, Q, 150 * Q, Q);
        PhaseWa wa = sum.result();
        assertThat(wa.wa()).isEqualTo(1.5);
        assertThat(wa.bounds()).isEqualTo(WaBounds.of(200 * Q, Q, 300 * Q, Q));
    }

    @Test
    void aGapOrAnotherStepStartsAnotherChain() {
        WaSum sum = new WaSum();
        sum.add(0, 10, "B", 100 * Q, Q, 150 * Q, Q);
        sum.add(30, 40, "B", 100 * Q, Q, 150 * Q, Q); // an interval of this phase after one of another phase
        sum.add(40, 50, "B", 100 * Q, Q, 150 * Q, 2 * Q);
        assertThat(sum.result().bounds()).isEqualTo(WaBounds.of(300 * Q, 3 * Q, 450 * Q, 4 * Q));
    }

    @Test
    void noHostWritesOrMixedUnitsGiveNoWa() {
        WaSum idle = new WaSum();
        assertThat(idle.isEmpty()).isTrue();
        idle.add(0, 10, "B", 0, Q, 5 * Q, Q);
        assertThat(idle.isEmpty()).isFalse();
        assertThat(idle.result()).isEqualTo(new PhaseWa(null, WaBounds.NONE));
        WaSum mixed = new WaSum();
        mixed.add(0, 10, "B", 100, 0, 150, 0);
        mixed.add(10, 20, "NAND page", 100, 1, 150, 2);
        assertThat(mixed.result().wa()).isNull();
    }
}
