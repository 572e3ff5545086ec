package dev.ssdpulse.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.HostDescription;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** --group NAME [--member ID]: the run's group and member id, refused with one line where they make no sense. */
class GroupOptionsTest {
    private static GroupOptions parse(String... args) {
        GroupOptions options = new GroupOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    private static RunStarted started() {
        return RunStarted.newBuilder()
                .setRunId("r1")
                .setProducerKind(ProducerKind.DEVICE)
                .setDevice(DeviceDescription.newBuilder()
                        .setModel("m")
                        .setCapacityBytes(1)
                        .setLogicalBlockSizeBytes(512)
                        .build())
                .setHost(HostDescription.newBuilder().setHostname("lab-7").build())
                .setWorkload(WorkloadDescription.newBuilder()
                        .setName("w")
                        .setDescription("d")
                        .setSpecJson("{}")
                        .setPhases(List.of())
                        .build())
                .setSeed(1)
                .setWallClockStart(Instant.EPOCH)
                .setToolVersion("t")
                .build();
    }

    @Test
    void aMemberIsNamedByItsHostAndDeviceUnlessGiven() {
        GroupOptions defaults = parse("--group", "rack-3");
        defaults.validate(false);
        RunStarted member = defaults.apply(started(), "nvme0n1");
        assertThat(member.getGroup()).isEqualTo("rack-3");
        assertThat(member.getMember()).isEqualTo("lab-7 nvme0n1");
        assertThat(parse("--group", "rack-3", "--member", "job 4")
                        .apply(started(), "nvme0n1")
                        .getMember())
                .isEqualTo("job 4");
        assertThat(parse().apply(started(), "nvme0n1").getGroup())
                .as("no group")
                .isNull();
    }

    @Test
    void misuseIsRefusedWithOneLine() {
        assertThatThrownBy(() -> parse("--member", "m1").validate(false))
                .isInstanceOf(UserInputException.class)
                .hasMessage("--member m1 needs --group NAME: a member of which group?");
        assertThatThrownBy(() -> parse("--group", "a b").validate(false))
                .isInstanceOf(UserInputException.class)
                .hasMessageContaining("--group 'a b' must be 1-128 characters");
        assertThatThrownBy(() -> parse("--group", "g", "--member", " ").validate(false))
                .isInstanceOf(UserInputException.class)
                .hasMessageContaining("--member must be 1-128 printable characters");
        assertThatThrownBy(() -> parse("--group", "g").validate(true))
                .isInstanceOf(UserInputException.class)
                .hasMessageContaining("--group needs the run streamed to Kafka");
    }
}
