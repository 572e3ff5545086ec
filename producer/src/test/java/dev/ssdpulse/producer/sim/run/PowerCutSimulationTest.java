package dev.ssdpulse.producer.sim.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.integrity.DurabilityModel;
import dev.ssdpulse.producer.integrity.MemoryRunLog;
import dev.ssdpulse.producer.integrity.UnitClass;
import dev.ssdpulse.producer.integrity.UnitStamp;
import dev.ssdpulse.producer.integrity.Verification;
import dev.ssdpulse.producer.integrity.VerificationReport;
import dev.ssdpulse.producer.sim.config.PowerSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.sim.ftl.power.PowerCut;
import dev.ssdpulse.producer.sim.nand.NandGeometry;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A simulated power cut checked by the verification core that checks real drives: with power-loss protection nothing
 * acknowledged is lost; without it exactly what the model says the cut took (the write buffer's unprogrammed units,
 * the mapping updates since the last checkpoint), and nothing acknowledged before a completed FLUSH.
 */
class PowerCutSimulationTest {
    private static final String RUN = "sim-power-cut";
    private static final long MS = 1_000_000L;

    /** Stamped writes of one and four units at QD8 with a FLUSH every 64 writes, then the cut. */
    private static WorkloadSpec workload(String cut) {
        return new WorkloadLoader().parse("""
                        name: cut
                        seed: 3
                        verify: true
                        phases:
                          - name: writes
                            kind: TEST
                            accessSpecs:
                              - {transferSize: 4KiB, percentOfSpec: 75, percentRead: 0, percentRandom: 100}
                              - {transferSize: 16KiB, percentOfSpec: 25, percentRead: 0, percentRandom: 100}
                            queueDepth: 8
                            span: {offset: 0, size: 64MiB}
                            duration: 300ms
                            flushEveryWrites: 64
                        """ + cut, "cut.yaml");
    }

    /** Right after the writes: nothing in flight, the buffer still programming. */
    private static final String IDLE_CUT = """
              - {name: cut, kind: POWER_CUT, duration: 1ms}
            """;

    /** During writes: I/Os in flight at the cut. */
    private static final String CUT_DURING_WRITES = """
              - name: cut
                kind: POWER_CUT
                accessSpecs:
                  - {transferSize: 4KiB, percentOfSpec: 75, percentRead: 0, percentRandom: 100}
                  - {transferSize: 16KiB, percentOfSpec: 25, percentRead: 0, percentRandom: 100}
                queueDepth: 8
                span: {offset: 0, size: 64MiB}
                duration: 50ms
            """;

    record Outcome(VerificationReport report, PowerCut cut, SsdConfig config) {}

    private static Outcome run(boolean protection, String cut) throws IOException {
        // tiny-test with a map checkpoint every 100 ms: a cut 301 ms in rolls back what came after the last one
        SsdConfig config = new SsdPresets().builtIn("tiny-test").withPower(new PowerSpec(protection, 100 * MS));
        SimulatedDrive drive = new SimulatedDrive(config, 3, 256L << 20, true);
        MemoryRunLog log = new MemoryRunLog();
        SimulationObserver observer = new SimulationObserver() {
            @Override
            public void onIoCompleted(
                    int worker,
                    int phaseIndex,
                    byte op,
                    long offsetBytes,
                    int sizeBytes,
                    long submitTimeNs,
                    long latencyNs,
                    int queueDepth,
                    int status) {
                throw new AssertionError("a stamped run reports its writes' sequences");
            }

            @Override
            public void onIoCompleted(
                    int worker,
                    int phaseIndex,
                    byte op,
                    long offsetBytes,
                    int sizeBytes,
                    long submitTimeNs,
                    long latencyNs,
                    int queueDepth,
                    int status,
                    long writeSequence,
                    int ioFlags) {
                log.onIoCompleted(
                        worker,
                        phaseIndex,
                        op,
                        offsetBytes,
                        sizeBytes,
                        submitTimeNs,
                        latencyNs,
                        queueDepth,
                        status,
                        writeSequence,
                        ioFlags);
            }

            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {}

            @Override
            public void onSmartSample(SimSmartCounters counters) {}
        };
        WorkloadSimulation simulation = WorkloadSimulation.prepare(drive, workload(cut), 100 * MS, observer);
        simulation.run().runToCompletion();
        PowerCut powerCut = simulation.run().powerCut();
        assertThat(powerCut).as("the run ends with the cut").isNotNull();
        long runHash = UnitStamp.runHash(RUN);
        VerificationReport report = Verification.verify(
                new Verification.Options(runHash, false, Verification.Listener.NONE), log, powerCut.forRun(runHash));
        return new Outcome(report, powerCut, config);
    }

    @Test
    void withPowerLossProtectionNothingAcknowledgedIsLost() throws IOException {
        for (String cut : new String[] {IDLE_CUT, CUT_DURING_WRITES}) {
            Outcome o = run(true, cut);
            VerificationReport r = o.report();
            assertThat(r.unitsChecked()).isPositive();
            for (DurabilityModel m : DurabilityModel.values()) {
                assertThat(r.model(m).lostUnits()).as(m.name()).isZero();
            }
            assertThat(r.count(UnitClass.LOST) + r.count(UnitClass.TORN) + r.count(UnitClass.REVERTED))
                    .isZero();
            // the buffer held units at the cut: the protection is what kept them
            assertThat(o.cut().account().bufferedUnits()).isPositive();
        }
    }

    @Test
    void withoutItTheVerificationFindsExactlyWhatTheModelSaysTheCutTook() throws IOException {
        Outcome o = run(false, IDLE_CUT);
        VerificationReport r = o.report();
        PowerCut.Account a = o.cut().account();
        long bufferUnits = o.config().cache().writeBufferBytes() / NandGeometry.MAPPING_UNIT_BYTES;
        // units were still in the write buffer at the cut: no more than it holds, and none of them survives
        assertThat(a.bufferedUnits()).isPositive().isLessThanOrEqualTo(bufferUnits);
        assertThat(a.olderUnits() + a.nothingUnits()).isGreaterThanOrEqualTo(a.bufferedUnits());
        // the verification finds exactly what the model says each unit holds
        assertThat(r.count(UnitClass.INTACT)).isEqualTo(a.latestUnits());
        assertThat(r.count(UnitClass.LOST) + r.count(UnitClass.TORN)).isEqualTo(a.nothingUnits());
        assertThat(r.count(UnitClass.REVERTED)).isEqualTo(a.olderUnits());
        assertThat(r.model(DurabilityModel.ACKNOWLEDGED).lostUnits()).isEqualTo(a.nothingUnits() + a.olderUnits());
        assertThat(r.count(UnitClass.UNLOGGED)).isZero();
        // the drive honours FLUSH: nothing acknowledged before the last completed one is lost
        assertThat(r.model(DurabilityModel.FLUSHED).requiredUnits()).isPositive();
        assertThat(r.model(DurabilityModel.FLUSHED).lostUnits()).isZero();
    }

    @Test
    void aCutDuringWritesLosesOnlyWhatFollowedTheLastFlushAndAPresetWithoutTheModelIsRefused() throws IOException {
        Outcome o = run(false, CUT_DURING_WRITES);
        VerificationReport r = o.report();
        assertThat(r.model(DurabilityModel.ACKNOWLEDGED).lostUnits()).isPositive();
        assertThat(r.model(DurabilityModel.FLUSHED).lostUnits()).isZero();
        SsdConfig unmodelled = new SsdPresets().builtIn("tiny-test");
        assertThat(unmodelled.power()).isEqualTo(PowerSpec.UNMODELLED);
        assertThatThrownBy(() -> new SimulatedDrive(unmodelled, 3, 256L << 20, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not model a power cut");
    }
}
