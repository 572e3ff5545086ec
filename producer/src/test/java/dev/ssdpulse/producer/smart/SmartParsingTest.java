package dev.ssdpulse.producer.smart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SmartParsingTest {
    private final SmartctlJsonParser smartctl = new SmartctlJsonParser();
    private final NvmeSmartLogParser nvme = new NvmeSmartLogParser();

    static String fixture(String name) throws IOException {
        try (InputStream in = SmartParsingTest.class.getResourceAsStream("/smart/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void smartctlOnNvmeUsesDataUnitsOf512000Bytes() throws Exception {
        SmartReading r = smartctl.parse(fixture("smartctl-nvme.json"), 7);
        assertThat(r.source()).isEqualTo(SmartReading.Source.SMARTCTL);
        assertThat(r.timeNs()).isEqualTo(7);
        assertThat(r.hostBytesWritten()).isEqualTo(30_123_456L * 512_000L);
        assertThat(r.hostBytesRead()).isEqualTo(21_346_127L * 512_000L);
        assertThat(r.nandBytesWritten()).isNull();
        assertThat(r.rawAttributes()).containsEntry("percentage_used", "1");
        assertThat(r.waAvailability().available()).isFalse();
        assertThat(r.waAvailability().reason()).startsWith("WA unavailable").contains("NVMe");
    }

    @Test
    void nvmeCliSmartLogMatchesSmartctlCounters() throws Exception {
        SmartReading r = nvme.parseNvmeCli(fixture("nvme-cli-smart-log.json"), 1);
        assertThat(r.source()).isEqualTo(SmartReading.Source.NVME_SMART_LOG);
        assertThat(r.hostBytesWritten())
                .isEqualTo(smartctl.parse(fixture("smartctl-nvme.json"), 1).hostBytesWritten());
        assertThat(r.rawAttributes()).containsEntry("host_write_commands", "410000000");
    }

    @Test
    void nvmeCountersPrintedAsStringsAreAccepted() throws Exception {
        SmartReading r = nvme.parseNvmeCli("{\"data_units_written\":\"1,000\",\"data_units_read\":\"2\"}", 0);
        assertThat(r.hostBytesWritten()).isEqualTo(512_000_000L);
        assertThat(r.hostBytesRead()).isEqualTo(1_024_000L);
    }

    @Test
    void samsungAtaTotalLbasWrittenTimesSectorAndWearLeveling() throws Exception {
        SmartReading r = smartctl.parse(fixture("smartctl-ata-samsung.json"), 0);
        assertThat(r.hostBytesWritten()).isEqualTo(98_765_432_100L * 512);
        assertThat(r.hostBytesRead()).isNull();
        assertThat(r.eraseCount()).isEqualTo(42);
        assertThat(r.nandBytesWritten()).isNull();
        assertThat(r.rawAttributes()).containsEntry("241 Total_LBAs_Written", "98765432100");
        assertThat(r.waAvailability().reason()).contains("NAND-writes");
    }

    @Test
    void sandForceE9IsNandAndF1IsHostInGiB() throws Exception {
        SmartReading r = smartctl.parse(fixture("smartctl-ata-sandforce.json"), 0);
        assertThat(r.nandBytesWritten()).isEqualTo(6144L << 30);
        assertThat(r.hostBytesWritten()).isEqualTo(4400L << 30);
        assertThat(r.hostBytesRead()).isEqualTo(3100L << 30);
        assertThat(r.waAvailability().available()).isTrue();
        // seed 000: WA = NAND / host
        assertThat((double) r.nandBytesWritten() / r.hostBytesWritten()).isCloseTo(1.396, Offset.offset(0.001));
    }

    @Test
    void intelUnitsComeFromTheAttributeName() throws Exception {
        SmartReading r = smartctl.parse(fixture("smartctl-ata-intel.json"), 0);
        assertThat(r.hostBytesWritten()).isEqualTo(140_800L * 32 * (1L << 20));
        assertThat(r.hostBytesRead()).isEqualTo(99_200L * 32 * (1L << 20));
        assertThat(r.nandBytesWritten()).isEqualTo(6160L << 30);
    }

    @Test
    void unknownUnitIsNotGuessed() throws Exception {
        SmartReading r = smartctl.parse(fixture("smartctl-ata-unknown-unit.json"), 0);
        assertThat(r.hostBytesWritten()).isNull();
        assertThat(r.rawAttributes()).containsEntry("241 Host_Writes_Units", "77");
        assertThat(r.waAvailability().reason()).contains("no host-writes counter");
    }

    @Test
    void errorsNameTheToolAndField() {
        assertThatThrownBy(() -> smartctl.parse("not json", 0))
                .isInstanceOf(SmartParseException.class)
                .hasMessageContaining("smartctl output is not JSON");
        assertThatThrownBy(
                        () -> smartctl.parse("{\"smartctl\":{\"messages\":[{\"string\":\"Permission denied\"}]}}", 0))
                .hasMessageContaining("no ata_smart_attributes.table")
                .hasMessageContaining("Permission denied");
        assertThatThrownBy(() -> nvme.parseNvmeCli("{\"data_units_written\":\"lots\"}", 0))
                .hasMessageContaining("data_units_written")
                .hasMessageContaining("lots");
        assertThatThrownBy(() -> nvme.parseNvmeCli("{\"temperature\":300}", 0))
                .hasMessageContaining("neither data_units_written nor data_units_read");
    }

    @Test
    void avroSampleCarriesTheCounters() throws Exception {
        var sample = smartctl.parse(fixture("smartctl-ata-sandforce.json"), 99).toAvro("run-1");
        assertThat(sample.getRunId()).isEqualTo("run-1");
        assertThat(sample.getTimeNs()).isEqualTo(99);
        assertThat(sample.getSource().name()).isEqualTo("SMARTCTL");
        assertThat(sample.getNandBytesWritten()).isEqualTo(6144L << 30);
        assertThat(sample.getRawAttributes()).containsEntry("233 SandForce_Internal", "6144");
    }
}
