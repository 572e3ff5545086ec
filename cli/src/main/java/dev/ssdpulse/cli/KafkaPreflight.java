package dev.ssdpulse.cli;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.options.OfflineOptions;
import dev.ssdpulse.platform.KafkaReachability;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * Before a command that talks to Kafka (it has the Kafka options and is not --offline) runs, the cluster is asked
 * for its id: one that does not answer is one line within seconds ({@link KafkaReachability}), before a simulation
 * runs or a device target is prepared, for every such command alike. The id is kept in the command's
 * {@link KafkaOptions} for the commands that need it.
 */
final class KafkaPreflight {
    private KafkaPreflight() {}

    static void check(ParseResult parsed) {
        ParseResult leaf = parsed;
        while (true) {
            if (leaf.isUsageHelpRequested() || leaf.isVersionHelpRequested()) {
                return;
            }
            if (leaf.subcommand() == null) {
                break;
            }
            leaf = leaf.subcommand();
        }
        CommandSpec command = leaf.commandSpec();
        KafkaOptions kafka = null;
        for (CommandSpec mixin : command.mixins().values()) {
            if (mixin.userObject() instanceof OfflineOptions offline && offline.offline) {
                return;
            }
            if (mixin.userObject() instanceof KafkaOptions k) {
                kafka = k;
            }
        }
        if (kafka == null) {
            return;
        }
        try {
            kafka.clusterId();
        } catch (RuntimeException e) {
            // through the command's execution-exception handler: the same one-line messages as a failure inside it
            throw new CommandLine.ExecutionException(leaf.commandSpec().commandLine(), e.getMessage(), e);
        }
    }
}
