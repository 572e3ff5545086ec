package dev.ssdpulse.producer.sim.ftl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WriteBufferTest {

    /**
     * The buffer's heap was rewritten for speed (one packed array, Floyd's pop). Which of two releases with the
     * same time pops first decides whether a later write stamped earlier waits, so results depend on the heap
     * moving exactly as before: random pages of 1-4 units with many equal release times, acquired at times
     * that go back as well as forward, give the same acquire times as the heap of a536223.
     */
    @Test
    void acquireTimesMatchThePreviousHeapEvenForEqualReleaseTimes() {
        SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < 200; round++) {
            int capacity = 1 + random.nextInt(4) + (round % 4 == 0 ? random.nextInt(300) : 0);
            WriteBuffer buffer = new WriteBuffer(Math.max(4, capacity));
            ReferenceBuffer reference = new ReferenceBuffer(Math.max(4, capacity));
            long now = 0;
            for (int step = 0; step < 2_000; step++) {
                int units = 1 + random.nextInt(4);
                long at = Math.max(0, now - random.nextInt(50));
                long acked = 0;
                for (int u = 0; u < units; u++) {
                    long got = buffer.acquire(at);
                    assertThat(got).as("round %d step %d", round, step).isEqualTo(reference.acquire(at));
                    acked = Math.max(acked, got);
                    at = got;
                }
                long releaseNs = acked + 10 * random.nextInt(8); // coarse times: many equal releases
                buffer.release(units, releaseNs);
                reference.release(units, releaseNs);
                now = Math.max(now, acked) + random.nextInt(3);
            }
            assertThat(buffer.drainedAtNs()).isEqualTo(reference.drainedAtNs());
        }
    }

    @Test
    void refusesReleasesItCannotPack() {
        WriteBuffer buffer = new WriteBuffer(1024);
        assertThatThrownBy(() -> buffer.release(256, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> buffer.release(1, Long.MAX_VALUE >>> 8)).isInstanceOf(IllegalArgumentException.class);
    }

    /** The write buffer's heap as of a536223: times and unit counts in two arrays, the usual sift-down. */
    private static final class ReferenceBuffer {
        private final int capacityUnits;
        private final long[] releaseAtNs;
        private final int[] releaseUnits;
        private int size;
        private int usedUnits;
        private long lastReleaseNs;

        ReferenceBuffer(int capacityUnits) {
            this.capacityUnits = capacityUnits;
            this.releaseAtNs = new long[capacityUnits + 1];
            this.releaseUnits = new int[capacityUnits + 1];
        }

        long acquire(long atNs) {
            long t = atNs;
            while (size > 0 && releaseAtNs[0] <= t) {
                popMin();
            }
            while (usedUnits >= capacityUnits) {
                t = Math.max(t, releaseAtNs[0]);
                popMin();
            }
            usedUnits++;
            return t;
        }

        void release(int units, long atNs) {
            lastReleaseNs = Math.max(lastReleaseNs, atNs);
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (releaseAtNs[parent] <= atNs) {
                    break;
                }
                releaseAtNs[i] = releaseAtNs[parent];
                releaseUnits[i] = releaseUnits[parent];
                i = parent;
            }
            releaseAtNs[i] = atNs;
            releaseUnits[i] = units;
        }

        long drainedAtNs() {
            return lastReleaseNs;
        }

        private void popMin() {
            usedUnits -= releaseUnits[0];
            int last = --size;
            if (last == 0) {
                return;
            }
            long t = releaseAtNs[last];
            int u = releaseUnits[last];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= last) {
                    break;
                }
                if (child + 1 < last && releaseAtNs[child + 1] < releaseAtNs[child]) {
                    child++;
                }
                if (releaseAtNs[child] >= t) {
                    break;
                }
                releaseAtNs[i] = releaseAtNs[child];
                releaseUnits[i] = releaseUnits[child];
                i = child;
            }
            releaseAtNs[i] = t;
            releaseUnits[i] = u;
        }
    }
}
