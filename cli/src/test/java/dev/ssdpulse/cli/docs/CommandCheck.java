package dev.ssdpulse.cli.docs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Whether a shown command line is one the real commands accept, without running it: a concrete command is parsed
 * by picocli against the command classes (unknown options, missing values, values of the wrong type and missing
 * required options fail as they would for a user); a synopsis names a command path that exists and options that
 * path's {@code --help} lists. A workload or simulated-drive preset named in {@code --workload} / {@code -w} /
 * {@code --ssd} must exist (unless it is a file name).
 */
final class CommandCheck {

    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--?[A-Za-z][\\w-]*)");

    private final Supplier<CommandLine> commandLine;
    private final Set<String> workloadPresets;
    private final Set<String> ssdPresets;
    private CommandLine model;

    CommandCheck(Supplier<CommandLine> commandLine, Set<String> workloadPresets, Set<String> ssdPresets) {
        this.commandLine = commandLine;
        this.workloadPresets = workloadPresets;
        this.ssdPresets = ssdPresets;
    }

    Optional<String> check(ShownCommands.Shown shown) {
        return shown.synopsis() ? checkSynopsis(shown) : checkConcrete(shown);
    }

    private Optional<String> checkConcrete(ShownCommands.Shown shown) {
        CommandLine cli = model();
        try {
            CommandLine.ParseResult parsed = cli.parseArgs(shown.args().toArray(String[]::new));
            while (parsed.subcommand() != null) {
                parsed = parsed.subcommand();
            }
            return checkPresets(parsed, shown);
        } catch (CommandLine.ParameterException e) {
            return Optional.of("`ssdpulse " + String.join(" ", shown.args()) + "` does not parse: " + e.getMessage());
        }
    }

    private Optional<String> checkPresets(CommandLine.ParseResult parsed, ShownCommands.Shown shown) {
        for (String[] option : new String[][] {{"--workload", "workload"}, {"--ssd", "simulated-drive"}}) {
            if (!parsed.hasMatchedOption(option[0])) {
                continue;
            }
            Object value = parsed.matchedOptionValue(option[0], null);
            String name = String.valueOf(value);
            Set<String> known = option[0].equals("--ssd") ? ssdPresets : workloadPresets;
            boolean isFile = name.contains("/") || name.contains(".");
            boolean placeholder = name.equals(name.toUpperCase()) || name.contains("<");
            if (!isFile && !placeholder && !known.contains(name)) {
                return Optional.of("`ssdpulse " + String.join(" ", shown.args()) + "`: no " + option[1] + " preset "
                        + name + " (known: " + String.join(", ", known) + ")");
            }
        }
        return Optional.empty();
    }

    private Optional<String> checkSynopsis(ShownCommands.Shown shown) {
        CommandLine command = model();
        List<String> path = new ArrayList<>();
        int i = 0;
        for (; i < shown.args().size(); i++) {
            String word = shown.args().get(i);
            CommandLine sub = command.getSubcommands().get(word);
            if (sub == null) {
                break;
            }
            command = sub;
            path.add(word);
        }
        String commandName = path.isEmpty() ? "ssdpulse" : "ssdpulse " + String.join(" ", path);
        // "ssdpulse ... --format json": some command; each option must be one command's at least
        boolean anyCommand =
                path.isEmpty() && i < shown.args().size() && shown.args().get(i).equals("...");
        if (path.isEmpty()
                && !anyCommand
                && i < shown.args().size()
                && !shown.args().get(i).startsWith("-")
                && !shown.args().get(i).startsWith("[")) {
            return Optional.of("`" + shown.text() + "`: ssdpulse has no command "
                    + shown.args().get(i));
        }
        List<CommandLine> candidates = anyCommand ? everyCommand(command, new ArrayList<>()) : List.of(command);
        List<String> unknown = new ArrayList<>();
        for (String word : shown.args().subList(i, shown.args().size())) {
            Matcher m = OPTION.matcher(word);
            while (m.find()) {
                String name = m.group(1);
                if (candidates.stream().noneMatch(c -> knows(c, name))) {
                    unknown.add(name);
                }
            }
        }
        if (!unknown.isEmpty()) {
            return Optional.of(
                    "`" + shown.text() + "`: " + commandName + " --help knows no option " + String.join(", ", unknown));
        }
        return Optional.empty();
    }

    /** findOption also matches a name without its dashes: the document must spell it as the command does. */
    private static boolean knows(CommandLine command, String name) {
        CommandLine.Model.OptionSpec option = command.getCommandSpec().findOption(name);
        return option != null && Arrays.asList(option.names()).contains(name);
    }

    private static List<CommandLine> everyCommand(CommandLine command, List<CommandLine> out) {
        out.add(command);
        command.getSubcommands().values().forEach(sub -> everyCommand(sub, out));
        return out;
    }

    /**
     * One command model for every check: building one takes a quarter of a second on a loaded machine, and picocli
     * resets every option to its initial value at the start of each parse, so parses do not see each other.
     */
    private CommandLine model() {
        if (model == null) {
            model = commandLine.get();
        }
        return model;
    }
}
