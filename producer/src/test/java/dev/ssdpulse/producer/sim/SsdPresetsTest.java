package dev.ssdpulse.producer.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.producer.sim.config.Capacity;
import dev.ssdpulse.producer.sim.config.MetadataSpec;
import dev.ssdpulse.producer.sim.config.SsdConfig;
import dev.ssdpulse.producer.sim.config.SsdConfigException;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import org.junit.jupiter.api.Test;

class SsdPresetsTest {
    private final SsdPresets presets = new SsdPresets();

    @Test
    void formatsCapacitiesInGbAndGib() {
        assertThat(Capacity.format(120_000_000_000L)).isEqualTo("120.0 GB (111.76 GiB)");
        assertThat(Capacity.format(128L << 30)).isEqualTo("137.4 GB (128.00 GiB)");
    }

    @Test
    void everyBuiltInPresetLoadsAndValidates() {
        for (String name : SsdPresets.BUILT_IN) {
            SsdConfig c = presets.builtIn(name);
            assertThat(c.name()).isEqualTo(name);
            assertThat(c.physicalToLogical()).isGreaterThan(1.0);
        }
        SsdConfig sata = presets.builtIn("sata-mlc-120gb-2012");
        assertThat(sata.rawFlashBytes()).isEqualTo(128L << 30);
        assertThat(sata.geometry().blockBytes()).isEqualTo(2L << 20);
        assertThat(sata.capacity().parityReserveBytes()).isEqualTo(8_000_000_000L);
        assertThat(sata.withParityReserveBytes(0).validate().reservedBlocks()).isLessThan(sata.reservedBlocks());
    }

    @Test
    void rejectsUserCapacityAboveRawFlash() {
        String json = presets.toJson(presets.builtIn("sata-mlc-120gb-2012")).replace("120000000000", "140000000000");
        assertThatThrownBy(() -> presets.parse(json, "x.json"))
                .isInstanceOf(SsdConfigException.class)
                .hasMessageContaining("user capacity 140.0 GB (130.39 GiB) exceeds raw flash 137.4 GB (128.00 GiB)");
    }

    @Test
    void rejectsCapacityWithoutSpare() {
        String json = presets.toJson(presets.builtIn("sata-mlc-120gb-2012")).replace("120000000000", "130000000000");
        assertThatThrownBy(() -> presets.parse(json, "x.json")).hasMessageContaining("leaves no spare");
    }

    @Test
    void rejectsUnknownAndMissingFieldsByName() {
        String json = presets.toJson(presets.builtIn("tiny-test"));
        assertThatThrownBy(() -> presets.parse(json.replace("\"channels\"", "\"colour\" : 1, \"channels\""), "t.json"))
                .hasMessageContaining("unknown field 'colour'");
        assertThatThrownBy(() -> presets.parse(json.replace("\"pagesPerBlock\"", "\"pagesPerBlok\""), "t.json"))
                .hasMessageContaining("pagesPerBlock");
        assertThatThrownBy(() -> presets.parse(json.replace("\"GREEDY\"", "\"GREEDIEST\""), "t.json"))
                .hasMessageContaining("victimSelector");
        assertThatThrownBy(() -> presets.parse(
                        json.replace("\"forcedGcFreeBlocks\" : 16", "\"forcedGcFreeBlocks\" : 3"), "t.json"))
                .hasMessageContaining("ftl.forcedGcFreeBlocks must be >= 2 x planes");
        assertThatThrownBy(() -> presets.builtIn("nope")).hasMessageContaining("unknown preset 'nope'");
    }

    @Test
    void aPresetFileFromBeforeMetadataAndIdleGcRateLoadsWithTheirEarlierMeaning() {
        String earlier = """
                {
                  "name": "tiny-test",
                  "description": "a user's copy of tiny-test from before the metadata block",
                  "geometry": { "channels": 2, "diesPerChannel": 2, "planesPerDie": 2, "blocksPerPlane": 128,
                                "pagesPerBlock": 64, "pageSizeBytes": 4096 },
                  "capacity": { "userCapacityBytes": 230000000, "parityReserveBytes": 0,
                                "badBlockReserveFraction": 0.0 },
                  "timing": { "readNs": 50000, "programNs": 500000, "eraseNs": 2000000, "channelMBps": 400 },
                  "host": { "linkMBps": 2000, "commandOverheadNs": 5000 },
                  "ftl": { "victimSelector": "GREEDY", "dChoices": 8, "backgroundGcFreeBlocks": 24,
                           "forcedGcFreeBlocks": 16, "idleGcTargetFreeBlocks": 48, "idleGcAfterNs": 100000000,
                           "compressionRatio": 1.0, "wearLevellingEraseSpread": 0 },
                  "cache": { "writeBufferBytes": 262144 }
                }
                """;
        SsdConfig config = presets.parse(earlier, "mine.json");
        assertThat(config.metadata()).isEqualTo(MetadataSpec.NONE);
        assertThat(config.ftl().idleGcIntervalNs()).isZero();
        // a field that was required then is still required
        assertThatThrownBy(() -> presets.parse(earlier.replace("\"eraseNs\": 2000000, ", ""), "mine.json"))
                .isInstanceOf(SsdConfigException.class)
                .hasMessageContaining("eraseNs");
    }
}
