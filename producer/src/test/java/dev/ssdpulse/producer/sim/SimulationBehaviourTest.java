package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.sim.config.FtlSpec;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.config.VictimPolicy;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.engine.SimulationRun;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import dev.ssdpulse.producer.sim.support.RunRecorder;
import dev.ssdpulse.producer.sim.support.SequentialGenerator;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class SimulationBehaviourTest {
    private static final long MS = 1_000_000L;

    private SimulatedDrive tiny() {
        return SimulatedDrive.fromPreset("tiny-test", 1);
    }

    private static RunRecorder run(SimulatedDrive drive, List<SimPhase> phases) {
        RunRecorder rec = new RunRecorder(100 * MS);
        drive.newRun(phases, rec, rec, 100 * MS, null).runToCompletion();
        return rec;
    }

    @Test
    void sameSeedGivesBitIdenticalEventSequence() {
        long[] hashes = new long[2];
        for (int i = 0; i < 2; i++) {
            SimulatedDrive drive = new SimulatedDrive(
                    new SsdPresets().builtIn("tiny-test").withVictimSelector(VictimPolicy.D_CHOICES), 5);
            drive.fill(0, drive.capacityBytes());
            long cap = drive.capacityBytes();
            List<RequestGenerator> workers = List.of(
                    new RandomGenerator(0, cap, new int[] {4096, 65536}, 0.3, 1, 30_000),
                    new RandomGenerator(0, cap, new int[] {4096}, 0.0, 2, 30_000));
            hashes[i] = run(drive, List.of(SimPhase.io(0, workers, 8, 0, 0), SimPhase.idle(1, 500 * MS))).hash;
        }
        assertThat(hashes[0]).isEqualTo(hashes[1]);
    }

    @Test
    void sameSeedGivesBitIdenticalResultsWithParityMetadataCompressionAndIdleGc() {
        // issue 13: the new mechanisms (parity, map write-back, compression, rate-bounded idle GC) stay deterministic
        var base = Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 64);
        var f = base.ftl();
        var cfg = base.withFtl(new FtlSpec(
                f.victimSelector(),
                f.dChoices(),
                f.backgroundGcFreeBlocks(),
                f.forcedGcFreeBlocks(),
                f.idleGcTargetFreeBlocks() * 4,
                f.idleGcAfterNs(),
                f.compressionRatio(),
                f.wearLevellingEraseSpread(),
                200 * MS,
                f.backgroundGcStopFreeBlocks()));
        long[] hashes = new long[2];
        SimSmartCounters[] last = new SimSmartCounters[2];
        for (int i = 0; i < 2; i++) {
            SimulatedDrive drive = new SimulatedDrive(cfg, 5);
            long cap = drive.capacityBytes();
            drive.fill(0, cap, 0.6);
            List<RequestGenerator> workers =
                    List.of(new RandomGenerator(0, cap / 4, new int[] {4096, 65536}, 0.3, 1, 40_000));
            RunRecorder rec = run(drive, List.of(SimPhase.io(0, workers, 8, 0, 0, 0.8), SimPhase.idle(1, 3_000 * MS)));
            hashes[i] = rec.hash;
            last[i] = drive.smart(0);
        }
        assertThat(hashes[0]).isEqualTo(hashes[1]);
        assertThat(last[0]).isEqualTo(last[1]);
        assertThat(last[0].nandBytesWrittenParity()).isPositive();
        assertThat(last[0].nandBytesWrittenMetadata()).isPositive();
        assertThat(last[0].idleGcInvocations()).isPositive();
    }

    @Test
    void aRequestDelayIsTheMinimumGapBetweenAWorkersSubmitsWhateverTheQueueDepth() {
        // 1 ms between submits of the one worker: 100 I/Os in 100 ms at QD1 and at QD8 alike (at QD8 each slot
        // once waited 1 ms after its own completion: ~8x the rate)
        for (int qd : new int[] {1, 8}) {
            SimulatedDrive drive = tiny();
            RequestGenerator everyMs = request -> {
                request.set(IoOpCode.READ, 0, 4096, MS);
                return true;
            };
            RunRecorder rec = run(drive, List.of(SimPhase.io(0, List.of(everyMs), qd, 100 * MS, 0)));
            assertThat(rec.ios).as("QD" + qd).isBetween(99L, 100L);
        }
    }

    @Test
    void readsOfNeverWrittenLbasTouchNoNand() {
        SimulatedDrive drive = tiny();
        RunRecorder rec = run(
                drive,
                List.of(SimPhase.io(0, List.of(RandomGenerator.reads4k(0, drive.capacityBytes(), 1)), 1, 10 * MS, 0)));
        assertThat(rec.last().nandBytesRead()).isZero();
        assertThat(rec.readLatencySumNs / rec.reads).isLessThan(20_000); // overhead + link, no tR
    }

    @Test
    void trimmedSpaceActsAsSpareAndLowersWa() {
        double[] wa = new double[2];
        for (int trim = 0; trim < 2; trim++) {
            SimulatedDrive drive = tiny();
            long cap = drive.capacityBytes();
            drive.fill(0, cap);
            long half = cap / 2 / 4096 * 4096;
            if (trim == 1) {
                drive.execute(IoOpCode.TRIM, half, (int) (cap - half), drive.clockNs());
            }
            var r = Experiments.runPhase(
                    drive,
                    List.of(new RandomGenerator(0, half, new int[] {4096}, 0, 3, 3 * half / 4096)),
                    4,
                    0,
                    100 * MS);
            wa[trim] = r.writeAmplification();
        }
        assertThat(wa[1]).isLessThan(wa[0] * 0.8);
    }

    @Test
    void compressibleDataProgramsLessNand() {
        // issue 13 item 2: the data (the phase's pattern) decides, down to the controller's best packing
        SimulatedDrive drive =
                new SimulatedDrive(new SsdPresets().builtIn("tiny-test").withCompressionRatio(0.25), 1);
        var r = Experiments.runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 0, 64L << 20, 131072, 0, 512)),
                1,
                0,
                100 * MS,
                0.5);
        assertThat(r.writeAmplification()).isCloseTo(0.5, Assertions.within(0.02));
        var zeros = Experiments.runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 64L << 20, 64L << 20, 131072, 0, 512)),
                1,
                0,
                100 * MS,
                0.0);
        assertThat(zeros.writeAmplification()).isCloseTo(0.25, Assertions.within(0.02));
        var plain = Experiments.runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 0, 64L << 20, 131072, 0, 512)),
                1,
                0,
                100 * MS,
                1.0);
        assertThat(plain.writeAmplification()).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void aControllerThatDoesNotCompressIgnoresTheDataPattern() {
        SimulatedDrive drive = tiny();
        var r = Experiments.runPhase(
                drive,
                List.of(new SequentialGenerator(IoOpCode.WRITE, 0, 64L << 20, 131072, 0, 512)),
                1,
                0,
                100 * MS,
                0.5);
        assertThat(r.writeAmplification()).isCloseTo(1.0, Assertions.within(0.02));
    }

    @Test
    void idleGcRecoversFreeBlocksDuringAnIdlePhase() {
        SimulatedDrive drive = tiny();
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        List<SimSmartCounters> samples = new ArrayList<>();
        SimulationRun run = drive.newRun(
                List.of(
                        SimPhase.io(0, List.of(RandomGenerator.writes4k(0, cap, 9)), 4, 0, cap),
                        SimPhase.idle(1, 2_000 * MS)),
                (w, p, op, o, s, t, l, q, st) -> {},
                samples::add,
                50 * MS,
                null);
        run.runToCompletion();
        SimSmartCounters last = samples.get(samples.size() - 1);
        assertThat(last.idleGcInvocations()).isPositive();
        assertThat(last.freeBlocks())
                .isGreaterThanOrEqualTo(drive.config().ftl().idleGcTargetFreeBlocks());
    }

    @Test
    void staticWearLevellingMovesColdDataAndIsCountedUnderItsCause() {
        SimSmartCounters[] last = new SimSmartCounters[2];
        for (int spread : new int[] {0, 4}) {
            var base = new SsdPresets().builtIn("tiny-test");
            var f = base.ftl();
            SimulatedDrive drive = new SimulatedDrive(
                    base.withFtl(new FtlSpec(
                            f.victimSelector(),
                            f.dChoices(),
                            f.backgroundGcFreeBlocks(),
                            f.forcedGcFreeBlocks(),
                            f.idleGcTargetFreeBlocks(),
                            f.idleGcAfterNs(),
                            f.compressionRatio(),
                            spread,
                            f.idleGcIntervalNs(),
                            f.backgroundGcStopFreeBlocks())),
                    1);
            long cap = drive.capacityBytes();
            drive.fill(0, cap);
            var r = Experiments.runPhase(
                    drive,
                    List.of(new RandomGenerator(0, cap / 10 / 4096 * 4096, new int[] {4096}, 0, 3, 400_000)),
                    8,
                    0,
                    100 * MS);
            last[spread == 0 ? 0 : 1] = r.last();
        }
        assertThat(last[0].nandBytesWrittenWearLevelling()).isZero();
        assertThat(last[1].nandBytesWrittenWearLevelling()).isPositive();
        assertThat(last[1].nandBytesWritten()).isGreaterThan(last[0].nandBytesWritten());
    }

    @Test
    void runUntilStepsTheVirtualClockForRealtimePacing() {
        SimulatedDrive drive = tiny();
        RunRecorder rec = new RunRecorder(100 * MS);
        SimulationRun run = drive.newRun(
                List.of(SimPhase.io(0, List.of(RandomGenerator.writes4k(0, drive.capacityBytes(), 1)), 2, 300 * MS, 0)),
                rec,
                rec,
                10 * MS,
                null);
        run.runUntil(100 * MS);
        assertThat(run.nowNs()).isEqualTo(100 * MS);
        assertThat(rec.lastCompletionNs).isLessThanOrEqualTo(100 * MS);
        long ios = rec.ios;
        run.runUntil(200 * MS);
        assertThat(rec.ios).isGreaterThan(ios);
        run.runToCompletion();
        assertThat(run.isFinished()).isTrue();
        assertThat(run.nowNs()).isGreaterThanOrEqualTo(300 * MS);
    }

    @Test
    void qd32RandomReadsBeatQd1FourfoldAndQd256WaitsLonger() {
        double[] iops = new double[3];
        double[] latUs = new double[3];
        int[] qds = {1, 32, 256};
        for (int i = 0; i < 3; i++) {
            SimulatedDrive drive = tiny();
            drive.fill(0, drive.capacityBytes());
            var r = Experiments.runPhase(
                    drive, List.of(RandomGenerator.reads4k(0, drive.capacityBytes(), 4)), qds[i], 200 * MS, 100 * MS);
            iops[i] = r.ios() / 0.2;
            latUs[i] = r.meanLatencyUs();
        }
        System.out.printf(
                "random read QD1 %.0f IOPS %.1f us, QD32 %.0f IOPS %.1f us, QD256 %.0f IOPS %.1f us%n",
                iops[0], latUs[0], iops[1], latUs[1], iops[2], latUs[2]);
        assertThat(iops[1]).isGreaterThan(4 * iops[0]);
        assertThat(latUs[2]).isGreaterThan(latUs[1]);
    }
}
