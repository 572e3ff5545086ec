package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stack} input it refuses before starting anything; StackCommandIT runs the stacks themselves. */
class StackCommandTest {

    @Test
    void anEvenOrZeroBrokerCountIsRefusedWithTheCountsThatWork(@TempDir Path dir) {
        for (String brokers : new String[] {"0", "2", "4", "11"}) {
            CliRun r = CliRun.of("stack", "--data-dir", dir.toString(), "--brokers", brokers, "--exit-after", "1s");
            assertThat(r.exit()).as(r.err()).isEqualTo(Main.EXIT_BAD_INPUT);
            assertThat(r.err())
                    .contains("--brokers " + brokers + ": the number of brokers must be odd, 1 to 9")
                    .contains("use 1 or 3");
            assertThat(r.out()).as("nothing started").doesNotContain("Starting");
        }
    }

    @Test
    void aDataDirectoryOfAOneBrokerStackIsNotStartedAsAClusterOfThree(@TempDir Path dir) throws Exception {
        // what a one-broker stack leaves in its data directory besides the Kafka logs
        Files.writeString(
                dir.resolve("ssdpulse-broker.properties"), "cluster.id=x\nbroker.port=1\ncontroller.port=2\n");
        CliRun r = CliRun.of("stack", "--data-dir", dir.toString(), "--brokers", "3", "--exit-after", "1s");
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(r.err())
                .contains("holds a stack of 1 broker(s), not 3: start it with --brokers 1, or give another --data-dir");
        assertThat(r.out()).doesNotContain("Starting");
    }
}
