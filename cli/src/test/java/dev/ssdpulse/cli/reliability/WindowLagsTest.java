package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.cli.reliability.WindowLags.RunWindow;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WindowLagsTest {

    @Test
    void lagsAreAppendMinusLastIoOverEveryWindowOfEveryRun() {
        Map<RunWindow, Long> lastIo = new HashMap<>();
        Map<RunWindow, Long> appended = new HashMap<>();
        // run a: lags 100..199 ms; run b: one slow window of 5,000 ms
        for (int w = 0; w < 100; w++) {
            lastIo.put(new RunWindow("a", w), 1_000L * w);
            appended.put(new RunWindow("a", w), 1_000L * w + 100 + w);
        }
        lastIo.put(new RunWindow("b", 0), 7_000L);
        appended.put(new RunWindow("b", 0), 12_000L);
        // an unmeasured run's windows are ignored
        appended.put(new RunWindow("other", 0), 1L);

        WindowLags lags = WindowLags.of(lastIo, appended);

        assertThat(lags.windows()).isEqualTo(101);
        assertThat(lags.minMs()).isEqualTo(100);
        assertThat(lags.p50Ms()).isEqualTo(150); // 51st of 101
        assertThat(lags.p99Ms()).isEqualTo(199); // 100th of 101
        assertThat(lags.maxMs()).isEqualTo(5_000);
    }

    @Test
    void aWindowNeverAppendedIsNamed() {
        Map<RunWindow, Long> lastIo = Map.of(new RunWindow("a", 0), 10L, new RunWindow("a", 1), 20L);
        Map<RunWindow, Long> appended = Map.of(new RunWindow("a", 0), 30L);

        assertThatThrownBy(() -> WindowLags.of(lastIo, appended))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 of 2 windows")
                .hasMessageContaining("RunWindow[runId=a, index=1]");
    }

    @Test
    void percentileIsTheNearestRank() {
        long[] sorted = {1, 2, 3, 4};
        assertThat(WindowLags.percentile(sorted, 0.5)).isEqualTo(2);
        assertThat(WindowLags.percentile(sorted, 0.99)).isEqualTo(4);
        assertThat(WindowLags.percentile(new long[] {7}, 0.01)).isEqualTo(7);
        assertThatThrownBy(() -> WindowLags.percentile(sorted, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
