package dev.ssdpulse.streams.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.latency.LatencyBins;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunWindowAggregatorTest {
    static final long S = 1_000_000_000L;
    static final long MS = 1_000_000L;

    /** One synthetic I/O. */
    record Io(int op, int phase, long completionNs, long sizeBytes, long latencyNs, int status) {}

    /** A QD-style stream in completion order: ~2000 I/Os/s mixed ops over ~8 s, phases switching at 4 s. */
    static List<Io> stream(long seed, int count) {
        Random random = new Random(seed);
        List<Io> ios = new ArrayList<>(count);
        long t = 0;
        for (int i = 0; i < count; i++) {
            t += random.nextInt(1_000_000);
            int op = random.nextInt(10) < 7
                    ? IoOpCode.READ
                    : (random.nextInt(20) == 0 ? IoOpCode.FLUSH : IoOpCode.WRITE);
            long latency = 20_000 + (long) (random.nextDouble() * random.nextDouble() * 40 * MS);
            ios.add(new Io(
                    op, t < 4 * S ? 0 : 1, t, 4096L << random.nextInt(4), latency, random.nextInt(500) == 0 ? 5 : 0));
        }
        return ios;
    }

    /**
     * Feeds the I/Os in batches the way a Kafka Streams processor would: restore state, add the batch,
     * store state. Returns every closed window.
     */
    static List<WindowResult> runBatched(
            List<Io> ios, int batchSize, long graceNs, long[] lateOut, List<byte[]> stateOut) {
        List<WindowResult> out = new ArrayList<>();
        byte[] state = new RunWindowAggregator(S, graceNs, LatencyBins.iometer(), out::add).encodeState();
        for (int from = 0; from < ios.size(); from += batchSize) {
            RunWindowAggregator agg = RunWindowAggregator.decodeState(state, out::add);
            for (Io io : ios.subList(from, Math.min(ios.size(), from + batchSize))) {
                agg.add(io.op(), io.phase(), io.completionNs(), io.sizeBytes(), io.latencyNs(), io.status());
            }
            state = agg.encodeState();
        }
        RunWindowAggregator agg = RunWindowAggregator.decodeState(state, out::add);
        agg.flushAll();
        if (lateOut != null) {
            lateOut[0] = agg.lateIoCount();
        }
        if (stateOut != null) {
            stateOut.add(agg.encodeState());
        }
        return out;
    }

    static byte[] runBatchedState(List<Io> ios, int batchSize, long grace) {
        List<byte[]> states = new ArrayList<>();
        runBatched(ios, batchSize, grace, null, states);
        return states.get(0);
    }

    /** Windows computed directly from the list, no aggregator. */
    static List<String> expectedWindows(List<Io> ios) {
        TreeMap<String, long[]> map = new TreeMap<>();
        for (Io io : ios) {
            long start = Math.floorDiv(io.completionNs(), S) * S;
            String key = String.format("%015d/%d", start, io.op());
            long[] v = map.computeIfAbsent(key, k -> new long[4]);
            v[0]++;
            v[1] += io.sizeBytes();
            v[2] += io.status() != 0 ? 1 : 0;
            v[3] += io.latencyNs();
        }
        List<String> result = new ArrayList<>();
        map.forEach((k, v) -> result.add(k + " n=" + v[0] + " b=" + v[1] + " e=" + v[2] + " sum=" + v[3]));
        return result;
    }

    static List<String> describe(List<WindowResult> windows) {
        List<String> result = new ArrayList<>();
        for (WindowResult w : windows) {
            result.add(String.format("%015d/%d", w.windowStartNs(), w.op()) + " n=" + w.ioCount() + " b=" + w.bytes()
                    + " e=" + w.errorCount() + " sum=" + w.latency().sumNs());
        }
        return result;
    }

    @Test
    void windowsMatchADirectCountAndComeInStartThenOpOrder() {
        List<Io> ios = stream(1, 16_000);
        long[] late = new long[1];
        List<WindowResult> windows = runBatched(ios, 512, 0, late, null);
        assertThat(late[0]).isZero();
        assertThat(describe(windows)).containsExactlyElementsOf(expectedWindows(ios));
        for (WindowResult w : windows) {
            assertThat(w.latency().count()).isEqualTo(w.ioCount());
            assertThat(w.iops()).isEqualTo((double) w.ioCount());
            assertThat(w.mbPerSec()).isEqualTo(w.bytes() / 1e6);
        }
    }

    @Test
    void resultsAreIdenticalForBatchesOf1And7And512AndShuffledWithinGrace() {
        List<Io> ios = stream(2, 12_000);
        long grace = 2 * S;
        List<byte[]> s1 = new ArrayList<>();
        List<byte[]> s7 = new ArrayList<>();
        List<byte[]> s512 = new ArrayList<>();
        List<byte[]> sShuffled = new ArrayList<>();
        // every batch starts from the state the previous one encoded, as in a processor: all give the same windows
        List<WindowResult> b1 = runBatched(ios, 1, grace, null, s1);
        List<WindowResult> b7 = runBatched(ios, 7, grace, null, s7);
        List<WindowResult> b512 = runBatched(ios, 512, grace, null, s512);
        // shuffle inside blocks of 200 I/Os (~0.1 s of run time), far less than the 2-s grace
        List<Io> shuffled = new ArrayList<>(ios);
        Random random = new Random(3);
        for (int from = 0; from < shuffled.size(); from += 200) {
            Collections.shuffle(shuffled.subList(from, Math.min(shuffled.size(), from + 200)), random);
        }
        assertThat(shuffled).isNotEqualTo(ios);
        long[] late = new long[1];
        List<WindowResult> bShuffled = runBatched(shuffled, 7, grace, late, sShuffled);
        assertThat(late[0]).isZero();
        for (List<WindowResult> other : List.of(b7, b512, bShuffled)) {
            assertThat(other).hasSameSizeAs(b1);
            for (int i = 0; i < b1.size(); i++) {
                WindowResult a = b1.get(i);
                WindowResult b = other.get(i);
                assertThat(b).isEqualTo(a);
                assertThat(b.latency().encode()).isEqualTo(a.latency().encode());
            }
        }
        // after flushAll no window is open; the state does not depend on how the I/Os were batched
        assertThat(RunWindowAggregator.decodeState(s7.get(0), w -> {}).openWindowCount())
                .isZero();
        assertThat(s512.get(0)).isEqualTo(runBatchedState(ios, 1, grace));
    }

    @Test
    void lateIosAreCountedPerOpAndNotAddedToClosedWindows() {
        List<WindowResult> out = new ArrayList<>();
        RunWindowAggregator agg = new RunWindowAggregator(S, 500 * MS, LatencyBins.iometer(), out::add);
        assertThat(agg.add(IoOpCode.READ, 0, 100 * MS, 4096, 50_000, 0)).isTrue();
        assertThat(agg.add(IoOpCode.WRITE, 0, 1_400 * MS, 4096, 50_000, 0)).isTrue();
        assertThat(out).isEmpty(); // watermark 0.9 s < 1 s
        assertThat(agg.add(IoOpCode.READ, 0, 1_600 * MS, 4096, 50_000, 0)).isTrue();
        assertThat(out).hasSize(1); // watermark 1.1 s closes [0, 1 s)
        assertThat(out.get(0).windowStartNs()).isZero();
        assertThat(agg.add(IoOpCode.READ, 0, 900 * MS, 4096, 50_000, 0)).isFalse();
        assertThat(agg.add(IoOpCode.WRITE, 0, 999 * MS, 4096, 50_000, 0)).isFalse();
        assertThat(agg.add(IoOpCode.READ, 0, 1_000 * MS, 4096, 50_000, 0)).isTrue(); // [1 s, 2 s) still open
        assertThat(agg.lateIoCount(IoOpCode.READ)).isEqualTo(1);
        assertThat(agg.lateIoCount(IoOpCode.WRITE)).isEqualTo(1);
        assertThat(agg.lateIoCount()).isEqualTo(2);
        assertThat(out.get(0).ioCount()).isEqualTo(1);
        agg.flushAll();
        assertThat(out).hasSize(3);
        assertThat(out.get(1).op()).isEqualTo(IoOpCode.READ);
        assertThat(out.get(1).ioCount()).isEqualTo(2);
        assertThat(out.get(2).op()).isEqualTo(IoOpCode.WRITE);
        assertThat(agg.add(IoOpCode.READ, 0, 1_700 * MS, 4096, 50_000, 0)).isFalse();
        assertThat(agg.closedIoCount(IoOpCode.READ)).isEqualTo(3);
        assertThat(agg.closedWindowCount(IoOpCode.READ)).isEqualTo(2);
        assertThat(agg.closedBytes(IoOpCode.WRITE)).isEqualTo(4096);
        assertThat(agg.openWindowCount()).isZero();
    }

    @Test
    void phaseIsThatOfTheLatestCompletionWhateverTheOrder() {
        List<WindowResult> a = new ArrayList<>();
        List<WindowResult> b = new ArrayList<>();
        RunWindowAggregator first = new RunWindowAggregator(S, S, LatencyBins.iometer(), a::add);
        RunWindowAggregator second = new RunWindowAggregator(S, S, LatencyBins.iometer(), b::add);
        first.add(IoOpCode.READ, 3, 100, 1, 10, 0);
        first.add(IoOpCode.READ, 2, 50, 1, 10, 0);
        second.add(IoOpCode.READ, 2, 50, 1, 10, 0);
        second.add(IoOpCode.READ, 3, 100, 1, 10, 0);
        first.flushAll();
        second.flushAll();
        assertThat(a.get(0).phaseIndex()).isEqualTo(3);
        assertThat(b).isEqualTo(a);
    }

    @Test
    void customWindowSizeAndErrors() {
        List<WindowResult> out = new ArrayList<>();
        RunWindowAggregator agg = new RunWindowAggregator(250 * MS, 0, LatencyBins.iometer(), out::add);
        agg.add(IoOpCode.TRIM, 0, 10 * MS, 1 << 20, 2 * MS, 0);
        agg.add(IoOpCode.TRIM, 0, 240 * MS, 1 << 20, 3 * MS, 1);
        agg.add(IoOpCode.TRIM, 0, 260 * MS, 1 << 20, 3 * MS, 0);
        assertThat(out).hasSize(1);
        WindowResult w = out.get(0);
        assertThat(w.windowSizeNs()).isEqualTo(250 * MS);
        assertThat(w.ioCount()).isEqualTo(2);
        assertThat(w.errorCount()).isEqualTo(1);
        assertThat(w.iops()).isEqualTo(8.0);
        assertThat(w.mbPerSec()).isEqualTo(2 * 1_048_576 / 1e6 * 4);
        assertThat(w.latency().maxNs()).isEqualTo(3 * MS);
    }

    @Test
    void stateRoundTripKeepsWatermarkAndLateCounts() {
        List<WindowResult> out = new ArrayList<>();
        RunWindowAggregator agg = new RunWindowAggregator(S, 100 * MS, LatencyBins.parse("1ms,10ms"), out::add);
        agg.add(IoOpCode.READ, 0, 500 * MS, 4096, 1_000, 0);
        agg.add(IoOpCode.READ, 0, 2_500 * MS, 4096, 2 * MS, 0);
        agg.add(IoOpCode.WRITE, 0, 100 * MS, 4096, 1_000, 0); // late
        byte[] state = agg.encodeState();
        RunWindowAggregator restored = RunWindowAggregator.decodeState(state, out::add);
        assertThat(restored.encodeState()).isEqualTo(state);
        assertThat(restored.watermarkNs()).isEqualTo(2_400 * MS);
        assertThat(restored.lateIoCount(IoOpCode.WRITE)).isEqualTo(1);
        assertThat(restored.bins()).isEqualTo(LatencyBins.parse("1ms,10ms"));
        assertThat(restored.openWindowCount()).isEqualTo(1);
        assertThatThrownBy(() -> RunWindowAggregator.decodeState(new byte[] {2, 2}, out::add))
                .hasMessageContaining("truncated");
    }

    @Test
    void restoredWindowsEncodeIdenticallyAndCloseAsTheLiveOnes() {
        List<Io> ios = stream(6, 5_000);
        RunWindowAggregator live = new RunWindowAggregator(S, 3 * S, LatencyBins.iometer(), w -> {});
        for (Io io : ios.subList(0, 4_000)) {
            live.add(io.op(), io.phase(), io.completionNs(), io.sizeBytes(), io.latencyNs(), io.status());
        }
        byte[] state = live.encodeState();
        RunWindowAggregator restored = RunWindowAggregator.decodeState(state, w -> {});
        assertThat(restored.encodeState()).isEqualTo(state);
        List<WindowResult> fromLive = new ArrayList<>();
        List<WindowResult> fromRestored = new ArrayList<>();
        live.setOnClosed(fromLive::add);
        restored.setOnClosed(fromRestored::add);
        for (Io io : ios.subList(4_000, 5_000)) {
            live.add(io.op(), io.phase(), io.completionNs(), io.sizeBytes(), io.latencyNs(), io.status());
            restored.add(io.op(), io.phase(), io.completionNs(), io.sizeBytes(), io.latencyNs(), io.status());
        }
        assertThat(restored.encodeState()).isEqualTo(live.encodeState());
        live.flushAll();
        restored.flushAll();
        assertThat(fromRestored).isNotEmpty().isEqualTo(fromLive);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new RunWindowAggregator(0, 0, LatencyBins.iometer(), w -> {}))
                .hasMessageContaining("windowSizeNs");
        assertThatThrownBy(() -> new RunWindowAggregator(S, -1, LatencyBins.iometer(), w -> {}))
                .hasMessageContaining("graceNs");
        RunWindowAggregator agg = new RunWindowAggregator(S, 0, LatencyBins.iometer(), w -> {});
        assertThatThrownBy(() -> agg.add(7, 0, 0, 1, 1, 0)).hasMessageContaining("op code");
        assertThatThrownBy(() -> agg.add(0, 0, 0, -1, 1, 0)).hasMessageContaining("sizeBytes");
        assertThatThrownBy(() -> agg.add(0, 0, 0, 1, -1, 0)).hasMessageContaining("latencyNs");
        assertThat(agg.openWindowCount()).isZero();
    }

    @Test
    void reportsStateSize() {
        List<Io> ios = stream(4, 3_000);
        RunWindowAggregator agg = new RunWindowAggregator(S, 2 * S, LatencyBins.iometer(), w -> {});
        for (Io io : ios) {
            agg.add(io.op(), io.phase(), io.completionNs(), io.sizeBytes(), io.latencyNs(), io.status());
        }
        byte[] state = agg.encodeState();
        System.out.printf("aggregator state with %d open windows: %d B%n", agg.openWindowCount(), state.length);
        assertThat(state.length).isLessThan(64 * 1024);
    }
}
