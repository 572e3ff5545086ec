package dev.ssdpulse.streams.app;

import dev.ssdpulse.streams.steadystate.FioCriterion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyStateSpecsTest {
    private static final long S = 1_000_000_000L;
    private final AnalyticsConfig base = AnalyticsConfig.defaults("b:1", "http://r", Path.of("/tmp/x"));

    @Test
    void sniaRoundWithUnits() {
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=30s")).sniaRoundNs()).isEqualTo(30 * S);
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=2m")).sniaRoundNs()).isEqualTo(120 * S);
        assertThat(SteadyStateSpecs.apply(base, List.of("SNIA:round=90")).sniaRoundNs()).isEqualTo(90 * S);
    }

    @Test
    void fioCriterionReplacesTheDefaults() {
        AnalyticsConfig c = SteadyStateSpecs.apply(base, List.of("fio:iops_slope:1%:300s", "fio:bw:20:2m:10s"));
        assertThat(c.fioCriteria()).containsExactly(
                new FioCriterion(FioSteadyStateDetector.Mode.IOPS_SLOPE, 1.0, true, 300 * S, 0),
                new FioCriterion(FioSteadyStateDetector.Mode.BW, 20.0, false, 120 * S, 10 * S));
        assertThat(c.sniaRoundNs()).isEqualTo(base.sniaRoundNs());
    }

    @Test
    void withoutFioSpecsTheCriteriaStay() {
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=10s")).fioCriteria()).isEqualTo(base.fioCriteria());
        assertThat(SteadyStateSpecs.apply(base, List.of())).isEqualTo(base);
    }

    @Test
    void badSpecsSayWhatIsWrong() {
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("pts:round=60s")))
                .hasMessageContaining("must start with 'snia:'");
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("snia:rounds=60s")))
                .hasMessageContaining("snia:round=DURATION");
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("snia:round=abc")))
                .hasMessageContaining("'abc' is not a duration");
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("fio:iops_slope:1%")))
                .hasMessageContaining("fio:MODE:LIMIT[%]:DURATION[:RAMP]");
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("fio:lat:1%:60s")))
                .hasMessageContaining("fio:lat:1%:60s");
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base, List.of("fio:iops:x%:60s")))
                .hasMessageContaining("limit 'x%' is not a number");
        // a round that is not a whole number of windows is refused by the config
        assertThatThrownBy(() -> SteadyStateSpecs.apply(base.withWindow(10 * S, 2 * S), List.of("snia:round=15s")))
                .hasMessageContaining("multiple of windowSizeNs");
    }

    @Test
    void customBinEdgesParse() {
        LatencyBins bins = LatencyBins.parse("100us,1ms,10ms,4.7s");
        assertThat(bins.upperBoundsNs()).containsExactly(100_000L, 1_000_000L, 10_000_000L, 4_700_000_000L);
        assertThat(base.withLatencyBins(bins).latencyBins()).isEqualTo(bins);
        assertThat(base.latencyBins().isIometer()).isTrue();
        assertThatThrownBy(() -> LatencyBins.parse("1ms,500us")).hasMessageContaining("strictly increasing");
    }
}
