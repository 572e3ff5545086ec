package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.cli.run.OfflineRunOutput;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WindowClockTest {
    private static final long S = 1_000_000_000L;

    @Test
    void eachWindowKeepsTheWallTimeOfItsLastIoByCompletionTime() {
        AtomicLong wallMs = new AtomicLong(5_000);
        WindowClock clock = new WindowClock(
                new OfflineRunOutput("r", S, 60 * S, "json", null, "d", "w", new PrintWriter(new StringWriter())),
                S,
                wallMs::get);

        io(clock, 0, 100_000); // window 0
        wallMs.set(5_010);
        io(clock, 900_000_000L, 200_000_000L); // completes at 1.1 s: window 1
        wallMs.set(5_020);
        io(clock, 800_000_000L, 100_000_000L); // completes at 0.9 s, handed over after the one above: window 0
        wallMs.set(5_030);
        io(clock, 3 * S, 1); // window 3; window 2 has no I/O

        assertThat(clock.lastIoWallMs()).containsExactly(5_020, 5_010, 0, 5_030);
        assertThat(clock.firstIoWallMs()).isEqualTo(5_000);
        assertThat(clock.ioCount()).isEqualTo(4);
    }

    @Test
    void runIdsAndRunsParseBackFromTheirArgument() {
        LoadRun run = new LoadRun("load-1i-ab-m-p0-r1", 1001, 1515, 20);
        assertThat(LoadRun.parse(run.arg())).isEqualTo(run);
        assertThatThrownBy(() -> LoadRun.parse("a:1:2")).hasMessageContaining("RUNID:SEED:RATE_IOPS:DURATION_S");
        assertThatThrownBy(() -> LoadRun.parse("a:1:x:2")).hasMessageContaining("with numbers");
        assertThatThrownBy(() -> new LoadRun("a", 1, 0, 2)).hasMessageContaining("must be > 0");
    }

    private static void io(WindowClock clock, long submitNs, long latencyNs) {
        clock.onIoCompleted(0, 0, (byte) 1, 0, 4096, submitNs, latencyNs, 1, 0);
    }
}
