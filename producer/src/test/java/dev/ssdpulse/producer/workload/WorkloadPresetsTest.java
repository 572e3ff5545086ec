package dev.ssdpulse.producer.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.schemas.avro.WorkloadDescription;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class WorkloadPresetsTest {
    private final WorkloadPresets presets = new WorkloadPresets();

    @Test
    void everyPresetLoadsValidatesAndRoundTrips() {
        List<PresetInfo> list = presets.list();
        assertThat(list).hasSizeGreaterThanOrEqualTo(21);
        for (PresetInfo info : list) {
            WorkloadSpec spec = presets.load(info.name());
            assertThat(spec.name()).isEqualTo(info.name());
            assertThat(info.description()).isNotBlank().doesNotContain("\n");
            assertThat(WorkloadJson.fromCanonicalJson(WorkloadJson.toCanonicalJson(spec)))
                    .isEqualTo(spec);
            assertThat(spec.schedule()).isNotEmpty();
            // spans fit a 1 TB drive (the seeds' targets are 120 GB .. 1.6 TB)
            WorkloadValidator.validateForTarget(spec, spec.targetSizeBytes().orElse(1_000_000_000_000L), info.name());
        }
    }

    @Test
    void catalogueListsEveryPresetFile() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/workloads"))) {
            List<String> onDisk = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml"))
                    .map(n -> n.substring(0, n.length() - 5))
                    .sorted()
                    .collect(Collectors.toList());
            assertThat(presets.names()).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(onDisk);
        }
        assertThat(presets.names())
                .contains(
                        "seed000-exp1-random-write",
                        "seed000-exp2-sequential-rewrite",
                        "seed000-exp3-idle-gc",
                        "seed001-tweakers-continuous",
                        "seed002-hdparm-direct-read",
                        "seed003-qd1-random-read-1000s",
                        "seed003-qd1-random-write-5000s",
                        "seed003-qd32-random-write-5000s",
                        "seed003-qd256-random-write-5000s",
                        "seed003-qd32-random-read-5000s",
                        "seed003-qd256-random-read-5000s",
                        "seed003-mixed-80-20",
                        "snia-pts-iops",
                        "snia-pts-wsat",
                        "snia-pts-hir");
    }

    @Test
    void freeSpaceAndPauseAreParameters() {
        WorkloadSpec exp1 = presets.load("seed000-exp1-random-write", Map.of("freeFlashGB", "8"));
        PhaseSpec fill = (PhaseSpec) exp1.phases().get(1);
        assertThat(fill.kind()).isEqualTo(PhaseKind.FILL);
        assertThat(fill.span().sizeBytes(120_000_000_000L)).isEqualTo(112_000_000_000L);
        assertThat(fill.totalBytes(120_000_000_000L)).hasValue(112_000_000_000L);
        PhaseSpec test = (PhaseSpec) exp1.phases().get(2);
        assertThat(test.accessSpecs()).containsExactly(new AccessSpec(4096, 100, 0, 100, 4096, 0, 1));
        assertThat(test.durationNs()).hasValue(20 * 60_000_000_000L);
        assertThat(test.span().sizeBytes(120_000_000_000L)).isEqualTo(24_000_000_000L);
        assertThat(presets.list())
                .filteredOn(p -> p.name().equals("seed000-exp1-random-write"))
                .singleElement()
                .extracting(PresetInfo::variables)
                .isEqualTo(Map.of(
                        "seed", "1", "targetSize", "120GB", "freeFlashGB", "0", "fillPattern", "incompressible"));

        WorkloadSpec exp3 = presets.load("seed000-exp3-idle-gc", Map.of("pauseMin", "5", "partitionAGB", "96"));
        List<ScheduledPhase> s = exp3.schedule();
        assertThat(s)
                .extracting(ScheduledPhase::name)
                .containsExactly(
                        "purge", "fill-a-b", "random-4k", "pause-1", "sequential-2m", "pause-2", "sequential-4k");
        assertThat(s.get(3).phase().durationNs()).hasValue(300_000_000_000L);
        assertThat(s.get(2).phase().span().offsetBytes(128_000_000_000L)).isEqualTo(96_000_000_000L);
        assertThat(s.get(1).phase().span().sizeBytes(128_000_000_000L)).isEqualTo(120_000_000_000L);
        assertThatThrownBy(() -> presets.load("seed000-exp3-idle-gc", Map.of("pause", "5")))
                .hasMessageContaining("--set pause: unknown variable, known: partitionAGB, pauseMin, seed, targetSize");
    }

    @Test
    void structureOfTheLongPresets() {
        assertThat(presets.load("snia-pts-iops").schedule()).hasSize(2 + 25 * 56);
        assertThat(presets.load("snia-pts-iops", Map.of("rounds", "2")).schedule())
                .extracting(ScheduledPhase::name)
                .contains("round#1/rw100-0-bs1m", "round#2/rw0-100-bs512");
        assertThat(presets.load("snia-pts-hir").schedule()).hasSize(3 + 5 * (720 + 1));
        assertThat(presets.load("seed002-hdparm-direct-read").schedule())
                .extracting(ScheduledPhase::name)
                .containsExactly("run#1", "run#2", "run#3");
        PhaseSpec tweakers =
                presets.load("seed001-tweakers-continuous").schedule().get(0).phase();
        assertThat(tweakers.accessSpecs())
                .extracting(AccessSpec::transferSizeBytes)
                .containsExactly(4096, 65536, 131072, 1 << 20);
        assertThat(presets.load("seed001-tweakers-continuous").targetSizeBytes())
                .hasValue(160_000_000_000L);
        assertThatThrownBy(() -> presets.load("nope"))
                .hasMessageStartingWith("unknown workload preset 'nope', known: ");
    }

    @Test
    void thePowerLossPresetStampsItsWritesAndFlushesEveryNWritesAtQd1ThenQd32() {
        WorkloadSpec spec = presets.load("seed003-power-loss", Map.of("flushEvery", "64", "span", "1GiB"));
        assertThat(spec.verify()).isTrue();
        List<ScheduledPhase> phases = spec.schedule();
        assertThat(phases).extracting(p -> p.phase().queueDepth()).containsExactly(1, 32);
        for (ScheduledPhase p : phases) {
            assertThat(p.phase().durability()).isEqualTo(new WriteDurability(64, 0, 0));
            assertThat(p.phase().span().sizeBytes(1L << 40)).isEqualTo(1L << 30);
            assertThat(p.phase().accessSpecs())
                    .extracting(AccessSpec::transferSizeBytes)
                    .containsExactly(4096, 16384);
        }
        assertThat(WorkloadJson.fromCanonicalJson(WorkloadJson.toCanonicalJson(spec)))
                .isEqualTo(spec);
    }

    @Test
    void avroDescriptionCarriesCanonicalJsonAndScheduledPhases() throws IOException {
        WorkloadSpec spec = presets.load("seed000-exp3-idle-gc");
        WorkloadDescription d = WorkloadAvro.toDescription(spec, 128_000_000_000L);
        assertThat(WorkloadJson.fromCanonicalJson(d.getSpecJson())).isEqualTo(spec);
        assertThat(d.getPhases()).hasSize(7);
        assertThat(d.getPhases().get(2).getSpanOffsetBytes()).isEqualTo(104_000_000_000L);
        assertThat(d.getPhases().get(1).getTotalBytes()).isEqualTo(128_000_000_000L);
        assertThat(d.getPhases().get(3).getKind()).isEqualTo(dev.ssdpulse.schemas.avro.PhaseKind.IDLE);
        // the largest preset still fits a default 1 MB Kafka record
        ByteBuffer hir = WorkloadAvro.toDescription(presets.load("snia-pts-hir"), 1_000_000_000_000L)
                .toByteBuffer();
        assertThat(hir.remaining()).isLessThan(900_000);
    }

    @Test
    void phaseKindNamesMatchTheAvroEnum() {
        assertThat(Arrays.stream(PhaseKind.values()).map(Enum::name))
                .containsExactlyElementsOf(Arrays.stream(dev.ssdpulse.schemas.avro.PhaseKind.values())
                        .map(Enum::name)
                        .toList());
    }
}
