package dev.ssdpulse.streams.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyBinsTest {

    @Test
    void iometerHasTwentyEdgesAndTwentyOneBins() {
        LatencyBins bins = LatencyBins.iometer();
        assertThat(bins.edgeCount()).isEqualTo(20);
        assertThat(bins.binCount()).isEqualTo(21);
        assertThat(bins.upperBoundsNs())
                .startsWith(50_000L, 100_000L, 200_000L, 500_000L, 1_000_000L)
                .endsWith(2_000_000_000L, 4_700_000_000L, 5_000_000_000L, 10_000_000_000L);
    }

    @Test
    void edgesAreExclusiveUpperBounds() {
        LatencyBins bins = LatencyBins.iometer();
        assertThat(bins.binIndex(0)).isEqualTo(0);
        assertThat(bins.binIndex(49_999)).isEqualTo(0);
        assertThat(bins.binIndex(50_000)).isEqualTo(1);
        assertThat(bins.binIndex(9_999_999)).isEqualTo(7);
        assertThat(bins.binIndex(10_000_000)).isEqualTo(8);
        assertThat(bins.binIndex(4_699_999_999L)).isEqualTo(17);
        assertThat(bins.binIndex(4_700_000_000L)).isEqualTo(18);
        assertThat(bins.binIndex(9_999_999_999L)).isEqualTo(19);
        assertThat(bins.binIndex(10_000_000_000L)).isEqualTo(20);
        assertThat(bins.binIndex(Long.MAX_VALUE)).isEqualTo(20);
    }

    @Test
    void binarySearchAgreesWithLinearScan() {
        LatencyBins bins = LatencyBins.iometer();
        long[] edges = bins.upperBoundsNs();
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            long v = (long) Math.exp(random.nextDouble() * Math.log(2e10));
            int expected = 0;
            while (expected < edges.length && edges[expected] <= v) {
                expected++;
            }
            assertThat(bins.binIndex(v)).as("latency %d", v).isEqualTo(expected);
        }
    }

    @Test
    void parsesUnitsAndDecimals() {
        assertThatThrownBy(() -> LatencyBins.parse("50us, 100µs,1ms,4.7s, 250ns"))
                .hasMessageContaining("#5")
                .hasMessageContaining("strictly increasing");
        assertThat(LatencyBins.parse("50us,100us,1ms,4.7s").upperBoundsNs())
                .containsExactly(50_000L, 100_000L, 1_000_000L, 4_700_000_000L);
        assertThat(LatencyBins.parse(LatencyBins.iometer().format())).isSameAs(LatencyBins.iometer());
    }

    @Test
    void rejectsBadEdgesWithSpecificMessages() {
        assertThatThrownBy(() -> LatencyBins.of()).hasMessageContaining("at least one");
        assertThatThrownBy(() -> LatencyBins.of(10, 0))
                .hasMessageContaining("#2")
                .hasMessageContaining("not positive");
        assertThatThrownBy(() -> LatencyBins.of(10, 10)).hasMessageContaining("strictly increasing");
        assertThatThrownBy(() -> LatencyBins.parse("5")).hasMessageContaining("no unit");
        assertThatThrownBy(() -> LatencyBins.parse("1.5ns")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> LatencyBins.parse("abcms")).hasMessageContaining("'abcms'");
        assertThatThrownBy(() -> LatencyBins.parse(" ")).hasMessageContaining("empty");
    }
}
