package dev.ssdpulse.cli.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.producer.device.engine.CpuList;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.schemas.avro.HostDescription;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a streamed device run records about its I/O path beside the host facts. */
class DeviceHostDescriptionTest {
    private static final HostFacts FACTS = new HostFacts(
            "h",
            "Linux 6.1",
            "vda",
            "mq-deadline",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            "cpu",
            2,
            1L << 30,
            true,
            "libaio",
            "17",
            Map.of());

    @Test
    void anAsynchronousEngineRecordsItsSubmitBatchAndThePinning() {
        HostDescription host = DeviceCommand.hostWithIoSettings(FACTS, true, 8, CpuList.parse("3,1,2"));
        assertThat(host.getIoEngine()).isEqualTo("libaio");
        assertThat(host.getSubmitBatch()).isEqualTo(8);
        assertThat(host.getCpusAllowed()).isEqualTo("1-3");
    }

    @Test
    void psyncHasNoSubmitBatchAndAnUnpinnedRunNoCpuList() {
        HostDescription host = DeviceCommand.hostWithIoSettings(FACTS, false, 1, null);
        assertThat(host.getSubmitBatch()).isNull();
        assertThat(host.getCpusAllowed()).isNull();
    }
}
