package dev.ssdpulse.streams.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.SmartSource;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PhaseWriteAmplificationTest {
    private static final long S = 1_000_000_000L;

    private static WriteAmplification interval(long fromS, long toS, long host, long nand) {
        return WriteAmplification.newBuilder()
                .setRunId("r")
                .setFromTimeNs(fromS * S)
                .setToTimeNs(toS * S)
                .setSource(SmartSource.SIMULATOR)
                .setHostBytesWrittenDelta(host)
                .setNandBytesWrittenDelta(nand)
                .setWaWindow(host > 0 ? (double) nand / host : null)
                .setHostBytesWrittenCumulative(0)
                .setNandBytesWrittenCumulative(0)
                .setWaCumulative(null)
                .build();
    }

    @Test
    void aPhasesWaBuildsUpIntervalByIntervalToItsFigure() {
        Map<Integer, Long> starts = Map.of(0, 0L, 1, 10 * S);
        List<WriteAmplification> series = List.of(
                interval(0, 5, 100, 100),
                interval(5, 10, 100, 100), // ends at the change: the phase before
                interval(10, 15, 0, 50), // garbage collection with no host write: no WA yet
                interval(15, 20, 100, 250),
                interval(20, 25, 100, 450));
        Map<Integer, List<PhaseWriteAmplification.SoFar>> running = PhaseWriteAmplification.running(starts, series);
        assertThat(running.get(0)).extracting(PhaseWriteAmplification.SoFar::wa).containsExactly(1.0, 1.0);
        assertThat(running.get(1)).extracting(PhaseWriteAmplification.SoFar::wa).containsExactly(null, 3.0, 3.75);
        assertThat(running.get(1))
                .extracting(PhaseWriteAmplification.SoFar::toTimeNs)
                .containsExactly(15 * S, 20 * S, 25 * S);
        // the figure a phase ends with is the last of its build-up
        assertThat(PhaseWriteAmplification.byPhase(starts, series))
                .hasEntrySatisfying(0, wa -> assertThat(wa.wa()).isEqualTo(1.0))
                .hasEntrySatisfying(1, wa -> assertThat(wa.wa()).isEqualTo(3.75));
    }
}
