package dev.ssdpulse.producer.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ShutdownCancellationTest {
    @Test
    void sigtermEndsTheRunAbortedAndLetsTheCallerFinish() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(
                        java, "-Xmx64m", "-cp", System.getProperty("java.class.path"), CtrlCProbe.class.getName())
                .redirectErrorStream(true)
                .start();
        try (BufferedReader out =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine())
                    .as("the child's run has completed an I/O")
                    .isEqualTo("running");
            // SIGTERM runs shutdown hooks like Ctrl-C's SIGINT; ProcessHandle.destroy, unlike Process.destroy, keeps
            // our
            // end of the child's stdout open
            p.toHandle().destroy();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            String last = out.readLine();
            assertThat(last).startsWith("status=ABORTED reason=interrupted (SIGINT/SIGTERM)");
            String[] f = last.split(" ");
            String ios = f[f.length - 2].substring("ios=".length());
            assertThat(f[f.length - 1]).isEqualTo("delivered=" + ios);
            assertThat(Long.parseLong(ios)).isPositive();
        } finally {
            p.destroyForcibly();
        }
    }
}
