package dev.ssdpulse.producer.smart;

import static dev.ssdpulse.producer.smart.Fixtures.nvmePlan;
import static dev.ssdpulse.producer.smart.Fixtures.nvmeReading;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NVMe drives through nvme-cli: host writes from the standard SMART / Health log, NAND writes from OCP's log C0h
 * or the vendor's plugin, per vendor, with their units.
 */
class NvmeLogsTest {
    static final long DATA_UNIT = 512_000L;
    static final long MIB32 = 32L << 20;
    /** data_units_written of nvme-smart-log.json. */
    static final long HOST_UNITS = 30_123_456L;

    static Fixtures.Runner drive(String idCtrl) {
        return new Fixtures.Runner()
                .answer("nvme id-ctrl -o json", idCtrl)
                .answer("nvme smart-log -o json", "nvme-smart-log.json");
    }

    @Test
    void theOcpLogGivesNandBytesBesideTheStandardLogsDataUnits() throws Exception {
        Fixtures.Runner runner = drive("nvme-id-ctrl-samsung-pm9a3.json")
                .answer("nvme ocp smart-add-log -o json", "nvme-ocp-smart-add-log-v1.json");
        SmartPlan plan = nvmePlan(runner);
        assertThat(plan.commands())
                .containsExactly(
                        "/usr/sbin/nvme smart-log /dev/nvme0n1 -o json",
                        "/usr/sbin/nvme ocp smart-add-log /dev/nvme0n1 -o json");
        assertThat(plan.drive()).isEqualTo("SAMSUNG MZQL23T8HCLS-00A07 (PCI vendor 0x144d)");
        SmartReading r = plan.poll(5, runner);
        assertThat(r.source()).isEqualTo(SmartReading.Source.OCP_C0);
        assertThat(r.wa())
                .isEqualTo(new WaBasis(
                        "B",
                        HOST_UNITS * DATA_UNIT,
                        DATA_UNIT,
                        23_134_567_890_123L,
                        1,
                        List.of("nvme smart-log: data_units_written"),
                        List.of("nvme ocp smart-add-log: Physical media units written")));
        assertThat(r.rawAttributes())
                .containsEntry("host_write_commands", "410000000")
                .containsEntry("nvme ocp smart-add-log: Percent free blocks", "5");
    }

    @Test
    void theOcpLogsVersion2KeysAreReadToo() throws Exception {
        SmartReading r = nvmeReading(drive("nvme-id-ctrl-kioxia.json")
                .answer("nvme ocp smart-add-log -o json", "nvme-ocp-smart-add-log-v2.json"));
        assertThat(r.wa().nandWrites()).isEqualTo(41_234_567_890_123L);
        assertThat(r.wa().nandSources()).containsExactly("nvme ocp smart-add-log: physical_media_units_written");
    }

    @Test
    void intelWithoutTheOcpLogCountsNandIn32MiBThroughTheIntelPlugin() throws Exception {
        Fixtures.Runner runner = drive("nvme-id-ctrl-intel.json")
                .answer("nvme ocp smart-add-log -o json", "!Invalid Log Page GUID")
                .answer("nvme intel smart-log-add --json", "nvme-intel-smart-log-add.json");
        SmartPlan plan = nvmePlan(runner);
        assertThat(plan.notes())
                .containsExactly("not used: nvme ocp smart-add-log (no output (exit code 22: Invalid Log Page GUID))");
        SmartReading r = plan.poll(1, runner);
        assertThat(r.source()).isEqualTo(SmartReading.Source.NVME_SMART_LOG);
        assertThat(r.wa().nandWrites()).isEqualTo(1_150_000L * MIB32);
        assertThat(r.wa().nandResolution()).isEqualTo(MIB32);
        // the standard log's data units are finer than Intel's 32 MiB host counter: the bounds come out tighter
        assertThat(r.wa().hostSources()).containsExactly("nvme smart-log: data_units_written");
        assertThat(r.counters())
                .extracting(SmartCounter::describe)
                .contains("nvme intel smart-log-add: host_bytes_written = 459,642 x 32 MiB");
        assertThat(runner.ran)
                .extracting(Fixtures.Runner::key)
                .as("another vendor's plugin is not asked")
                .noneMatch(k -> k.contains("micron") || k.contains("wdc") || k.contains("seagate"));
    }

    @Test
    void solidigmThroughItsOwnPlugin() throws Exception {
        SmartReading r = nvmeReading(drive("nvme-id-ctrl-solidigm.json")
                .answer("nvme solidigm smart-log-add -o json", "nvme-solidigm-smart-log-add.json"));
        assertThat(r.wa().nandWrites()).isEqualTo(597_500L * MIB32);
    }

    @Test
    void micronTriesNvmeCli3sFormatFlagThenNvmeCli2s() throws Exception {
        Fixtures.Runner runner = drive("nvme-id-ctrl-micron.json")
                .answer("nvme micron vs-smart-add-log -o json", "!vs-smart-add-log: unrecognized option '-o'")
                .answer("nvme micron vs-smart-add-log -f json", "nvme-micron-vs-smart-add-log-c0.json");
        SmartPlan plan = nvmePlan(runner);
        assertThat(plan.commands()).contains("/usr/sbin/nvme micron vs-smart-add-log /dev/nvme0n1 -f json");
        SmartReading r = plan.poll(1, runner);
        assertThat(r.wa().nandWrites()).isEqualTo(55_123_456_789_012L);
        assertThat(r.wa().nandSources()).containsExactly("nvme micron vs-smart-add-log: Physical Media Units Written");
    }

    @Test
    void micronTlcAndSlcWritesAddUp() throws Exception {
        SmartReading r = nvmeReading(drive("nvme-id-ctrl-micron-9300.json")
                .answer("nvme micron vs-smart-add-log -o json", "nvme-micron-vs-smart-add-log-fb.json"));
        assertThat(r.wa().nandWrites()).isEqualTo(30_000_000_000_000L + 2_500_000_000_000L);
        assertThat(r.wa().nandResolution()).isEqualTo(2);
        assertThat(r.wa().nandSources()).hasSize(2);
    }

    @Test
    void wdcPrintsOneDocumentPerLogPage() throws Exception {
        SmartReading c0 = nvmeReading(drive("nvme-id-ctrl-wdc.json")
                .answer("nvme wdc vs-smart-add-log -o json", "nvme-wdc-vs-smart-add-log-c0.json"));
        assertThat(c0.wa().nandWrites()).isEqualTo(62_000_000_000_000L);
        assertThat(c0.rawAttributes()).containsKey("nvme wdc vs-smart-add-log: nand_bytes_written raw");
        SmartReading ext = nvmeReading(drive("nvme-id-ctrl-wdc.json")
                .answer("nvme wdc vs-smart-add-log -o json", "nvme-wdc-vs-smart-add-log-ext.json"));
        assertThat(ext.wa().nandWrites()).isEqualTo(21_000_000_000_000L);
    }

    @Test
    void seagatesExtendedPairIsInItsOwnUnitAndGivesTheRatio() throws Exception {
        SmartReading r = nvmeReading(drive("nvme-id-ctrl-seagate.json")
                .answer("nvme seagate vs-smart-add-log -o json", "nvme-seagate-vs-smart-add-log.json"));
        assertThat(r.wa())
                .isEqualTo(new WaBasis(
                        "Seagate extended-SMART count",
                        30_000_000L,
                        1,
                        45_000_000L,
                        1,
                        List.of("nvme seagate vs-smart-add-log: Physical (HOST) bytes written"),
                        List.of("nvme seagate vs-smart-add-log: Physical (NAND) bytes written")));
        assertThat(r.nandBytesWritten()).as("not a byte count").isNull();
        SmartReading c0 = nvmeReading(drive("nvme-id-ctrl-seagate.json")
                .answer("nvme seagate vs-smart-add-log -o json", "nvme-seagate-vs-smart-add-log-c0.json"));
        assertThat(c0.wa().unit()).isEqualTo("B");
        assertThat(c0.wa().nandWrites()).isEqualTo(21_000_000_000_000L);
    }

    @Test
    void aSamsungDriveWithoutTheOcpLogHasNoWaAndTheNoteSaysWhy() throws Exception {
        Fixtures.Runner runner = drive("nvme-id-ctrl-samsung-980pro.json")
                .answer("nvme ocp smart-add-log -o json", "!SMART / Health Information Extended log is not supported");
        SmartReading r = nvmeReading(runner);
        assertThat(r.wa()).isNull();
        assertThat(r.hostBytesWritten()).isEqualTo(HOST_UNITS * DATA_UNIT);
        assertThat(r.waAvailability().reason())
                .isEqualTo("WA unavailable: the NVMe SMART/health log has host writes only, and no NAND-writes log"
                        + " answered: tried nvme ocp smart-add-log (no output (exit code 22: SMART / Health"
                        + " Information Extended log is not supported)); nvme-cli has no JSON for a Samsung drive's"
                        + " own NAND counter, only OCP's log C0h");
    }

    @Test
    void aNandCounterThatReadsZeroWhileTheHostWritesIsNotUsed() throws Exception {
        SmartReading r = nvmeReading(drive("nvme-id-ctrl-intel.json")
                .answer("nvme intel smart-log-add --json", "nvme-intel-smart-log-add-zero.json"));
        assertThat(r.wa()).isNull();
        assertThat(r.waNote())
                .isEqualTo("nvme intel smart-log-add: nand_bytes_written reads 0 although the host wrote"
                        + " 15,423,209,472,000 bytes: the drive does not maintain it");
    }

    @Test
    void withoutTheControllersIdentityOnlyTheOcpLogIsTried() throws Exception {
        Fixtures.Runner runner = new Fixtures.Runner()
                .answer("nvme id-ctrl -o json", "!Permission denied")
                .answer("nvme smart-log -o json", "nvme-smart-log.json");
        SmartPlan plan = nvmePlan(runner);
        assertThat(plan.notes())
                .first()
                .isEqualTo("nvme id-ctrl: no output (exit code 22: Permission denied) (the vendor's plugin is not"
                        + " tried)");
        assertThat(runner.ran)
                .extracting(Fixtures.Runner::key)
                .containsExactly("nvme id-ctrl -o json", "nvme ocp smart-add-log -o json");
    }
}
