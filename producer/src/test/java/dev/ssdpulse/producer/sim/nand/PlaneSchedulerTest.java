package dev.ssdpulse.producer.sim.nand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 13 item 4: a host read, and a host page program while the drive has erased blocks to spare, waits for
 * the operations already issued on its plane, never for queued GC work; a host program in the urgent case
 * (erased blocks short) queues behind all of it, erases included.
 */
class PlaneSchedulerTest {

    /** Queues {@code durationNs} behind everything on plane 0 at {@code atNs}; @return its end. */
    private static long queue(PlaneScheduler s, long atNs, long durationNs) {
        long start = s.queuedStartNs(0, atNs, atNs);
        s.appendQueued(0, start, start + durationNs, atNs);
        return start + durationNs;
    }

    /** As {@link #queue}, an erase (counted by {@link PlaneScheduler#queuedErases} until it starts). */
    private static long queueErase(PlaneScheduler s, long atNs, long durationNs) {
        long start = s.queuedStartNs(0, atNs, atNs);
        s.appendQueued(0, start, start + durationNs, atNs, true);
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
        // a host program in the urgent case queues behind all of it, as writes then wait for the GC work booked before
        // them
        assertThat(queue(s, 3_000_000, 1_300_000)).isEqualTo(15_200_000);
        // the erase now runs 10.1 .. 13.9 ms: a read during it waits for the erase only, not the program behind it
        assertThat(read(s, 13_000_000, 50_000)).isEqualTo(13_900_000 + 50_000);
        assertThat(s.busyUntilNs(0)).isEqualTo(15_250_000);
    }

    /** The same victim, host programs admitted ahead of it: each waits for the operation in progress only. */
    @Test
    void anAdmittedHostProgramOvertakesQueuedGcWorkAndWaitsOnlyForTheOperationInProgress() {
        var s = new PlaneScheduler(1);
        for (int i = 0; i < 10; i++) {
            queue(s, 0, 1_000_000);
        }
        queueErase(s, 0, 3_800_000);
        // at 2.5 ms the third copy is in progress: the program (1.3 ms) starts at 3 ms, not after 13.8 ms
        assertThat(read(s, 2_500_000, 1_300_000)).isEqualTo(4_300_000);
        // a second program issued at once queues behind the first (a host operation issued before it) only
        assertThat(read(s, 2_600_000, 1_300_000)).isEqualTo(5_600_000);
        // the GC work moved back by both programs: plane time is conserved
        assertThat(s.busyUntilNs(0)).isEqualTo(13_800_000 + 2 * 1_300_000);
        // the erase, now at 12.6 .. 16.4 ms, is still queued at 6 ms: its block is not erased yet
        assertThat(s.queuedErases(0, 6_000_000)).isEqualTo(1);
        // a program during the erase waits for the erase in progress, not more
        assertThat(read(s, 13_000_000, 1_300_000)).isEqualTo(16_400_000 + 1_300_000);
        assertThat(s.queuedErases(0, 13_000_000)).isZero();
    }

    /** Counts the erases among the queued operations until they start, whatever the operations around them. */
    @Test
    void queuedErasesAreCountedUntilTheyStart() {
        var s = new PlaneScheduler(2);
        long t = 0;
        long[] eraseStarts = new long[3];
        for (int v = 0; v < 3; v++) {
            for (int i = 0; i < 4; i++) {
                long start = s.queuedStartNs(1, 0, 0);
                s.appendQueued(1, start, start + 500_000, 0);
            }
            long start = s.queuedStartNs(1, 0, 0);
            eraseStarts[v] = start;
            s.appendQueued(1, start, start + 3_800_000, 0, true);
        }
        assertThat(s.queuedErases(0, 0)).isZero();
        assertThat(s.queuedErases(1, 0)).isEqualTo(3);
        assertThat(s.queuedErases(1, eraseStarts[0]))
                .as("starting at the look's time: not started before it")
                .isEqualTo(3);
        assertThat(s.queuedErases(1, eraseStarts[0] + 1)).isEqualTo(2);
        assertThat(s.queuedErases(1, eraseStarts[2] + 1)).isZero();
        // an erase queued after an idle gap is counted too, and issued once started
        long start = s.queuedStartNs(1, 100_000_000, 0);
        assertThat(start).isEqualTo(100_000_000);
        s.appendQueued(1, start, start + 3_800_000, 0, true);
        assertThat(s.queuedErases(1, 99_000_000)).isEqualTo(1);
        assertThat(s.queuedErases(1, 100_000_001)).isZero();
    }

    /**
     * The flash timeline: a GC victim booked page by page (reads, copies, the erase), then a host program on the
     * same plane admitted ahead of it ({@link FlashTimeline#hostProgram}) and one in the urgent case
     * ({@link FlashTimeline#program}): the first waits for the copy in progress, the second for the erase.
     */
    @Test
    void anAdmittedHostProgramWaitsForTheCopyInProgressAnUrgentOneForTheErase() {
        var geometry = new NandGeometry(1, 1, 1, 16, 4, 8192);
        var timing = new NandTiming(50_000, 1_300_000, 3_800_000, 400);
        var flash = new FlashTimeline(geometry, timing, 550);
        long transferNs = timing.channelTransferNs(8192);
        flash.hostTransfer(4096, 0, 0); // the host's latest command: t = 0
        long lastNs = 0;
        for (int i = 0; i < 4; i++) {
            flash.queuedRead(0, 8192, 0);
            lastNs = flash.program(0, 8192, 0);
        }
        long eraseEndNs = flash.erase(0, lastNs);
        assertThat(flash.queuedErases(0, 0)).isEqualTo(1);
        // read, copy, read, copy, ... each read 50 us + 20.48 us out, each copy 1.3 ms: at 2 ms the second copy
        // (1.44 .. 2.74 ms) is in progress, and an admitted program (its data in at 2.02 ms) starts when it ends
        assertThat(transferNs).isEqualTo(20_480);
        flash.hostTransfer(4096, 2_000_000, 2_000_000);
        long admittedNs = flash.hostProgram(0, 8192, 2_000_000);
        assertThat(admittedNs).isEqualTo(2 * (70_480 + 1_300_000) + 1_300_000);
        assertThat(eraseEndNs).isEqualTo(4 * (70_480 + 1_300_000) + 3_800_000);
        // the urgent program queues behind the erase, which moved back by the admitted program
        long urgentNs = flash.program(0, 8192, 2_000_000);
        assertThat(urgentNs).isEqualTo(eraseEndNs + 1_300_000 + 1_300_000);
        assertThat(flash.queuedErases(0, 2_000_000)).isEqualTo(1);
        assertThat(flash.queuedErases(0, eraseEndNs + 1_300_000)).isZero();
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
     * Random mixes of GC work (copies, erases) and host operations (reads, admitted programs) at non-decreasing
     * times: a host operation never starts later than the end of the host operations before it or of the one
     * operation in progress when it was issued, whichever is later (it fails if a host program waits behind a
     * second queued operation); plane time is conserved.
     */
    @Test
    void hostOperationsWaitForTheOperationInProgressOnlyAndThePlaneTimeIsConserved() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            var s = new PlaneScheduler(1);
            long totalNs = 0;
            long now = 0;
            long lastHostEndNs = 0;
            // the queued operations' current [start, end) as the test sees them, to find the one in progress
            ArrayDeque<long[]> queued = new ArrayDeque<>();
            for (int i = 0; i < 300; i++) {
                while (!queued.isEmpty() && queued.peekFirst()[1] <= now) {
                    queued.pollFirst();
                }
                int kind = random.nextInt(4);
                if (kind <= 1) {
                    long d = kind == 0 ? 20_000 + random.nextInt(80_000) : 1_300_000; // a read or a host program
                    long inProgressEndNs =
                            !queued.isEmpty() && queued.peekFirst()[0] < now ? queued.peekFirst()[1] : now;
                    long start = s.priorityStartNs(0, now);
                    assertThat(start)
                            .as("round %d op %d", round, i)
                            .isLessThanOrEqualTo(Math.max(Math.max(lastHostEndNs, now), inProgressEndNs));
                    s.insertPriority(0, start, d, start + d);
                    lastHostEndNs = start + d;
                    totalNs += d;
                    // what was not in progress moves back by the host operation
                    for (long[] op : queued) {
                        if (op[0] >= now) {
                            op[0] += d;
                            op[1] += d;
                        } else if (op[1] > start) {
                            throw new AssertionError("an operation in progress overlaps the host operation");
                        }
                    }
                } else {
                    long d = kind == 2 ? 100_000 + random.nextInt(1_400_000) : 3_800_000;
                    long start = s.queuedStartNs(0, now, now);
                    s.appendQueued(0, start, start + d, now, kind == 3);
                    queued.addLast(new long[] {start, start + d});
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
