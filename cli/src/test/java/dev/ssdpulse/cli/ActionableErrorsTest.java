package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.cli.command.HandledKafkaRetries;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilterable;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each mistake a user makes, or a missing cluster, is one line that says what to do. */
class ActionableErrorsTest {

    @Test
    void anUnknownDrivePresetNamesThePresetsAndTheNearest() {
        CliRun r = CliRun.of("simulate", "--offline", "--ssd", "sata-240", "--workload", "seed003-mixed-80-20");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(lines(r.err()))
                .singleElement()
                .asString()
                .contains("--ssd sata-240: no preset of that name")
                .contains("did you mean sata-240gb?")
                .contains("tiny-test")
                .doesNotContain("cannot read preset file");
    }

    @Test
    void aWorkloadTypoOffersTheNearestPreset() {
        CliRun r = CliRun.of("simulate", "--offline", "--workload", "snia-pts-iosp");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(lines(r.err())).singleElement().asString().contains("did you mean snia-pts-iops?");
    }

    @Test
    void aBadOptionValueIsOneLineAndAHintNotTheWholeUsage() {
        CliRun r = CliRun.of("simulate", "-q", "abc", "--workload", "seed003-mixed-80-20");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(lines(r.err()))
                .containsExactly(
                        "error: Invalid value for option '--queue-depth': 'abc' is not an int",
                        "see `ssdpulse simulate --help` for its options");
    }

    @Test
    void aMalformedFioLogNamesTheFileTheLineAndWhatWasExpected(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("job_clat.1.log");
        Files.writeString(log, "hello world\nthis is not a fio log\n");
        CliRun r = CliRun.of("import", "fio", log.toString(), "--offline");
        assertThat(r.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(lines(r.err()))
                .containsExactly("error: " + log + ":1: column 1 (time ms) is not a non-negative whole number:"
                        + " 'hello world'");
        assertThat(r.out()).as("no run was started").isEmpty();

        Path shortLine = dir.resolve("job_lat.2.log");
        Files.writeString(shortLine, "0, 100, 0, 4096, 0\n5, 200, 0, 4096\n");
        CliRun columns = CliRun.of("import", "fio", shortLine.toString(), "--offline");
        assertThat(columns.exit()).isEqualTo(Main.EXIT_BAD_INPUT);
        assertThat(columns.err()).contains(shortLine + ":2: 4 columns, expected 5 or 6");
    }

    /**
     * No Kafka on the address: every command that needs it says so in one line within 10 s, naming the servers it
     * tried and `ssdpulse stack`; at once where nothing listens, after the check's timeout where something listens
     * but does not answer as Kafka; a device run creates no target file first.
     */
    @Test
    void noReachableKafkaIsOneLineWithinTenSeconds(@TempDir Path dir) throws Exception {
        String nothing = "127.0.0.1:" + freePort();
        try (ServerSocket silent = new ServerSocket(0)) { // accepts connections (backlog), never answers
            String mute = "127.0.0.1:" + silent.getLocalPort();
            record Case(String servers, String why, String... command) {}
            List<Case> cases = List.of(
                    new Case(
                            nothing,
                            nothing + ": connection refused, nothing listens there",
                            "simulate",
                            "--ssd",
                            "tiny-test",
                            "--workload",
                            "seed003-mixed-80-20",
                            "-d",
                            "1s"),
                    new Case(
                            nothing,
                            nothing + ": connection refused, nothing listens there",
                            "streams",
                            "--exit-after",
                            "1s",
                            "--state-dir",
                            dir.resolve("state").toString()),
                    new Case(mute, "no answer within 4 s", "report", "--run", "r1"),
                    new Case(
                            nothing,
                            nothing + ": connection refused, nothing listens there",
                            "device",
                            "--target",
                            dir.resolve("t.bin").toString(),
                            "--size",
                            "16MiB",
                            "--workload",
                            "seed003-mixed-80-20"));
            for (Case c : cases) {
                List<String> args = new ArrayList<>(List.of(c.command()));
                args.addAll(List.of("--bootstrap-servers", c.servers()));
                long startNs = System.nanoTime();
                CliRun r = CliRun.of(args.toArray(String[]::new));
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs);
                assertThat(r.exit()).as(r.err()).isEqualTo(1);
                assertThat(lines(r.err()))
                        .singleElement()
                        .asString()
                        .startsWith("error: cannot reach Kafka at " + c.servers() + " (" + c.why() + ")")
                        .contains("`ssdpulse stack`");
                assertThat(seconds).as(c.command()[0] + " answered within 10 s").isLessThan(10);
            }
        }
        assertThat(dir.resolve("t.bin"))
                .as("nothing prepared for a run that cannot start")
                .doesNotExist();
    }

    /** The CLI's console appenders carry the filter: what they print goes through it. */
    @Test
    void theFilterIsOnTheConsole() {
        HandledKafkaRetries.install();
        AbstractFilterable console = (AbstractFilterable) ((LoggerContext) LogManager.getContext(false))
                .getConfiguration()
                .getAppenders()
                .values()
                .iterator()
                .next();
        long before = HandledKafkaRetries.counts().getOrDefault("OUT_OF_ORDER_SEQUENCE_NUMBER", 0L);
        assertThat(console.isFiltered(event(
                        "org.apache.kafka.clients.producer.internals.Sender",
                        Level.WARN,
                        "Got error produce response, retrying. Error: OUT_OF_ORDER_SEQUENCE_NUMBER")))
                .isTrue();
        assertThat(HandledKafkaRetries.counts().get("OUT_OF_ORDER_SEQUENCE_NUMBER"))
                .isEqualTo(before + 1);
        assertThat(HandledKafkaRetries.summaryLine()).contains("OUT_OF_ORDER_SEQUENCE_NUMBER");
    }

    private static Log4jLogEvent event(String logger, Level level, String message) {
        return Log4jLogEvent.newBuilder()
                .setLoggerName(logger)
                .setLevel(level)
                .setMessage(new SimpleMessage(message))
                .build();
    }

    private static List<String> lines(String text) {
        return text.lines().filter(l -> !l.isBlank()).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
