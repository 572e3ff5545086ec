package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.management.ThreadMXBean;
import dev.ssdpulse.producer.io.IoRequest;
import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WorkloadGeneratorsTest {
    private static final long TARGET = 1L << 30;

    private static PhaseSpec.Builder phase(AccessSpec... specs) {
        return PhaseSpec.builder("p", PhaseKind.TEST)
                .accessSpecs(List.of(specs))
                .durationNs(1_000_000_000L);
    }

    @Test
    void deterministicForASeedAndDistinctPerWorker() {
        PhaseSpec p = phase(AccessSpec.of(4096, 100, 50, 100)).workers(2).build();
        long[] a = offsets(WorkloadGenerators.forPhase(p, 0, 42, TARGET), 1000);
        long[] b = offsets(WorkloadGenerators.forPhase(p, 0, 42, TARGET), 1000);
        long[] c = offsets(WorkloadGenerators.forPhase(p, 1, 42, TARGET), 1000);
        long[] d = offsets(WorkloadGenerators.forPhase(p, 0, 43, TARGET), 1000);
        assertThat(a).isEqualTo(b).isNotEqualTo(c).isNotEqualTo(d);
    }

    @Test
    void randomOffsetsAreAlignedInsideTheSpanAndMixesFollowThePercentages() {
        PhaseSpec p = phase(
                        new AccessSpec(4096, 75, 70, 100, 4096, 0, 1), new AccessSpec(65536, 25, 0, 100, 65536, 0, 1))
                .span(new Span(Amount.ofBytes(1 << 20), Amount.ofBytes(64L << 20)))
                .build();
        RequestGenerator g = WorkloadGenerators.forPhase(p, 0, 1, TARGET);
        IoRequest r = new IoRequest();
        int n = 200_000, reads = 0, small = 0;
        for (int i = 0; i < n; i++) {
            assertThat(g.next(r)).isTrue();
            assertThat(r.offsetBytes).isBetween(1L << 20, (65L << 20) - r.sizeBytes);
            assertThat((r.offsetBytes - (1 << 20)) % r.sizeBytes).isZero();
            if (r.sizeBytes == 4096) {
                small++;
                if (r.op == IoOpCode.READ) {
                    reads++;
                }
            } else {
                assertThat(r.op).isEqualTo(IoOpCode.WRITE);
            }
            assertThat(r.delayNs).isZero();
        }
        assertThat(small / (double) n).isCloseTo(0.75, within(0.01));
        assertThat(reads / (double) small).isCloseTo(0.70, within(0.01));
    }

    @Test
    void uniformRandomCoversTheSpanEvenly() {
        PhaseSpec p = phase(AccessSpec.of(4096, 100, 0, 100))
                .span(new Span(Amount.ofBytes(0), Amount.ofBytes(16 * 4096)))
                .build();
        RequestGenerator g = WorkloadGenerators.forPhase(p, 0, 5, TARGET);
        IoRequest r = new IoRequest();
        int[] counts = new int[16];
        for (int i = 0; i < 160_000; i++) {
            g.next(r);
            counts[(int) (r.offsetBytes / 4096)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(9_500, 10_500);
        }
    }

    @Test
    void sequentialContinuesAndWrapsAtTheSpanEnd() {
        PhaseSpec p = phase(AccessSpec.of(131072, 100, 0, 0))
                .span(new Span(Amount.ofBytes(4096), Amount.ofBytes(3 * 131072 + 4096)))
                .build();
        long[] offsets = offsets(WorkloadGenerators.forPhase(p, 0, 1, TARGET), 7);
        assertThat(offsets)
                .containsExactly(4096, 4096 + 131072, 4096 + 2 * 131072, 4096, 4096 + 131072, 4096 + 2 * 131072, 4096);
    }

    @Test
    void splitGivesEachWorkerItsSliceAndTheBudgetEndsAPass() {
        // the SNIA precondition shape: sequential 128 KiB writes, 2x the span, split over 4 workers
        long span = 64L << 20;
        PhaseSpec p = PhaseSpec.builder("wipc", PhaseKind.PRECONDITION_INDEPENDENT)
                .accessSpec(AccessSpec.of(131072, 100, 0, 0))
                .workers(4)
                .spanSharing(SpanSharing.SPLIT)
                .span(new Span(Amount.ofBytes(0), Amount.ofBytes(span)))
                .totalBytes(Amount.ofPercent(200))
                .build();
        long total = 0;
        for (int w = 0; w < 4; w++) {
            RequestGenerator g = WorkloadGenerators.forPhase(p, w, 9, TARGET);
            IoRequest r = new IoRequest();
            long bytes = 0;
            long[] perSlot = new long[(int) (span / 131072)];
            while (g.next(r)) {
                assertThat(r.offsetBytes).isBetween(w * span / 4, (w + 1) * span / 4 - 131072);
                perSlot[(int) (r.offsetBytes / 131072)]++;
                bytes += r.sizeBytes;
            }
            assertThat(bytes).isEqualTo(2 * span / 4);
            for (int s = (int) (w * span / 4 / 131072); s < (w + 1) * span / 4 / 131072; s++) {
                assertThat(perSlot[s]).isEqualTo(2); // every block written exactly twice
            }
            total += bytes;
        }
        assertThat(total).isEqualTo(2 * span);
    }

    @Test
    void rateLimitAndBurstDelayBecomeDelayNs() {
        PhaseSpec rate = phase(AccessSpec.of(4096, 100, 100, 100))
                .workers(3)
                .rateLimitIops(OptionalLong.of(7000))
                .build();
        RequestGenerator g = WorkloadGenerators.forPhase(rate, 0, 1, TARGET);
        IoRequest r = new IoRequest();
        long sum = 0;
        for (int i = 0; i < 7000; i++) {
            g.next(r);
            assertThat(r.delayNs).isBetween(428_571L, 428_572L);
            sum += r.delayNs;
        }
        assertThat(sum).isEqualTo(3_000_000_000L); // 7000 requests of one of 3 workers at 7000 IOPS total: exactly 3 s

        PhaseSpec burst =
                phase(new AccessSpec(4096, 100, 100, 100, 4096, 2_000_000, 4)).build();
        g = WorkloadGenerators.forPhase(burst, 0, 1, TARGET);
        for (int i = 1; i <= 12; i++) {
            g.next(r);
            assertThat(r.delayNs).isEqualTo(i % 4 == 0 ? 2_000_000 : 0);
        }
    }

    @Test
    void trimPhasesIssueTrimInsteadOfWritesAndIdleHasNoRequests() {
        PhaseSpec trim = PhaseSpec.builder("trim-all", PhaseKind.PURGE)
                .accessSpec(AccessSpec.of(1 << 20, 100, 0, 0))
                .trim(true)
                .totalBytes(Amount.ofPercent(100))
                .build();
        RequestGenerator g = WorkloadGenerators.forPhase(trim, 0, 1, 8L << 20);
        IoRequest r = new IoRequest();
        int n = 0;
        while (g.next(r)) {
            assertThat(r.op).isEqualTo(IoOpCode.TRIM);
            n++;
        }
        assertThat(n).isEqualTo(8);
        PhaseSpec idle = PhaseSpec.builder("idle", PhaseKind.IDLE).durationNs(5).build();
        assertThat(WorkloadGenerators.forPhase(idle, 0, 1, TARGET).next(r)).isFalse();
    }

    @Test
    void zipfConcentratesOnFewSlotsSpreadOverTheSpan() {
        PhaseSpec p = phase(AccessSpec.of(4096, 100, 100, 100))
                .distribution(Distribution.zipf(1.2))
                .span(new Span(Amount.ofBytes(0), Amount.ofBytes(4096L * 100_000)))
                .build();
        RequestGenerator g = WorkloadGenerators.forPhase(p, 0, 3, TARGET);
        IoRequest r = new IoRequest();
        Map<Long, Integer> counts = new HashMap<>();
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            g.next(r);
            counts.merge(r.offsetBytes, 1, Integer::sum);
        }
        int[] sorted =
                counts.values().stream().mapToInt(Integer::intValue).sorted().toArray();
        double h = 0; // generalised harmonic number H(100000, 1.2): P(rank k) = k^-1.2 / h
        for (int k = 1; k <= 100_000; k++) {
            h += Math.pow(k, -1.2);
        }
        assertThat(sorted[sorted.length - 1] / (double) n).isCloseTo(1 / h, within(0.005));
        assertThat(sorted[sorted.length - 2] / (double) n).isCloseTo(Math.pow(2, -1.2) / h, within(0.004));
        assertThat(sorted[sorted.length - 10] / (double) n).isCloseTo(Math.pow(10, -1.2) / h, within(0.002));
        long hottest = counts.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        assertThat(hottest).isNotZero(); // permuted away from the span start
    }

    @Test
    void spanOutsideTheTargetIsRejected() {
        PhaseSpec p = phase(AccessSpec.of(4096, 100, 100, 100))
                .span(new Span(Amount.ofBytes(0), Amount.ofBytes(2L << 30)))
                .build();
        assertThatThrownBy(() -> WorkloadGenerators.forPhase(p, 0, 1, TARGET))
                .hasMessageContaining("span [0, 2147483648) is not inside a target of 1073741824 B");
        assertThatThrownBy(() -> WorkloadGenerators.forPhase(p, 1, 1, TARGET))
                .hasMessageContaining("worker 1 is not in 0..0");
    }

    /**
     * The hot path allocates nothing (asserted) and its throughput is printed for BENCHMARKS.md; speed is not
     * asserted: benchmarks are not timed tests on a shared machine.
     */
    @Test
    void generatorHotPathAllocatesNothing() {
        PhaseSpec p = phase(AccessSpec.of(4096, 100, 0, 100)).build();
        RequestGenerator g = WorkloadGenerators.forPhase(p, 0, 1, 1L << 40);
        IoRequest r = new IoRequest();
        long sink = 0;
        double best = 0;
        for (int round = 0; round < 8; round++) {
            int n = 10_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                g.next(r);
                sink += r.offsetBytes;
            }
            best = Math.max(best, n / ((System.nanoTime() - t0) / 1e9));
        }
        PhaseSpec z = phase(AccessSpec.of(4096, 100, 70, 100))
                .distribution(Distribution.zipf(1.1))
                .build();
        RequestGenerator gz = WorkloadGenerators.forPhase(z, 0, 1, 1L << 40);
        double bestZipf = 0;
        for (int round = 0; round < 5; round++) {
            int n = 5_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                gz.next(r);
                sink += r.offsetBytes;
            }
            bestZipf = Math.max(bestZipf, n / ((System.nanoTime() - t0) / 1e9));
        }
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 1_000_000; i++) {
            g.next(r);
            gz.next(r);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertThat(allocated).as("bytes allocated by 2 M next() calls").isLessThan(64 * 1024);
        System.out.printf(
                "generator throughput: uniform 4 KiB random %.1f M req/s, zipf(1.1) 70/30 %.1f M req/s (sink %d)%n",
                best / 1e6, bestZipf / 1e6, sink & 1);
    }

    private static long[] offsets(RequestGenerator g, int n) {
        IoRequest r = new IoRequest();
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            assertThat(g.next(r)).isTrue();
            out[i] = r.offsetBytes;
        }
        return out;
    }
}
