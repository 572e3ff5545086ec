package dev.ssdpulse.streams.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LatencyScatterSamplerTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    record Io(int op, long completionNs, long latencyNs) {}

    /** I/Os over [0, seconds) s in completion order; about 3 % at or above 10 ms. */
    private static List<Io> ios(long seed, int seconds, int perSecond) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Io> out = new ArrayList<>();
        for (int i = 0; i < seconds * perSecond; i++) {
            long completion = (long) i * S / perSecond + r.nextLong(1000);
            long latency = r.nextInt(100) < 3 ? 10 * MS + r.nextLong(300 * MS) : 20_000 + r.nextLong(9 * MS);
            out.add(new Io(r.nextInt(2), completion, latency));
        }
        return out;
    }

    private static List<LatencyScatterSampler.Window> run(LatencyScatterSampler s, List<Io> ios) {
        List<LatencyScatterSampler.Window> out = new ArrayList<>();
        for (Io io : ios) {
            s.add(io.op(), io.completionNs(), io.latencyNs());
        }
        s.flushAll(out::add);
        return out;
    }

    private static String key(long completionNs, long latencyNs, int op) {
        return completionNs + "/" + latencyNs + "/" + op;
    }

    private static List<String> points(LatencyScatterSampler.Window w) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < w.pointCount(); i++) {
            out.add(key(w.windowStartNs() + w.completionOffsetsNs()[i], w.latenciesNs()[i], w.ops()[i]));
        }
        return out;
    }

    @Test
    void keepsEveryIoAtOrAboveTheThresholdAndAtMostTheSampleSizeBelowIt() {
        List<Io> ios = ios(7, 20, 5000);
        List<LatencyScatterSampler.Window> windows = run(new LatencyScatterSampler("run-a", S, 10 * MS, 200), ios);
        assertThat(windows).hasSize(20);
        TreeMap<Long, List<Io>> byWindow = new TreeMap<>();
        ios.forEach(io -> byWindow.computeIfAbsent(io.completionNs() / S, k -> new ArrayList<>())
                .add(io));
        for (LatencyScatterSampler.Window w : windows) {
            List<Io> in = byWindow.get(w.windowStartNs() / S);
            List<String> outliers = in.stream()
                    .filter(io -> io.latencyNs() >= 10 * MS)
                    .map(io -> key(io.completionNs(), io.latencyNs(), io.op()))
                    .toList();
            List<String> shown = points(w);
            assertThat(w.ioCount()).isEqualTo(in.size());
            assertThat(w.atOrAboveThresholdCount()).isEqualTo(outliers.size()).isGreaterThan(100);
            assertThat(w.keptAtOrAboveThresholdCount()).isEqualTo(outliers.size());
            assertThat(shown.stream().filter(outliers::contains).toList())
                    .as("every outlier exactly once")
                    .containsExactlyInAnyOrderElementsOf(outliers);
            assertThat(shown).hasSize(outliers.size() + 200).doesNotHaveDuplicates();
            List<String> all = in.stream()
                    .map(io -> key(io.completionNs(), io.latencyNs(), io.op()))
                    .toList();
            assertThat(all).containsAll(shown);
            for (int i = 1; i < w.pointCount(); i++) {
                assertThat(w.completionOffsetsNs()[i])
                        .as("completion order")
                        .isGreaterThanOrEqualTo(w.completionOffsetsNs()[i - 1]);
            }
            assertThat(Arrays.stream(w.completionOffsetsNs()).boxed().toList())
                    .allSatisfy(o -> assertThat(o).isBetween(0L, S - 1));
        }
    }

    @Test
    void keepsEveryIoOfAWindowWithFewerIosThanTheSampleSize() {
        List<Io> ios = ios(3, 3, 150);
        List<LatencyScatterSampler.Window> windows = run(new LatencyScatterSampler("run-a", S, 10 * MS, 200), ios);
        assertThat(windows.stream()
                        .mapToInt(LatencyScatterSampler.Window::pointCount)
                        .sum())
                .isEqualTo(ios.size());
    }

    @Test
    void theSampleDependsOnTheIosOnlyNotOnTheirOrderButOnTheRun() {
        List<Io> ios = ios(11, 5, 4000);
        List<Io> shuffled = new ArrayList<>(ios);
        Collections.shuffle(shuffled, new Random(5));
        List<LatencyScatterSampler.Window> a = run(new LatencyScatterSampler("run-a", S, 10 * MS, 200), ios);
        List<LatencyScatterSampler.Window> b = run(new LatencyScatterSampler("run-a", S, 10 * MS, 200), shuffled);
        assertThat(a).hasSameSizeAs(b);
        for (int i = 0; i < a.size(); i++) {
            assertThat(points(b.get(i))).isEqualTo(points(a.get(i)));
        }
        List<LatencyScatterSampler.Window> other = run(new LatencyScatterSampler("run-b", S, 10 * MS, 200), ios);
        assertThat(points(other.get(0))).isNotEqualTo(points(a.get(0)));
    }

    @Test
    void theSampleIsUniform() {
        // 4,000 I/Os per window, 200 sampled: each half of a window and each op holds about half of the sample
        List<Io> ios = ios(13, 100, 4000);
        long firstHalf = 0;
        long reads = 0;
        long below = 0;
        for (LatencyScatterSampler.Window w : run(new LatencyScatterSampler("run-u", S, 10 * MS, 200), ios)) {
            for (int i = 0; i < w.pointCount(); i++) {
                if (w.latenciesNs()[i] < 10 * MS) {
                    below++;
                    firstHalf += w.completionOffsetsNs()[i] < S / 2 ? 1 : 0;
                    reads += w.ops()[i] == 0 ? 1 : 0;
                }
            }
        }
        assertThat(below).isEqualTo(100 * 200);
        assertThat((double) firstHalf / below).isBetween(0.48, 0.52);
        assertThat((double) reads / below).isBetween(0.48, 0.52);
    }

    @Test
    void capsTheOutliersOfAPathologicalWindowWithAUniformSampleAndSaysSo() {
        LatencyScatterSampler s = new LatencyScatterSampler(42, S, 10 * MS, 3, 5);
        for (int i = 0; i < 50; i++) {
            s.add(1, i * 1000L, 20 * MS + i);
            s.add(0, i * 1000L + 1, 1000 + i);
        }
        List<LatencyScatterSampler.Window> out = new ArrayList<>();
        s.flushAll(out::add);
        LatencyScatterSampler.Window w = out.get(0);
        assertThat(w.ioCount()).isEqualTo(100);
        assertThat(w.atOrAboveThresholdCount()).isEqualTo(50);
        assertThat(w.keptAtOrAboveThresholdCount()).isEqualTo(5);
        assertThat(w.pointCount()).isEqualTo(8);
    }

    @Test
    void closesWindowsUpToALimitInStartOrderAndResumesFromItsEncodedState() {
        List<Io> ios = ios(17, 6, 3000);
        List<LatencyScatterSampler.Window> whole = run(new LatencyScatterSampler("run-s", S, 10 * MS, 50), ios);

        LatencyScatterSampler first = new LatencyScatterSampler("run-s", S, 10 * MS, 50);
        List<LatencyScatterSampler.Window> resumed = new ArrayList<>();
        int half = ios.size() / 2 + 123;
        for (Io io : ios.subList(0, half)) {
            first.add(io.op(), io.completionNs(), io.latencyNs());
        }
        first.closeUpTo(2 * S, resumed::add);
        assertThat(resumed)
                .extracting(LatencyScatterSampler.Window::windowStartNs)
                .containsExactly(0L, S);
        assertThat(first.nextCloseEndNs()).isEqualTo(3 * S);
        BinaryWriter out = new BinaryWriter(1024);
        first.encodeInto(out);
        BinaryReader in = new BinaryReader(out.toByteArray(), "test");
        LatencyScatterSampler second = LatencyScatterSampler.decodeFrom(in);
        in.expectEnd();
        for (Io io : ios.subList(half, ios.size())) {
            second.add(io.op(), io.completionNs(), io.latencyNs());
        }
        second.flushAll(resumed::add);
        assertThat(resumed).hasSameSizeAs(whole);
        for (int i = 0; i < whole.size(); i++) {
            assertThat(points(resumed.get(i))).isEqualTo(points(whole.get(i)));
            assertThat(resumed.get(i).ioCount()).isEqualTo(whole.get(i).ioCount());
        }
        assertThat(second.nextCloseEndNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new LatencyScatterSampler("r", 0, 10 * MS, 200))
                .hasMessageContaining("windowSizeNs");
        assertThatThrownBy(() -> new LatencyScatterSampler("r", S, -1, 200)).hasMessageContaining("thresholdNs");
        assertThatThrownBy(() -> new LatencyScatterSampler("r", S, 10 * MS, -1)).hasMessageContaining("sample");
    }

    @Test
    void atOrAboveIsTheSignedComparisonForEveryPairIncludingOverflowingDifferences() {
        long[] edges = {
            Long.MIN_VALUE,
            Long.MIN_VALUE + 1,
            -10 * MS,
            -1,
            0,
            1,
            10 * MS - 1,
            10 * MS,
            10 * MS + 1,
            Long.MAX_VALUE - 1,
            Long.MAX_VALUE
        };
        for (long a : edges) {
            for (long b : edges) {
                assertThat(LatencyScatterSampler.atOrAbove(a, b))
                        .as("%d >= %d", a, b)
                        .isEqualTo(a >= b ? 1 : 0);
            }
        }
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            long a = r.nextLong();
            long b = i % 2 == 0 ? r.nextLong() : a + r.nextInt(3) - 1;
            assertThat(LatencyScatterSampler.atOrAbove(a, b)).isEqualTo(a >= b ? 1 : 0);
        }
    }
}
