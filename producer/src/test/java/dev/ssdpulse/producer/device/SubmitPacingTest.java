package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rate limit on a synthetic clock: exact counts, no wall-clock band. */
class SubmitPacingTest {
    private static final long MS = 1_000_000L;

    /** A worker that submits as soon as it may, its clock advancing by {@code serviceNs} per submit. */
    private static int submitsWithin(long spanNs, long delayNs, long serviceNs, long startNs) {
        long now = startNs;
        long last = SubmitPacing.NONE;
        int submits = 0;
        while (true) {
            long scheduled = SubmitPacing.scheduledNanos(last, delayNs, now);
            if (scheduled - startNs >= spanNs) {
                return submits;
            }
            last = scheduled;
            now = scheduled + serviceNs;
            submits++;
        }
    }

    @Test
    void twoThousandIopsForOneSecondIsTwoThousandSubmits() {
        assertThat(submitsWithin(1_000 * MS, 500_000, 10_000, 0)).isEqualTo(2_000);
        // a device slower than the limit sets the pace itself (1 ms per I/O: 1,000 in a second)
        assertThat(submitsWithin(1_000 * MS, 500_000, 1 * MS, 0)).isEqualTo(1_000);
    }

    @Test
    void unpacedRequestsGoNow() {
        assertThat(SubmitPacing.scheduledNanos(SubmitPacing.NONE, 500_000, 42)).isEqualTo(42);
        assertThat(SubmitPacing.scheduledNanos(10, 0, 42)).isEqualTo(42);
        assertThat(SubmitPacing.scheduledNanos(40, 500_000, 42)).isEqualTo(500_040);
    }

    @Test
    void aWorkerThatFellBehindGetsNoBurst() {
        // the previous submit was scheduled 10 ms ago (a stall): the next goes now, the one after a full delay later
        long now = 100 * MS;
        long next = SubmitPacing.scheduledNanos(now - 10 * MS, MS, now);
        assertThat(next).isEqualTo(now);
        assertThat(SubmitPacing.scheduledNanos(next, MS, now)).isEqualTo(now + MS);
    }

    @Test
    void nanoTimeMayWrap() {
        assertThat(submitsWithin(1_000 * MS, 500_000, 10_000, Long.MAX_VALUE - 300 * MS))
                .isEqualTo(2_000);
    }
}
