package dev.ssdpulse.streams.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import dev.ssdpulse.streams.steadystate.FioSteadyStateDetector;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyStateSpecsTest {
    private static final long S = 1_000_000_000L;
    private final AnalyticsConfig base = AnalyticsConfig.defaults("b:1", "http://r", Path.of("/tmp/x"));

    @Test
    void sniaRoundWithUnits() {
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=30s"))
                        .analysisSettings()
                        .sniaRoundNs())
                .isEqualTo(30 * S);
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=2m"))
                        .analysisSettings()
                        .sniaRoundNs())
                .isEqualTo(120 * S);
        assertThat(SteadyStateSpecs.apply(base, List.of("SNIA:round=90"))
                        .analysisSettings()
                        .sniaRoundNs())
                .isEqualTo(90 * S);
    }

    @Test
    void fioCriterionReplacesTheDefaults() {
        AnalyticsConfig c = SteadyStateSpecs.apply(base, List.of("fio:iops_slope:1%:300s", "fio:bw:20:2m:10s"));
        assertThat(c.analysisSettings().fioCriteria())
                .containsExactly(
                        new FioCriterion(FioSteadyStateDetector.Mode.IOPS_SLOPE, 1.0, true, 300 * S, 0),
                        new FioCriterion(FioSteadyStateDetector.Mode.BW, 20.0, false, 120 * S, 10 * S));
        assertThat(c.analysisSettings().sniaRoundNs())
                .isEqualTo(base.analysisSettings().sniaRoundNs());
    }

    @Test
    void theCliOptionAndTheSpecShareOneSyntax() {
        // --fio-steady-state takes FioCriterion.parse, a re-analysis spec the same after "fio:"
        assertThat(FioCriterion.parse("bw:20:2m:10s")).isEqualTo(SteadyStateSpecs.fioCriterion("fio:bw:20:2m:10s"));
        assertThat(FioCriterion.parse("iops_slope:0.3%:60")).isEqualTo(FioCriterion.parse("iops_slope:0.3%:60s"));
        assertThatThrownBy(() -> FioCriterion.parse("iops:-1:60")).hasMessageContaining("limit must be >= 0");
        assertThatThrownBy(() -> FioCriterion.parse("iops:1:0s")).hasMessageContaining("longer than 0");
    }

    @Test
    void withoutFioSpecsTheCriteriaStay() {
        assertThat(SteadyStateSpecs.apply(base, List.of("snia:round=10s"))
                        .analysisSettings()
                        .fioCriteria())
                .isEqualTo(base.analysisSettings().fioCriteria());
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
                .hasMessageContaining("MODE:LIMIT[%]:DURATION[:RAMP]");
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
        assertThat(base.withLatencyBins(bins).analysisSettings().bins()).isEqualTo(bins);
        assertThat(base.analysisSettings().bins().isIometer()).isTrue();
        assertThatThrownBy(() -> LatencyBins.parse("1ms,500us")).hasMessageContaining("strictly increasing");
    }
}
