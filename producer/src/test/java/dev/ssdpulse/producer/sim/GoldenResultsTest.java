package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.io.RequestGenerator;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.host.SimPhase;
import dev.ssdpulse.producer.sim.support.Experiments;
import dev.ssdpulse.producer.sim.support.RandomGenerator;
import dev.ssdpulse.producer.sim.support.RunRecorder;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the simulator computes must not change by accident: one recorded run of the 2012 SandForce preset at 1/64
 * scale with every mechanism active (parity, map-cache reads and write-back, compression, paced GC, idle GC,
 * TRIM), checked by the I/O counts, a hash of every completion (op, offset, size, submit time, latency, queue
 * depth) and every SMART counter, with both reverse maps (they must give the same results).
 *
 * <p>Recorded for the current model (GC paced against host work, the per-plane write buffer, a NAND read per map-cache
 * miss, sourced and fitted preset numbers: RAISE as 1/16 of raw, a 3.2 % reserve, 1536-byte map segments, a 58 us
 * command path, idle GC that cleans everything reclaimable): every one of these changes what the run computes. The
 * run writes fewer host bytes in its 4 s phase (the host path now waits for map reads) and GC copies more (less
 * spare).
 */
class GoldenResultsTest {
    private static final long MS = 1_000_000L;

    /** The 2012 SandForce preset at 1/64 scale: parity, map write-back, compression, GC and idle GC all active. */
    @Test
    void sandForcePresetAtOneSixtyFourthScaleMatchesTheRecordedRun() {
        checkAgainstRecordedRun(Runtime.getRuntime().maxMemory());
    }

    /** A heap budget too small for a per-slot reverse map: GC's owners come from passes over the forward map. */
    @Test
    void scanningReverseMapGivesTheSameResults() {
        checkAgainstRecordedRun(1);
    }

    private static void checkAgainstRecordedRun(long heapBudgetBytes) {
        SimulatedDrive drive = new SimulatedDrive(
                Experiments.scaled(new SsdPresets().builtIn("sata-mlc-120gb-2012"), 64), 3, heapBudgetBytes);
        long cap = drive.capacityBytes();
        drive.fill(0, cap);
        List<RequestGenerator> randomWrites = List.of(RandomGenerator.writes4k(0, cap, 7));
        List<RequestGenerator> mixed = List.of(new RandomGenerator(0, cap, new int[] {4096, 65536}, 0.3, 11, 60_000));
        RunRecorder rec = new RunRecorder(100 * MS);
        drive.newRun(
                        List.of(
                                SimPhase.io(0, randomWrites, 32, 4_000 * MS, 0),
                                SimPhase.io(1, mixed, 8, 0, 0, 0.6),
                                SimPhase.idle(2, 3_000 * MS)),
                        rec,
                        rec,
                        100 * MS,
                        null)
                .runToCompletion();
        // TRIM half the drive, then rewrite part of it: trimmed units must stop counting as valid
        long t = drive.clockNs();
        drive.execute(IoOpCode.TRIM, 0, (int) Math.min(cap / 2, Integer.MAX_VALUE & ~4095L), t);
        RunRecorder after = new RunRecorder(100 * MS);
        drive.newRun(
                        List.of(SimPhase.io(
                                0,
                                List.of(new RandomGenerator(0, cap, new int[] {4096, 16384}, 0.2, 13, 40_000)),
                                4,
                                0,
                                0)),
                        after,
                        after,
                        100 * MS,
                        null)
                .runToCompletion();
        assertThat(rec.ios).isEqualTo(74_212);
        assertThat(rec.hash).isEqualTo(-131369674135393122L);
        assertThat(after.ios).isEqualTo(40_000);
        assertThat(after.hash).isEqualTo(6938061595840592530L);
        assertThat(drive.smart(0).toString())
                .isEqualTo("SimSmartCounters[timeNs=0, hostBytesWritten=3717267456, hostBytesRead=707620864,"
                        + " hostBytesTrimmed=937498624, nandBytesWrittenHost=3136225280, nandBytesWrittenGc=4992065536,"
                        + " nandBytesWrittenWearLevelling=0, nandBytesWrittenMetadata=333627392,"
                        + " nandBytesRead=8364531712, eraseCount=2959, freeBlocks=36, gcInvocations=2963,"
                        + " forcedGcInvocations=0, idleGcInvocations=64,"
                        + " nandBytesWrittenParity=541884416]");
    }
}
