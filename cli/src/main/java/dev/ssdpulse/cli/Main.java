package dev.ssdpulse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Composition root: every command is wired here, nowhere else has a {@code main}. */
@Command(name = "ssdpulse",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Event-sourced SSD benchmarking telemetry on Apache Kafka.",
        subcommands = {CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
