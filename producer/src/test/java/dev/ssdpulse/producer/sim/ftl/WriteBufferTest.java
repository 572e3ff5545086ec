package dev.ssdpulse.producer.sim.ftl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WriteBufferTest {

    @Test
    void aUnitWaitsForItsOwnPlanesEarliestReleaseOnly() {
        WriteBuffer buffer = new WriteBuffer(2, 2);
        assertThat(buffer.acquire(0, 0)).isZero();
        assertThat(buffer.acquire(0, 0)).isZero();
        buffer.release(0, 2, 5_000); // plane 0's page is programmed at 5 us
        assertThat(buffer.acquire(1, 10)).as("plane 1 has its own slots").isEqualTo(10);
        assertThat(buffer.acquire(0, 10)).as("plane 0 waits for its page").isEqualTo(5_000);
        assertThat(buffer.drainedAtNs()).isEqualTo(5_000);
    }

    @Test
    void slotsFreeInProgramOrder() {
        WriteBuffer buffer = new WriteBuffer(1, 2);
        buffer.acquire(0, 0);
        buffer.release(0, 1, 900);
        buffer.acquire(0, 0);
        buffer.release(0, 1, 400); // a release earlier than the one before is held to it
        assertThat(buffer.acquire(0, 0)).isEqualTo(900);
        assertThat(buffer.acquire(0, 0)).isEqualTo(900);
    }

    /** Random pages on random planes against a plain per-plane queue of releases. */
    @Test
    void matchesAPlainQueuePerPlane() {
        SplittableRandom random = new SplittableRandom(13);
        for (int round = 0; round < 100; round++) {
            int planes = 1 + random.nextInt(4);
            int share = 2 + random.nextInt(30);
            WriteBuffer buffer = new WriteBuffer(planes, share);
            @SuppressWarnings("unchecked")
            ArrayDeque<long[]>[] reference = new ArrayDeque[planes];
            int[] used = new int[planes];
            long[] last = new long[planes];
            for (int p = 0; p < planes; p++) {
                reference[p] = new ArrayDeque<>();
            }
            long now = 0;
            for (int step = 0; step < 2_000; step++) {
                int plane = random.nextInt(planes);
                int units = 1 + random.nextInt(Math.min(4, share / 2 + 1));
                long at = now;
                for (int u = 0; u < units; u++) {
                    long expected = at;
                    while (!reference[plane].isEmpty() && reference[plane].peekFirst()[0] <= expected) {
                        used[plane] -= (int) reference[plane].pollFirst()[1];
                    }
                    while (used[plane] >= share) {
                        long[] r = reference[plane].pollFirst();
                        expected = Math.max(expected, r[0]);
                        used[plane] -= (int) r[1];
                    }
                    used[plane]++;
                    assertThat(buffer.acquire(plane, at))
                            .as("round %d step %d", round, step)
                            .isEqualTo(expected);
                    at = expected;
                }
                long releaseNs = at + 10 * random.nextInt(100);
                last[plane] = Math.max(last[plane], releaseNs);
                reference[plane].addLast(new long[] {last[plane], units});
                buffer.release(plane, units, releaseNs);
                now += random.nextInt(30);
            }
        }
    }

    @Test
    void refusesBadSizesAndReleases() {
        assertThatThrownBy(() -> new WriteBuffer(4, 1)).isInstanceOf(IllegalArgumentException.class);
        WriteBuffer buffer = new WriteBuffer(1, 1024);
        assertThatThrownBy(() -> buffer.release(0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> buffer.release(0, 5000, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
