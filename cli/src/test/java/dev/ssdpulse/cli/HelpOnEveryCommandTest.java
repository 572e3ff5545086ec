package dev.ssdpulse.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** Every command and subcommand, at any depth, answers --help and -h with its usage and exit status 0. */
class HelpOnEveryCommandTest {

    static Stream<Arguments> everyCommandWithEachHelpFlag() {
        List<List<String>> paths = new ArrayList<>();
        collect(Main.commandLine(), new ArrayList<>(), paths);
        assertThat(paths).as("the walk found the commands").hasSizeGreaterThan(15);
        return paths.stream().flatMap(path -> Stream.of("--help", "-h").map(flag -> Arguments.of(path, flag)));
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> out) {
        out.add(List.copyOf(path));
        command.getSubcommands().forEach((name, sub) -> {
            // aliases appear as extra keys for the same command; walk each command once
            if (!name.equals(sub.getCommandName())) {
                return;
            }
            List<String> subPath = new ArrayList<>(path);
            subPath.add(name);
            collect(sub, subPath, out);
        });
    }

    @ParameterizedTest(name = "ssdpulse {0} {1}")
    @MethodSource("everyCommandWithEachHelpFlag")
    void answersHelpWithUsageAndExitZero(List<String> path, String flag) {
        CommandLine cli = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(path);
        args.add(flag);

        int exit = cli.execute(args.toArray(String[]::new));

        assertThat(exit).as("exit status; stderr: %s", err).isZero();
        String usageLine = "Usage: "
                + String.join(
                        " ", Stream.concat(Stream.of("ssdpulse"), path.stream()).toList());
        assertThat(out.toString()).contains(usageLine).contains("-h, --help");
        assertThat(err.toString()).isEmpty();
    }
}
