package dev.ssdpulse.producer.sim.nand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** A host read waits for the operations already issued on its plane, never for queued work (GC, host programs). */
class PlaneSchedulerTest {

    /** Queues {@code durationNs} behind everything on plane 0 at {@code atNs}; @return its end. */
    private static long queue(PlaneScheduler s, long atNs, long durationNs) {
        long start = s.queuedStartNs(0, atNs, atNs);
        s.appendQueued(0, start, start + durationNs, atNs);
        return start + durationNs;
    }

    private static long read(PlaneScheduler s, long atNs, long durationNs) {
        long start = s.priorityStartNs(0, atNs);
        s.insertPriority(0, start, durationNs, start + durationNs);
        return start + durationNs;
    }

    @Test
    void aReadOvertakesQueuedGcWorkAndWaitsOnlyForTheOperationInProgress() {
        var s = new PlaneScheduler(1);
        // a GC victim booked at t=0: ten 1 ms copies, then a 3.8 ms erase (13.8 ms in all)
        for (int i = 0; i < 10; i++) {
            queue(s, 0, 1_000_000);
        }
        assertThat(queue(s, 0, 3_800_000)).isEqualTo(13_800_000);
        // at 2.5 ms the third copy is in progress: the read starts when it ends (3 ms), not after 13.8 ms
        assertThat(read(s, 2_500_000, 50_000)).isEqualTo(3_050_000);
        // a second read at once queues behind the first (issued), still ahead of the seven copies left
        assertThat(read(s, 2_600_000, 50_000)).isEqualTo(3_100_000);
        // the GC work is not lost: everything queued moved back by the two reads
        assertThat(s.busyUntilNs(0)).isEqualTo(13_900_000);
        // a host program queues behind all of it: the GC work was booked before it
        assertThat(queue(s, 3_000_000, 1_300_000)).isEqualTo(15_200_000);
        // the erase now runs 10.1 .. 13.9 ms: a read during it waits for the erase only, not the program behind it
        assertThat(read(s, 13_000_000, 50_000)).isEqualTo(13_900_000 + 50_000);
        assertThat(s.busyUntilNs(0)).isEqualTo(15_250_000);
    }

    /**
     * The flash timeline: a GC victim booked copy step by copy step (a page read and the page it fills), then the
     * erase, then a host read on the same plane: it waits for the copy step in progress only; a host program
     * queues behind the erase.
     */
    @Test
    void aReadWaitsForTheCopyInProgressAProgramForTheErase() {
        var geometry = new NandGeometry(1, 1, 1, 16, 4, 8192);
        var timing = new NandTiming(50_000, 1_300_000, 3_800_000, 400);
        var flash = new FlashTimeline(geometry, timing, 550);
        long transferNs = timing.channelTransferNs(8192);
        flash.hostTransfer(4096, 0, 0); // the host's latest command: t = 0
        long lastNs = 0;
        for (int i = 0; i < 4; i++) {
            lastNs = flash.copyStep(0, 8192, 0, 0, 1, 8192, 0); // a page read and the page it fills
        }
        long eraseEndNs = flash.erase(0, lastNs);
        // each copy step: a read of 50 us + 20.48 us out, then the 1.3 ms program: at 2 ms the second step
        // (1.37 .. 2.74 ms) is in progress, and a read issued then starts when it ends
        assertThat(transferNs).isEqualTo(20_480);
        flash.hostTransfer(4096, 2_000_000, 2_000_000);
        long readNs = flash.read(0, 4096, 2_000_000);
        assertThat(readNs).isEqualTo(2 * (70_480 + 1_300_000) + 50_000 + timing.channelTransferNs(4096));
        assertThat(eraseEndNs).isEqualTo(4 * (70_480 + 1_300_000) + 3_800_000);
        // the program queues behind the erase, which moved back by the read (its array time and its transfer out,
        // which holds the register)
        long programNs = flash.program(0, 8192, 2_000_000);
        assertThat(programNs).isEqualTo(eraseEndNs + 50_000 + timing.channelTransferNs(4096) + 1_300_000);
    }

    @Test
    void anIdlePlaneServesAReadAtOnce() {
        var s = new PlaneScheduler(2);
        queue(s, 0, 1_000_000);
        assertThat(read(s, 5_000_000, 50_000)).isEqualTo(5_050_000);
        long start = s.priorityStartNs(1, 0);
        assertThat(start).isZero();
    }

    @Test
    void aPriorityOperationCannotStartBeforeTheIssuedOnesEnd() {
        var s = new PlaneScheduler(1);
        read(s, 0, 1_000);
        assertThatThrownBy(() -> s.insertPriority(0, 500, 100, 600))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("before the issued ones end");
    }

    /**
     * Random mixes of queued operations and reads at non-decreasing times: a read never waits for more than
     * the reads issued before it and one queued operation (the one in progress when it was issued), and the
     * plane ends when all the work, reads included, is done back to back (every operation is issued while the
     * plane is busy, so there is no idle time to leave out).
     */
    @Test
    void readsWaitForNothingQueuedAndThePlaneTimeIsConserved() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            var s = new PlaneScheduler(1);
            long totalNs = 0;
            long now = 0;
            long lastReadEndNs = 0;
            long longestQueuedNs = 0;
            for (int i = 0; i < 300; i++) {
                if (random.nextInt(4) == 0) {
                    long d = 20_000 + random.nextInt(80_000);
                    long start = s.priorityStartNs(0, now);
                    assertThat(start)
                            .as("round %d op %d", round, i)
                            .isLessThanOrEqualTo(Math.max(lastReadEndNs, now + longestQueuedNs));
                    s.insertPriority(0, start, d, start + d);
                    lastReadEndNs = start + d;
                    totalNs += d;
                } else {
                    long d = 100_000 + random.nextInt(3_800_000);
                    longestQueuedNs = Math.max(longestQueuedNs, d);
                    long start = s.queuedStartNs(0, now, now);
                    s.appendQueued(0, start, start + d, now);
                    totalNs += d;
                }
                now = Math.min(now + random.nextInt(200_000), s.busyUntilNs(0) - 1);
            }
            assertThat(s.busyUntilNs(0)).as("round %d", round).isEqualTo(totalNs);
        }
    }

    /**
     * A plane that is never read (a write-only stream, each program issued while the one before runs) keeps only
     * the operations not started yet and still adds their time exactly.
     */
    @Test
    void aWriteOnlyPlaneKeepsOnlyWhatHasNotStarted() {
        var s = new PlaneScheduler(1);
        long end = 0;
        for (int i = 0; i < 100_000; i++) {
            end = queue(s, Math.max(0, end - 1_000), 1_300_000);
        }
        assertThat(end).isEqualTo(100_000L * 1_300_000);
        assertThat(s.queuedOps(0)).isLessThanOrEqualTo(2);
    }
}
