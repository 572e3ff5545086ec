package dev.ssdpulse.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.platform.kafka.EmbeddedKafkaBroker;
import dev.ssdpulse.platform.testing.TestJvmOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The tarball that {@code package} made, unpacked once per test JVM onto a "machine with only Java": a PATH of
 * Java and the few tools a shell script needs (no Maven, no git, no sources) and a home directory of its own, so
 * nothing of the developer's ~/.m2 or ~/.ssdpulse is seen.
 */
final class UnpackedDistribution {
    private static final Pattern BOOTSTRAP = Pattern.compile("bootstrap servers : (\\S+)");
    private static final Pattern REGISTRY = Pattern.compile("schema registry\\s+: (\\S+)");
    private static UnpackedDistribution instance;

    final Path machine;
    final Path home;
    final Map<String, String> onlyJava;

    private UnpackedDistribution(Path machine, Path home, Map<String, String> onlyJava) {
        this.machine = machine;
        this.home = home;
        this.onlyJava = onlyJava;
    }

    static synchronized UnpackedDistribution get() throws IOException, InterruptedException {
        if (instance == null) {
            instance = unpack();
        }
        return instance;
    }

    static String version() {
        return System.getProperty("ssdpulse.version");
    }

    private static UnpackedDistribution unpack() throws IOException, InterruptedException {
        Path tarball = Path.of(System.getProperty("ssdpulse.distribution"));
        assertThat(tarball).exists();
        Path machine = Files.createTempDirectory("ssdpulse-dist-it-");
        Path unpacked = Files.createDirectories(machine.resolve("opt"));
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", unpacked.toString())
                .inheritIO()
                .start();
        assertThat(tar.waitFor()).isZero();

        Path bin = Files.createDirectories(machine.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        for (String tool : List.of("bash", "sed", "head", "cut", "dirname", "readlink", "env")) {
            Files.createSymbolicLink(bin.resolve(tool), which(tool));
        }
        Path userHome = Files.createDirectories(machine.resolve("home"));
        Map<String, String> env = new HashMap<>();
        env.put("PATH", bin.toString());
        env.put("HOME", userHome.toString());
        env.put("LANG", "C.UTF-8");
        // Java takes user.home from the password file, not from HOME
        env.put(
                "SSDPULSE_JAVA_OPTS",
                "-Xmx512m -Duser.home=" + userHome + brokerJvmArgsOption() + childJvmArgsOption());
        return new UnpackedDistribution(machine, unpacked.resolve("ssdpulse-" + version()), Map.copyOf(env));
    }

    /**
     * The build's test broker options for the brokers the launched JVM starts, as in-process tests' brokers get
     * them ({@link EmbeddedKafkaBroker#JVM_ARGS_PROPERTY}; the root pom says why), or "" when the build sets none. The
     * launcher splits SSDPULSE_JAVA_OPTS at spaces, so a value with spaces is not passed.
     */
    static String brokerJvmArgsOption() {
        String value =
                System.getProperty(EmbeddedKafkaBroker.JVM_ARGS_PROPERTY, "").strip();
        return value.isEmpty() || value.contains(" ")
                ? ""
                : " -D" + EmbeddedKafkaBroker.JVM_ARGS_PROPERTY + "=" + value;
    }

    /**
     * The build's options for the JVMs tests start ({@link TestJvmOptions}) as a suffix of SSDPULSE_JAVA_OPTS, or "".
     */
    static String childJvmArgsOption() {
        return TestJvmOptions.forChildJvms().stream()
                .map(option -> " " + option)
                .collect(Collectors.joining());
    }

    /** {@code bin/ssdpulse ARGS} as its own process. */
    Script run(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/ssdpulse").toString());
        command.addAll(List.of(args));
        return Script.start(machine, onlyJava, command);
    }

    /** The addresses that a started {@code ssdpulse stack} printed. */
    static String[] bootstrapAndRegistry(String stackOutput) {
        return new String[] {group(BOOTSTRAP, stackOutput), group(REGISTRY, stackOutput)};
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(pattern + " in\n" + text).isTrue();
        return m.group(1);
    }

    static Path which(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(tool + " is not on the PATH of the test JVM");
    }
}
