package dev.ssdpulse.cli.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.cli.Main;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The device command publishes with {@link OverflowPolicy#DROP_AND_COUNT} unless told otherwise: a device run keeps
 * its timing when Kafka falls behind; a run with stamped writes blocks instead, since its log is what verification
 * checks the target against. What that policy then does with a stalled broker (every dropped I/O counted
 * in heartbeats, RunFinished and the report) is DeviceRunDropAndCountTest's, in the producer module.
 */
class DeviceOverflowPolicyTest {
    /** The device command as the real command line parses {@code ssdpulse device ARGS}. */
    private static DeviceCommand parsed(String... args) {
        String[] line = new String[args.length + 1];
        line[0] = "device";
        System.arraycopy(args, 0, line, 1, args.length);
        CommandLine.ParseResult result = Main.commandLine().parseArgs(line);
        return (DeviceCommand) result.subcommand().commandSpec().userObject();
    }

    @Test
    void dropAndCountIsTheDefault() {
        assertThat(parsed("--target", "/tmp/never-opened.bin", "--workload", "seed003-qd1-random-read-1000s")
                        .overflowPolicy(false))
                .isEqualTo(OverflowPolicy.DROP_AND_COUNT);
    }

    @Test
    void aRunWithStampedWritesBlocksByDefaultSoItsLogHoldsEveryAcknowledgedWriteUnlessToldToDrop() {
        DeviceCommand device = parsed("--target", "/tmp/never-opened.bin", "--workload", "seed003-power-loss");
        assertThat(device.overflowPolicy(true)).isEqualTo(OverflowPolicy.BLOCK);
        assertThat(parsed("--target", "/tmp/never-opened.bin", "--workload", "seed003-power-loss", "--overflow", "drop")
                        .overflowPolicy(true))
                .isEqualTo(OverflowPolicy.DROP_AND_COUNT);
    }

    @Test
    void blockWhenAsked() {
        assertThat(parsed(
                                "--target",
                                "/tmp/never-opened.bin",
                                "--workload",
                                "seed003-qd1-random-read-1000s",
                                "--overflow",
                                "block")
                        .overflowPolicy(false))
                .isEqualTo(OverflowPolicy.BLOCK);
    }
}
