package dev.ssdpulse.producer.sim.ftl.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MappingPlanTest {
    private static final long MIB = 1L << 20;

    private static MappingPlan plan(String preset, long heapBytes) {
        SsdConfig c = new SsdPresets().builtIn(preset);
        PackingLayouts layouts = new PackingLayouts(c.geometry(), c.ftl().compressionRatio());
        return MappingPlan.forHeap(
                c.userUnits(), c.geometry().blocks(), c.geometry().planes(), layouts.maxSlotsPerBlock(), heapBytes);
    }

    @Test
    void theOneTerabytePresetPacksAndScansInOneGibibyteAndKeepsIntMapsInThree() {
        // 885 MB packed forward map; 1024 - 844 - 100 MiB left, but at most 1/16 of the 65,536 blocks
        assertThat(plan("nvme-tlc-1tb", 1024 * MIB)).isEqualTo(new MappingPlan(true, 4096));
        // int forward (977 MB) + per-slot reverse (1,074 MB + 34 MB of valid bits) within 70 % of 3 GiB
        assertThat(plan("nvme-tlc-1tb", 3072 * MIB)).isEqualTo(new MappingPlan(false, 0));
    }

    @Test
    void theTwentyTwelvePresetKeepsIntMapsInOneGibibyteAndPacksTheForwardMapInHalfOfThat() {
        // int forward (117 MB) + per-slot reverse (277 MB of paged owners + 8 MiB of bits) within 70 % of 1 GiB
        assertThat(plan("sata-mlc-120gb-2012", 1024 * MIB)).isEqualTo(new MappingPlan(false, 0));
        // packed forward (99 MB) + the same reverse map: 376.1 MB, within 70 % of 530 MiB (389 MB), int maps not ...
        assertThat(plan("sata-mlc-120gb-2012", 530 * MIB)).isEqualTo(new MappingPlan(true, 0));
        // ... not of 512 MiB (375.8 MB), where a scanning map caches 1/16 of the blocks (16 MiB of owners)
        assertThat(plan("sata-mlc-120gb-2012", 512 * MIB)).isEqualTo(new MappingPlan(true, 4096));
    }

    @Test
    void longLivedDataIsPlannedForTheOldGenerationWhereTheCollectorHasASmallerOne() throws Exception {
        // Serial's tenured generation is two thirds of -Xmx by default; G1's old generation may take the whole heap
        assertThat(longLivedBytesInAChildJvm("-XX:+UseSerialGC")).isBetween(190 * MIB, 210 * MIB);
        assertThat(longLivedBytesInAChildJvm("-XX:+UseG1GC")).isEqualTo(300 * MIB);
    }

    private static long longLivedBytesInAChildJvm(String collector) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(
                        javaBin,
                        "-Xmx300m",
                        collector,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LongLivedHeapProbe.class.getName())
                .redirectErrorStream(true)
                .start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(child.waitFor()).as(output).isZero();
        return Long.parseLong(output);
    }

    static final class LongLivedHeapProbe {
        public static void main(String[] args) {
            System.out.println(MappingPlan.longLivedHeapBytes());
        }
    }

    @Test
    void aTinyBudgetStillCachesFourBlocksPerPlane() {
        // GC chooses each plane's victims one at a time between host writes: a few cached per plane serve several
        assertThat(plan("sata-mlc-120gb-2012", 1)).isEqualTo(new MappingPlan(true, 4 * 32));
    }
}
