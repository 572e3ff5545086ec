package dev.ssdpulse.streams.http.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.streams.avro.AvroMappers;
import dev.ssdpulse.streams.steadystate.SteadyStateMethod;
import dev.ssdpulse.streams.steadystate.SteadyStateResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunMetricsCollectorTest {
    private static SteadyStateVerdict verdict(int phase, boolean reached, Boolean steadyNow) {
        return AvroMappers.steadyStateVerdict(
                "r",
                1,
                phase,
                new SteadyStateResult(
                        SteadyStateMethod.FIO_IOPS,
                        reached,
                        true,
                        60,
                        0,
                        60,
                        60,
                        1000,
                        10,
                        0,
                        0.1,
                        "fio",
                        "why",
                        steadyNow,
                        null,
                        null));
    }

    @Test
    void theGaugeSaysWhetherTheLatestPhaseIsSteadyNowNotWhetherItOnceWas() {
        assertThat(RunMetricsCollector.steadyState(List.of())).isEmpty();
        assertThat(RunMetricsCollector.steadyState(List.of(verdict(1, true, true))))
                .contains(true);
        assertThat(RunMetricsCollector.steadyState(List.of(verdict(1, true, false))))
                .as("fio's verdict reached, but the steady state was lost since")
                .contains(false);
        assertThat(RunMetricsCollector.steadyState(List.of(verdict(1, true, null))))
                .as("SNIA: the standard's verdict")
                .contains(true);
        assertThat(RunMetricsCollector.steadyState(List.of(verdict(0, true, true), verdict(1, false, false))))
                .as("only the latest phase counts")
                .contains(false);
    }
}
