package dev.ssdpulse.producer.smart;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PowerLossCountsTest {
    @Test
    void nvmeUnsafeShutdownsFromTheSmartHealthLogAndThePlpStartCountFromOcpsLog() throws Exception {
        // polled as a device run polls them: nvme smart-log, then OCP's log C0h (its fields prefixed with the tool)
        SmartReading r = Fixtures.nvmeReading(NvmeLogsTest.drive("nvme-id-ctrl-samsung-pm9a3.json")
                .answer("nvme ocp smart-add-log -o json", "nvme-ocp-smart-add-log-v1.json"));
        assertThat(PowerLossCounts.of(r.rawAttributes())).isEqualTo(new PowerLossCounts(40L, 12L));
        SmartReading noOcp = Fixtures.nvmeReading(NvmeLogsTest.drive("nvme-id-ctrl-samsung-pm9a3.json")
                .answer("nvme ocp smart-add-log -o json", "!Invalid Log Page GUID"));
        assertThat(PowerLossCounts.of(noOcp.rawAttributes())).isEqualTo(new PowerLossCounts(40L, null));
    }

    @Test
    void ataAttributesByTheirDriveDatabaseNames() {
        assertThat(PowerLossCounts.of(Map.of("174 Unexpect_Power_Loss_Ct", "12", "9 Power_On_Hours", "900")))
                .isEqualTo(new PowerLossCounts(12L, null));
        assertThat(PowerLossCounts.of(Map.of("192 Unsafe_Shutdown_Count", "7 (0 0)"))
                        .unsafeShutdowns())
                .isEqualTo(7L);
        assertThat(PowerLossCounts.of(Map.of("235 POR_Recovery_Count", "3")).unsafeShutdowns())
                .isEqualTo(3L);
        // the specific name wins over 192's generic one
        assertThat(PowerLossCounts.of(Map.of("192 Power-Off_Retract_Count", "99", "174 Unsafe_Shutdown_Count", "4"))
                        .unsafeShutdowns())
                .isEqualTo(4L);
    }

    @Test
    void theOcpPlpStartCountWhereTheAttributesHoldIt() {
        assertThat(PowerLossCounts.of(Map.of("unsafe_shutdowns", "2", "PLP start count", "5")))
                .isEqualTo(new PowerLossCounts(2L, 5L));
        assertThat(PowerLossCounts.of(Map.of("ocp.plp_start_count", "6")).plpStartCount())
                .isEqualTo(6L);
    }

    @Test
    void nothingWhereNoCounterIsThereOrItIsNotANumber() {
        assertThat(PowerLossCounts.of(Map.of("9 Power_On_Hours", "900"))).isEqualTo(new PowerLossCounts(null, null));
        assertThat(PowerLossCounts.of(Map.of("unsafe_shutdowns", "n/a"))).isEqualTo(new PowerLossCounts(null, null));
    }
}
