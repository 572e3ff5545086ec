package dev.ssdpulse.cli.importer;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code ssdpulse import <source>}: existing benchmark results become ssdpulse runs. */
@Command(name = "import", description = "Import results of other tools as runs.", subcommands = ImportFioCommand.class)
public final class ImportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
