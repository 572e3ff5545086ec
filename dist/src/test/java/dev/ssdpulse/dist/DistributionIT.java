package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binary distribution on a machine with only Java ({@link UnpackedDistribution}): its {@code bin/ssdpulse}
 * prints the version, simulates offline, and starts the stack that a streamed run then goes through.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class DistributionIT {
    static UnpackedDistribution dist;

    @BeforeAll
    static void unpack() throws Exception {
        dist = UnpackedDistribution.get();
    }

    @Test
    void holdsTheLauncherTheLibrariesTheDocumentsAndTheLicences() throws IOException {
        Path home = dist.home;
        assertThat(home.resolve("bin/ssdpulse")).isExecutable();
        assertThat(home.resolve("README.md")).isRegularFile();
        // README's links: the pages of docs/ and BENCHMARKS.md travel with it
        assertThat(home.resolve("docs/commands.md")).isRegularFile();
        assertThat(home.resolve("BENCHMARKS.md")).isRegularFile();
        assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        String thirdParty = Files.readString(home.resolve("licenses/THIRD-PARTY.txt"));
        assertThat(thirdParty).contains("kafka-clients", "avro", "picocli").doesNotContain("Unknown license");
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertThat(jars.map(p -> p.getFileName().toString()).toList())
                    .contains(
                            "ssdpulse-cli-" + UnpackedDistribution.version() + ".jar",
                            "kafka_2.13-4.4.0.jar",
                            "kafka-streams-4.4.0.jar")
                    .noneMatch(name -> name.contains("junit") || name.contains("-tests"));
        }
    }

    @Test
    void printsItsVersion() throws Exception {
        try (Script version = dist.run("--version")) {
            assertThat(version.awaitExit(60)).as(version.stderr()).isZero();
            assertThat(version.stdout())
                    .contains("ssdpulse " + UnpackedDistribution.version())
                    .contains("Apache Kafka clients 4.4.0");
        }
    }

    @Test
    void refusesAJavaOlderThan17WithAClearMessage() throws Exception {
        Path fakeJdk = Files.createDirectories(dist.machine.resolve("old-jdk/bin"));
        Path fakeJava = fakeJdk.resolve("java");
        Files.writeString(fakeJava, "#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n");
        assertThat(fakeJava.toFile().setExecutable(true)).isTrue();
        var env = new HashMap<>(dist.onlyJava);
        env.put("JAVA_HOME", fakeJdk.getParent().toString());
        try (Script old = Script.start(
                dist.machine, env, List.of(dist.home.resolve("bin/ssdpulse").toString(), "--version"))) {
            assertThat(old.awaitExit(30)).isEqualTo(1);
            assertThat(old.stderr()).contains("needs Java 17 or newer").contains("11.0.22");
        }
    }

    @Test
    void simulatesOffline() throws Exception {
        try (Script simulate = dist.run(
                "simulate",
                "--ssd",
                "tiny-test",
                "--workload",
                "seed001-tweakers-continuous",
                "--duration",
                "10s",
                "--set",
                "targetSize=100MB",
                "--offline",
                "--format",
                "json")) {
            assertThat(simulate.awaitExit(120)).as(simulate.stderr()).isZero();
            assertThat(simulate.stdout())
                    .contains("\"status\"")
                    .contains("\"ioCount\"")
                    .contains("\"COMPLETED\"");
        }
    }

    @Test
    void startsTheStackStreamsARunIntoItAndStopsLeavingNothingRunning() throws Exception {
        try (Script stack = dist.run("stack", "--ephemeral", "--kafka-port", "0", "--registry-port", "0")) {
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> stack.stdout().contains("ssdpulse stack is up")
                            || !stack.handle().isAlive());
            assertThat(stack.stdout())
                    .as(stack.stderr())
                    .contains("ssdpulse stack is up")
                    .contains("value schemas     : 13 registered");
            String[] addresses = UnpackedDistribution.bootstrapAndRegistry(stack.stdout());

            String runId = "dist-it";
            try (Script simulate = dist.run(
                    "simulate",
                    "--ssd",
                    "tiny-test",
                    "--workload",
                    "seed001-tweakers-continuous",
                    "--duration",
                    "5s",
                    "--set",
                    "targetSize=100MB",
                    "--run-id",
                    runId,
                    "--quiet",
                    "--bootstrap-servers",
                    addresses[0],
                    "--schema-registry-url",
                    addresses[1])) {
                assertThat(simulate.awaitExit(120)).as(simulate.stderr()).isZero();
                assertThat(simulate.stdout())
                        .contains("run " + runId + ": COMPLETED")
                        .contains(", 0 not published");
            }
            try (Script verify = dist.run(
                    "runs",
                    "verify",
                    "--run",
                    runId,
                    "--bootstrap-servers",
                    addresses[0],
                    "--schema-registry-url",
                    addresses[1],
                    "--timeout",
                    "60s")) {
                assertThat(verify.awaitExit(120))
                        .as(verify.stdout() + verify.stderr())
                        .isZero();
            }

            List<ProcessHandle> tree = stack.processTree();
            assertThat(tree).as("the stack and its broker JVM").hasSizeGreaterThanOrEqualTo(2);
            stack.handle().destroy(); // SIGTERM, as `kill` or a service manager sends it
            assertThat(stack.awaitExit(60)).isIn(0, 143);
            await().atMost(Duration.ofSeconds(30)).until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
            assertThat(stack.stdout()).contains("ssdpulse stack stopped.");
        }
    }
}
