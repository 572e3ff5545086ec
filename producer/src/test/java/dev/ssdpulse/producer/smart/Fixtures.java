package dev.ssdpulse.producer.smart;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The drive outputs of {@code src/test/resources/smart} (each names the format it follows in its
 * "ssdpulse_fixture" field; SOURCES.md there lists them), and a command runner that answers tool commands with
 * them, as smartctl and nvme would, without processes.
 */
final class Fixtures {
    static final Path NVME = Path.of("/usr/sbin/nvme");
    static final Path SMARTCTL = Path.of("/usr/sbin/smartctl");

    private Fixtures() {}

    private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

    static String fixture(String name) {
        return CACHE.computeIfAbsent(name, Fixtures::load);
    }

    private static String load(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/smart/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Answers commands by their words without the device ({@link #key}: "nvme id-ctrl -o json", "smartctl -j -a"): a
     * fixture name (*.json), the output itself, or "!message" for a tool that fails with that
     * message on stderr and prints nothing; a command it does not know fails as nvme-cli does for a plugin the
     * drive does not support. Every command run is recorded.
     */
    static final class Runner implements SmartPlan.CommandRunner {
        final Map<String, String> answers = new LinkedHashMap<>();
        final List<List<String>> ran = new ArrayList<>();

        Runner answer(String command, String fixtureOrFailure) {
            answers.put(command, fixtureOrFailure);
            return this;
        }

        @Override
        public String run(List<String> command, Duration timeout) throws IOException {
            ran.add(command);
            String key = key(command);
            String answer = answers.get(key);
            if (answer == null) {
                throw new IOException("no output (exit code 1: Invalid sub-command '" + key + "')");
            }
            if (answer.startsWith("!")) {
                throw new IOException("no output (exit code 22: " + answer.substring(1) + ")");
            }
            return answer.endsWith(".json") ? fixture(answer) : answer;
        }

        /** The tool's name and its arguments but the device: "nvme ocp smart-add-log -o json", "smartctl -j -a". */
        static String key(List<String> command) {
            List<String> words = new ArrayList<>();
            words.add(Path.of(command.get(0)).getFileName().toString());
            for (String w : command.subList(1, command.size())) {
                if (!w.startsWith("/")) {
                    words.add(w);
                }
            }
            return String.join(" ", words);
        }
    }

    /** The plan an NVMe drive gets with nvme-cli and smartctl on the PATH. */
    static SmartPlan nvmePlan(Runner runner) throws InterruptedException {
        return SmartPlan.probe(Path.of("/dev/nvme0n1"), Optional.of(NVME), Optional.of(SMARTCTL), runner);
    }

    static SmartReading nvmeReading(Runner runner) throws Exception {
        return nvmePlan(runner).poll(1, runner);
    }

    static SmartReading sataReading(String fixture) throws Exception {
        Runner runner = new Runner().answer("smartctl -j -a", fixture);
        return SmartPlan.probe(Path.of("/dev/sda"), Optional.of(NVME), Optional.of(SMARTCTL), runner)
                .poll(1, runner);
    }
}
