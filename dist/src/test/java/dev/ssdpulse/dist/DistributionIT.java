package dev.ssdpulse.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The binary distribution on a machine with only Java: the tarball that {@code package} made is unpacked into a
 * temporary directory and its {@code bin/ssdpulse} runs with a PATH that holds Java and a handful of shell tools,
 * no Maven and no sources, and a home directory of its own (so nothing of the developer's ~/.m2 or ~/.ssdpulse
 * is seen).
 */
@Timeout(value = 6, unit = java.util.concurrent.TimeUnit.MINUTES)
class DistributionIT {
    private static final Pattern BOOTSTRAP = Pattern.compile("bootstrap servers : (\\S+)");
    private static final Pattern REGISTRY = Pattern.compile("schema registry\\s+: (\\S+)");

    @TempDir
    static Path machine;
    static Path home;
    static Map<String, String> onlyJava;

    @BeforeAll
    static void unpackOntoAMachineWithOnlyJava() throws Exception {
        Path tarball = Path.of(System.getProperty("ssdpulse.distribution"));
        assertThat(tarball).exists();
        Path unpacked = Files.createDirectories(machine.resolve("opt"));
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString())
                .inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        home = unpacked.resolve("ssdpulse-" + System.getProperty("ssdpulse.version"));

        // a PATH of Java and the few tools a shell script needs: no mvn, no git, no sources
        Path bin = Files.createDirectories(machine.resolve("bin"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Files.createSymbolicLink(bin.resolve("java"), java);
        for (String tool : List.of("bash", "sed", "head", "cut", "dirname", "readlink", "env")) {
            Files.createSymbolicLink(bin.resolve(tool), which(tool));
        }
        Path userHome = Files.createDirectories(machine.resolve("home"));
        onlyJava = new HashMap<>();
        onlyJava.put("PATH", bin.toString());
        onlyJava.put("HOME", userHome.toString());
        onlyJava.put("LANG", "C.UTF-8");
        // Java takes user.home from the password file, not from HOME
        onlyJava.put("SSDPULSE_JAVA_OPTS", "-Xmx512m -Duser.home=" + userHome);
    }

    @Test
    void holdsTheLauncherTheLibrariesTheReadmeAndTheLicences() throws IOException {
        assertThat(home.resolve("bin/ssdpulse")).isExecutable();
        assertThat(home.resolve("README.md")).isRegularFile();
        assertThat(Files.readString(home.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        String thirdParty = Files.readString(home.resolve("licenses/THIRD-PARTY.txt"));
        assertThat(thirdParty).contains("kafka-clients", "avro", "picocli").doesNotContain("Unknown license");
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            assertThat(jars.map(p -> p.getFileName().toString()).toList())
                    .contains("ssdpulse-cli-" + System.getProperty("ssdpulse.version") + ".jar",
                            "kafka_2.13-4.4.0.jar", "kafka-streams-4.4.0.jar")
                    .noneMatch(name -> name.contains("junit") || name.contains("-tests"));
        }
    }

    @Test
    void printsItsVersion() throws Exception {
        try (Script version = run("--version")) {
            assertThat(version.awaitExit(60)).as(version.stderr()).isZero();
            assertThat(version.stdout()).contains("ssdpulse " + System.getProperty("ssdpulse.version"))
                    .contains("Apache Kafka clients 4.4.0");
        }
    }

    @Test
    void simulatesOffline() throws Exception {
        try (Script simulate = run("simulate", "--ssd", "tiny-test", "--workload", "seed001-tweakers-continuous",
                "--duration", "10s", "--span", "100MB", "--offline", "--format", "json")) {
            assertThat(simulate.awaitExit(120)).as(simulate.stderr()).isZero();
            assertThat(simulate.stdout()).contains("\"status\"").contains("\"ioCount\"").contains("\"COMPLETED\"");
        }
    }

    @Test
    void startsTheStackStreamsARunIntoItAndStopsLeavingNothingRunning() throws Exception {
        try (Script stack = run("stack", "--ephemeral", "--kafka-port", "0", "--registry-port", "0")) {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250))
                    .until(() -> stack.stdout().contains("ssdpulse stack is up") || !stack.handle().isAlive());
            String up = stack.stdout();
            assertThat(up).as(stack.stderr()).contains("ssdpulse stack is up");
            String bootstrap = group(BOOTSTRAP, up);
            String registry = group(REGISTRY, up);

            String runId = "dist-it";
            try (Script simulate = run("simulate", "--ssd", "tiny-test", "--workload", "seed001-tweakers-continuous",
                    "--duration", "5s", "--span", "100MB", "--run-id", runId, "--quiet",
                    "--bootstrap-servers", bootstrap, "--schema-registry-url", registry)) {
                assertThat(simulate.awaitExit(120)).as(simulate.stderr()).isZero();
                assertThat(simulate.stdout()).contains("run " + runId + ": COMPLETED").contains(", 0 not published");
            }
            try (Script verify = run("runs", "verify", "--run", runId, "--bootstrap-servers", bootstrap,
                    "--schema-registry-url", registry, "--timeout", "60s")) {
                assertThat(verify.awaitExit(120)).as(verify.stdout() + verify.stderr()).isZero();
            }

            List<ProcessHandle> tree = stack.processTree();
            assertThat(tree).as("the stack and its broker JVM").hasSizeGreaterThanOrEqualTo(2);
            stack.handle().destroy(); // SIGTERM, as `kill` or a service manager sends it
            assertThat(stack.awaitExit(60)).isIn(0, 143);
            await().atMost(Duration.ofSeconds(30)).until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
            assertThat(stack.stdout()).contains("ssdpulse stack stopped.");
        }
    }

    private static Script run(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("bin/ssdpulse").toString());
        command.addAll(List.of(args));
        return Script.start(machine, onlyJava, command);
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(pattern + " in\n" + text).isTrue();
        return m.group(1);
    }

    private static Path which(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(tool + " is not on the PATH of the test JVM");
    }
}
