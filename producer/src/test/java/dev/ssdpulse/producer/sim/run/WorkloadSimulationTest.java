package dev.ssdpulse.producer.sim.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.pacing.ManualWallClock;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimSmartCounters;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadSimulationTest {

    private static final String FILE_WORKLOAD = """
            name: file-test
            seed: 3
            targetSize: 160MB
            phases:
              - name: mixed
                kind: TEST
                accessSpecs:
                  - {transferSize: 64KiB, percentRead: 50, percentRandom: 100, alignment: 4KiB}
                queueDepth: 4
                duration: 50ms
            """;

    /** Issue 13 item 7: the target is a test file at LBA 0, created before the test; nothing outside it. */
    @Test
    void targetSizeIsATestFileAtTheStartOfTheDrive() {
        SimulatedDrive drive = SimulatedDrive.fromPreset("tiny-test", 1);
        WorkloadSpec spec = new WorkloadLoader().parse(FILE_WORKLOAD, "file-test.yaml");
        long[] maxEnd = {0};
        List<SimSmartCounters> samples = new ArrayList<>();
        WorkloadSimulation sim = WorkloadSimulation.prepare(drive, spec, 10_000_000L, new SimulationObserver() {
            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {}

            @Override
            public void onSmartSample(SimSmartCounters counters) {
                samples.add(counters);
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
                    int status) {
                maxEnd[0] = Math.max(maxEnd[0], offsetBytes + sizeBytes);
            }
        });
        // the 160 MB file is written before the first I/O (and nothing else)
        assertThat((long) drive.mappedUnits() * 4096).isEqualTo(160_000_000L / 4096 * 4096);
        sim.runToCompletion(() -> false);
        assertThat(maxEnd[0]).isGreaterThan(150_000_000L).isLessThanOrEqualTo(160_000_000L);
        assertThat((long) drive.mappedUnits() * 4096).isEqualTo(160_000_000L / 4096 * 4096);
        assertThat(samples).isNotEmpty();
    }

    /** `simulate --realtime --speed X`: no I/O reaches the observer before its time, none later than one step. */
    @Test
    void pacedRunsDeliverEachIoWithinOneStepOfItsWallTime() throws InterruptedException {
        SimulatedDrive drive = SimulatedDrive.fromPreset("tiny-test", 1);
        WorkloadSpec spec = new WorkloadLoader().parse(FILE_WORKLOAD, "file-test.yaml");
        double speed = 0.25;
        ManualWallClock clock = new ManualWallClock(0);
        long[] earliestLateNs = {Long.MAX_VALUE, Long.MIN_VALUE}; // {min, max} of (wall offset - due offset)
        long[] ios = {0};
        WorkloadSimulation sim = WorkloadSimulation.prepare(drive, spec, 10_000_000L, new SimulationObserver() {
            @Override
            public void onPhaseStarted(ScheduledPhase phase, long timeNs) {}

            @Override
            public void onSmartSample(SimSmartCounters counters) {}

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
                long lateNs = clock.nanoTime() - (long) ((submitTimeNs + latencyNs) / speed);
                earliestLateNs[0] = Math.min(earliestLateNs[0], lateNs);
                earliestLateNs[1] = Math.max(earliestLateNs[1], lateNs);
                ios[0]++;
            }
        });
        sim.runPaced(speed, () -> false, clock);
        assertThat(ios[0]).isGreaterThan(50);
        assertThat(earliestLateNs[0]).as("delivered before its time").isGreaterThanOrEqualTo(0);
        assertThat(earliestLateNs[1])
                .as("delivered later than one step")
                .isLessThanOrEqualTo(WorkloadSimulation.PACED_STEP_NS);
        assertThat(clock.sleepsNs()).containsOnly(WorkloadSimulation.PACED_STEP_NS);
    }

    @Test
    void aTargetLargerThanTheDriveIsRefusedWithBothSizes() {
        WorkloadSpec spec = new WorkloadLoader().parse(FILE_WORKLOAD.replace("160MB", "300MB"), "file-test.yaml");
        assertThatThrownBy(() -> WorkloadSimulation.targetSizeBytes(spec, 230_000_000L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("targetSize of 300000000 B (300.00 MB, 286.10 MiB), larger than the drive"
                        + " (230000000 B (230.00 MB, 219.35 MiB) user capacity)");
        WorkloadSpec tweakers = new WorkloadPresets().load("seed001-tweakers-continuous");
        assertThatThrownBy(
                        () -> WorkloadSimulation.checkFits(tweakers, new SsdPresets().builtIn("sata-mlc-120gb-2012")))
                .hasMessageContaining("targetSize of 160000000000 B (160.00 GB, 149.01 GiB), larger than drive"
                        + " sata-mlc-120gb-2012 (120000000000 B (120.00 GB, 111.76 GiB) user capacity)")
                .hasMessageContaining("--set targetSize=SIZE");
    }

    @Test
    void seed001RunsOnItsHundredAndSixtyGigabyteFileOfTheTwoHundredAndFortyGigabyteDrive() {
        WorkloadSpec spec = new WorkloadPresets().load("seed001-tweakers-continuous");
        SsdConfig drive = new SsdPresets().builtIn("sata-240gb");
        assertThat(WorkloadSimulation.targetSizeBytes(spec, drive.userUnits() * 4096))
                .isEqualTo(160_000_000_000L / 4096 * 4096);
    }

    /**
     * Issue 13 item 3: every shipped workload preset fits every shipped drive preset that
     * {@code workloads/drives.txt} names for it, and every shipped workload and drive is named there.
     */
    @Test
    void everyShippedWorkloadFitsEveryDriveItNames() throws IOException {
        String text;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("workloads/drives.txt")) {
            assertThat(in).as("workloads/drives.txt").isNotNull();
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        WorkloadPresets workloads = new WorkloadPresets();
        SsdPresets drives = new SsdPresets();
        List<String> named = new ArrayList<>();
        List<String> drivesNamed = new ArrayList<>();
        int pairs = 0;
        for (String line : text.split("\n")) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            assertThat(f.length).as(line).isGreaterThanOrEqualTo(2);
            named.add(f[0]);
            WorkloadSpec spec = workloads.load(f[0], Map.of());
            for (int i = 1; i < f.length; i++) {
                drivesNamed.add(f[i]);
                WorkloadSimulation.checkFits(spec, drives.builtIn(f[i]));
                pairs++;
            }
        }
        assertThat(named).containsExactlyInAnyOrderElementsOf(workloads.names());
        assertThat(drivesNamed).containsAll(SsdPresets.BUILT_IN);
        assertThat(pairs).isGreaterThan(named.size());
    }
}
