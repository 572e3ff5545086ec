package dev.ssdpulse.platform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker child must not outlive a parent that is killed with SIGKILL (no shutdown hook runs). */
class BrokerOrphanIT {

    @TempDir
    Path dataDir;

    @Test
    void brokerExitsWhenItsParentIsKilledHard() throws Exception {
        Process parent = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx128m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        BrokerOwnerMain.class.getName(),
                        dataDir.toString()))
                .redirectErrorStream(true)
                .start();
        long brokerPid = -1;
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            StringBuilder seen = new StringBuilder();
            while ((line = out.readLine()) != null) {
                seen.append(line).append('\n');
                if (line.startsWith("BROKER_PID ")) {
                    brokerPid = Long.parseLong(
                            line.substring("BROKER_PID ".length()).trim());
                    break;
                }
            }
            assertThat(brokerPid).as("parent output:\n%s", seen).isPositive();
            Optional<ProcessHandle> broker = ProcessHandle.of(brokerPid);
            assertThat(broker).isPresent();
            assertThat(broker.get().isAlive()).isTrue();

            parent.destroyForcibly(); // SIGKILL: the parent's shutdown hook does not run
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();

            await("broker pid " + brokerPid + " gone after its parent was killed")
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> !broker.get().isAlive());
        } finally {
            parent.destroyForcibly();
            if (brokerPid > 0) {
                ProcessHandle.of(brokerPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
