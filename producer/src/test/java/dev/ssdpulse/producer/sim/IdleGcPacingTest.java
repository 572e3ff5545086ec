package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two idle-GC pacing options of {@link FtlSpec}: an urgent pace for a pause that begins with the free pool below
 * the stop watermark and victims costing more unit copies than they free, and a limit on what a victim may cost idle GC. Both on the tiny preset, filled and then
 * rewritten at random so its blocks hold a mix of valid and stale data (GC's WA - 1 is its copies per unit freed).
 */
class IdleGcPacingTest {
    private static final long MS = 1_000_000L;
    private static final long LAZY_INTERVAL_NS = 200 * MS;

    /** The drive's counters after random writes, then after a 1 s pause (idle GC may run); and the random WA. */
    private static SimSmartCounters[] randomWritesThenPause(FtlSpec ftl) {
        var base = new SsdPresets().builtIn("tiny-test");
        SimulatedDrive drive = new SimulatedDrive(base.withFtl(ftl), 1);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        var random = Experiments.runPhase(drive, List.of(RandomGenerator.writes4k(0, cap, 9)), 4, 3_000 * MS, 50 * MS);
        Experiments.pause(drive, 1_000 * MS, 50 * MS);
        assertThat(random.writeAmplification())
                .as("victims cost more than one copy per unit freed")
                .isGreaterThan(2.0);
        return new SimSmartCounters[] {random.last(), drive.smart(0)};
    }

    @Test
    void aPauseThatBeginsWithCostlyVictimsGetsTheUrgentPace() {
        FtlSpec lazy = new SsdPresets().builtIn("tiny-test").ftl().withIdleGcPacing(LAZY_INTERVAL_NS, -1, 0);
        FtlSpec urgent = lazy.withIdleGcPacing(LAZY_INTERVAL_NS, 0, 0);
        SimSmartCounters[] a = randomWritesThenPause(lazy);
        SimSmartCounters[] b = randomWritesThenPause(urgent);
        assertThat(b[0]).as("the same drive until the pause").isEqualTo(a[0]);
        long lazyVictims = a[1].idleGcInvocations() - a[0].idleGcInvocations();
        long urgentVictims = b[1].idleGcInvocations() - b[0].idleGcInvocations();
        assertThat(lazyVictims)
                .as("one victim per plane every 200 ms, at most 5 rounds")
                .isBetween(1L, 5L * 8);
        assertThat(urgentVictims).isGreaterThan(2 * lazyVictims);
        assertThat(b[1].freeBlocks()).isGreaterThan(a[1].freeBlocks());
    }

    @Test
    void aPauseThatBeginsWithCheapVictimsKeepsTheLazyPace() {
        var base = new SsdPresets().builtIn("tiny-test");
        var f = base.ftl();
        // idle GC that cleans until nothing is left, so it has work in this pause whatever the pool
        FtlSpec lazy = new FtlSpec(
                f.victimSelector(),
                f.dChoices(),
                f.backgroundGcFreeBlocks(),
                f.forcedGcFreeBlocks(),
                base.geometry().blocks(),
                f.idleGcAfterNs(),
                f.compressionRatio(),
                f.wearLevellingEraseSpread(),
                LAZY_INTERVAL_NS,
                f.backgroundGcStopFreeBlocks());
        FtlSpec urgent = lazy.withIdleGcPacing(LAZY_INTERVAL_NS, 0, 0);
        SimSmartCounters[] after = new SimSmartCounters[2];
        for (int i = 0; i < 2; i++) {
            SimulatedDrive drive = new SimulatedDrive(base.withFtl(i == 0 ? lazy : urgent), 1);
            long cap = drive.capacityBytes();
            drive.fill(0, cap / 2); // half the drive written: the free pool far above the stop watermark
            var random =
                    Experiments.runPhase(drive, List.of(RandomGenerator.writes4k(0, cap / 2, 9)), 4, 300 * MS, 50 * MS);
            assertThat(drive.freeBlocks()).isGreaterThan(lazy.backgroundGcStopFreeBlocks());
            Experiments.pause(drive, 1_000 * MS, 50 * MS);
            after[i] = drive.smart(0);
        }
        assertThat(after[0].idleGcInvocations()).as("idle GC had work").isPositive();
        assertThat(after[1]).isEqualTo(after[0]);
    }

    @Test
    void idleGcTakesNoVictimCostlierThanItsLimit() {
        FtlSpec unlimited = new SsdPresets().builtIn("tiny-test").ftl().withIdleGcPacing(0, -1, 0);
        // a victim with a quarter of its units stale costs 3 copies per unit freed: a limit of 0.05 refuses it
        FtlSpec limited = unlimited.withIdleGcPacing(0, -1, 0.05);
        SimSmartCounters[] a = randomWritesThenPause(unlimited);
        SimSmartCounters[] b = randomWritesThenPause(limited);
        assertThat(a[1].idleGcInvocations() - a[0].idleGcInvocations()).isPositive();
        assertThat(b[1].idleGcInvocations() - b[0].idleGcInvocations()).isZero();
        assertThat(b[1].freeBlocks()).isEqualTo(b[0].freeBlocks());
    }
}
