package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command through the real {@code ./ssdpulse} script of the source tree (not the CLI in
 * process). The reactor has just packaged the modules, so the script runs with SSDPULSE_SKIP_BUILD=1; its build
 * step, from a local Maven repository without any ssdpulse artifact, is what {@code .ci/run} runs first.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SourceLauncherIT {
    private static final Path SOURCE_ROOT =
            Path.of(System.getProperty("ssdpulse.sourceRoot")).normalize();

    @TempDir
    Path workDir;

    @Test
    void printsTheVersionOfThisBuild() throws Exception {
        try (Script version = launch("--version")) {
            assertThat(version.awaitExit(60)).as(version.stderr()).isZero();
            assertThat(version.stdout()).startsWith("ssdpulse " + System.getProperty("ssdpulse.version") + "\n");
        }
    }

    @Test
    void runsAShortDemoAndStopsByItselfLeavingNothingRunning() throws Exception {
        try (Script demo = launch(
                "demo",
                "--port",
                "0",
                "--duration",
                "10s",
                "--speed",
                "10",
                "--free-flash-gb",
                "0",
                "--exit-after",
                "20s")) {
            // the broker JVM is a child of the demo's JVM: remember it while it is in the tree
            List<ProcessHandle> tree = await("the demo's broker JVM in its process tree")
                    .atMost(Duration.ofMinutes(2))
                    .until(
                            demo::processTree,
                            t -> t.size() >= 2 || !demo.handle().isAlive());
            assertThat(demo.awaitExit(240)).as(demo.stdout() + demo.stderr()).isZero();
            assertThat(demo.stdout())
                    .contains("dashboard : http://127.0.0.1:")
                    .contains("demo-1-free-0GB")
                    .contains("ssdpulse demo stopped.");
            assertThat(tree).hasSizeGreaterThanOrEqualTo(2).noneMatch(ProcessHandle::isAlive);
        }
    }

    private Script launch(String... args) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("SSDPULSE_SKIP_BUILD", "1");
        env.put(
                "SSDPULSE_JAVA_OPTS",
                "-Xmx512m" + UnpackedDistribution.brokerJvmArgsOption() + UnpackedDistribution.childJvmArgsOption());
        List<String> command = new ArrayList<>();
        command.add(SOURCE_ROOT.resolve("ssdpulse").toString());
        command.addAll(List.of(args));
        return Script.start(workDir, env, command);
    }
}
