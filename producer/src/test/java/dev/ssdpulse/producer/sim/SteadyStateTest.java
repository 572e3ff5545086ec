package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.io.IoCompletionSink;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 003's random-write steady states on every shipped preset, shrunk (channels, dies and planes kept): a full
 * drive takes 4 KiB random writes at QD32 until it is in steady state, then QD32 and QD256 are measured. GC is
 * paced against the host on every plane, so the drive never goes silent: no one-second window without a
 * completion, IOPS alternate between a GC-off and a GC-on level (both non-zero), and no write waits longer than
 * the worst drive of seed 003 did (4.7 s).
 */
class SteadyStateTest {
    private static final long SECOND_NS = 1_000_000_000L;
    private static final long WORST_SEED003_NS = 4_700_000_000L;

    @ParameterizedTest(name = "{0}: {1} channels, {2} blocks of <= {3} pages per plane")
    @CsvSource({
        "sata-mlc-120gb-2012, 2, 256, 256",
        "sata-mlc-128gb-2012-marvell, 2, 256, 256",
        "sata-240gb, 1, 256, 256",
        "nvme-tlc-1tb, 1, 256, 256",
        "tiny-test, 2, 128, 64"
    })
    void randomWritesAtQd32AndQd256NeverGoSilent(String preset, int channels, int blocksPerPlane, int pages) {
        SsdConfig full = new SsdPresets().builtIn(preset);
        SsdConfig cfg = Experiments.planeScaled(full, channels, blocksPerPlane, pages);
        SimulatedDrive drive = new SimulatedDrive(cfg, 1);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        // 1.5 capacities of random writes reach steady state; then a minute at QD32 and at QD256 each
        long warmUpWrites = cap / 4096 * 3 / 2;
        Windows warmUp = new Windows(SECOND_NS);
        drive.newRun(
                        List.of(SimPhase.io(
                                0,
                                List.of(new RandomGenerator(0, cap, new int[] {4096}, 0, 11, warmUpWrites)),
                                32,
                                0,
                                0)),
                        warmUp,
                        x -> {},
                        SECOND_NS,
                        null)
                .runToCompletion();
        // GC's on/off cycle is shorter on the small drive: the two IOPS states are read in windows that much shorter
        long stateWindowNs = (long) (SECOND_NS * Experiments.cycleScale(full, cfg));
        for (int qd : new int[] {32, 256}) {
            Windows w = new Windows(SECOND_NS);
            Windows states = new Windows(stateWindowNs);
            drive.newRun(
                            List.of(SimPhase.io(
                                    0, List.of(RandomGenerator.writes4k(0, cap, 12 + qd)), qd, 120 * SECOND_NS, 0)),
                            (wk, p, op, o, size, submitNs, latencyNs, q, st) -> {
                                w.onIoCompleted(wk, p, op, o, size, submitNs, latencyNs, q, st);
                                states.onIoCompleted(wk, p, op, o, size, submitNs, latencyNs, q, st);
                            },
                            x -> {},
                            SECOND_NS,
                            null)
                    .runToCompletion();
            long silent = Arrays.stream(w.whole()).filter(n -> n == 0).count();
            long[] iops = states.whole();
            long peak = Arrays.stream(iops).max().orElse(0);
            long gcOff = Arrays.stream(iops).filter(n -> n >= peak * 0.6).count();
            long gcOn =
                    Arrays.stream(iops).filter(n -> n > 0 && n <= peak * 0.3).count();
            System.out.printf(
                    Locale.ROOT,
                    "%s QD%d: %d s, silent %d; in %d windows of %.1f ms:"
                            + " GC-off (>= 60 %% of %d) %d, GC-on (<= 30 %%) %d,"
                            + " silent %d; worst latency %.0f ms%n   %s%n",
                    preset,
                    qd,
                    w.whole().length,
                    silent,
                    iops.length,
                    stateWindowNs / 1e6,
                    peak,
                    gcOff,
                    gcOn,
                    Arrays.stream(iops).filter(n -> n == 0).count(),
                    w.maxLatencyNs / 1e6,
                    Arrays.toString(Arrays.copyOfRange(iops, Math.max(0, iops.length - 80), iops.length)));
            assertThat(silent).as("seconds without a completion").isZero();
            assertThat(w.maxLatencyNs).as("worst latency").isLessThanOrEqualTo(WORST_SEED003_NS);
            assertThat(gcOff).as("GC-off seconds").isPositive();
            assertThat(gcOn).as("GC-on seconds").isPositive();
        }
    }

    /** Completions per window (by completion time) and the worst latency. */
    static final class Windows implements IoCompletionSink {
        private final long windowNs;
        private long[] counts = new long[256];
        long maxLatencyNs;
        private long lastNs;

        Windows(long windowNs) {
            this.windowNs = windowNs;
        }

        @Override
        public void onIoCompleted(
                int worker,
                int phaseIndex,
                byte op,
                long offsetBytes,
                int sizeBytes,
                long submitTimeNs,
                long latencyNs,
                int queueDepth,
                int status) {
            long doneNs = submitTimeNs + latencyNs;
            int i = (int) (doneNs / windowNs);
            if (i >= counts.length) {
                counts = Arrays.copyOf(counts, Math.max(i + 1, counts.length * 2));
            }
            counts[i]++;
            lastNs = Math.max(lastNs, doneNs);
            maxLatencyNs = Math.max(maxLatencyNs, latencyNs);
        }

        /** The whole windows up to the last completion. */
        long[] whole() {
            return Arrays.copyOf(counts, (int) (lastNs / windowNs));
        }
    }
}
