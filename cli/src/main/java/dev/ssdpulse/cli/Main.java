package dev.ssdpulse.cli;

import dev.ssdpulse.cli.analytics.ReplayCommand;
import dev.ssdpulse.cli.analytics.StreamsCommand;
import dev.ssdpulse.cli.command.HandledKafkaRetries;
import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.demo.DemoCommand;
import dev.ssdpulse.cli.device.DeviceCommand;
import dev.ssdpulse.cli.importer.ImportCommand;
import dev.ssdpulse.cli.play.PlayCommand;
import dev.ssdpulse.cli.registry.RegistryCommand;
import dev.ssdpulse.cli.report.ReportCommand;
import dev.ssdpulse.cli.runs.RunsCommand;
import dev.ssdpulse.cli.simulate.SimulateCommand;
import dev.ssdpulse.cli.smart.SmartCommand;
import dev.ssdpulse.cli.stack.StackCommand;
import dev.ssdpulse.cli.verify.VerifyCommand;
import dev.ssdpulse.cli.workloads.WorkloadsCommand;
import dev.ssdpulse.platform.KafkaReachability;
import dev.ssdpulse.producer.fio.FioLogFormatException;
import dev.ssdpulse.producer.workload.Units;
import dev.ssdpulse.producer.workload.WorkloadValidationException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.common.errors.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Composition root and the CLI's entry point: every command is wired here. (The only other {@code main} of the
 * product code is the broker process that {@code platform} starts in a child JVM, {@code KafkaBrokerProcessMain}.)
 */
// scope = INHERIT copies --help/-h and --version/-V to every subcommand at any depth, so
// `ssdpulse demo --help` answers like the top level does.
@Command(
        name = "ssdpulse",
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Event-sourced SSD benchmarking telemetry on Apache Kafka.",
        subcommands = {
            CommandLine.HelpCommand.class,
            DemoCommand.class,
            StackCommand.class,
            RegistryCommand.class,
            SimulateCommand.class,
            DeviceCommand.class,
            SmartCommand.class,
            ImportCommand.class,
            StreamsCommand.class,
            ReplayCommand.class,
            PlayCommand.class,
            ReportCommand.class,
            RunsCommand.class,
            VerifyCommand.class,
            WorkloadsCommand.class
        })
public final class Main implements Runnable {

    /** Exit code for bad input (flags, files): distinct from a failure of the tool itself (1). */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code when Kafka or the registry refused the login or the operation (credentials, ACLs). */
    public static final int EXIT_REFUSED = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static CommandLine commandLine() {
        HandledKafkaRetries.install();
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler(Main::handleExecutionException);
        cli.setParameterExceptionHandler(Main::handleParameterException);
        cli.setExecutionStrategy(parsed -> {
            KafkaPreflight.check(parsed);
            return new CommandLine.RunLast().execute(parsed);
        });
        // Durations and sizes in the units users write ("30s", "20m", "4k", "160GB"), as in workload files.
        cli.registerConverter(Duration.class, text -> Duration.ofNanos(Units.parseDurationNs(text)));
        return cli;
    }

    /**
     * A bad option or value: one line saying what was wrong, and where the options are described (not the whole
     * usage, which buried the line that mattered under sixty others).
     */
    private static int handleParameterException(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println("error: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("see `" + cli.getCommandSpec().qualifiedName() + " --help` for its options");
        err.flush();
        return EXIT_BAD_INPUT;
    }

    /**
     * Bad input is reported as one clear message (every problem of a workload file, one per line), not a
     * stack trace; anything else is a bug or an environment failure and keeps its stack trace.
     */
    private static int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        PrintWriter err = cli.getErr();
        var refused = AccessErrors.describe(e, loginUser(parsed));
        if (refused.isPresent()) {
            err.println("error: " + refused.get());
            err.flush();
            return EXIT_REFUSED;
        }
        if (e instanceof WorkloadValidationException invalid) {
            err.println("error: invalid workload:");
            invalid.problems().forEach(p -> err.println("  " + p));
            err.flush();
            return EXIT_BAD_INPUT;
        }
        if (e instanceof IllegalArgumentException
                || e instanceof UserInputException
                || e instanceof FioLogFormatException) {
            err.println("error: " + e.getMessage());
            err.flush();
            return EXIT_BAD_INPUT;
        }
        if (e instanceof KafkaReachability.KafkaUnreachableException unreachable) {
            err.println("error: " + unreachable.getMessage());
            err.flush();
            return 1;
        }
        TimeoutException timeout = kafkaTimeout(e);
        if (timeout != null) {
            err.println("error: Kafka did not answer in time (is `ssdpulse stack` running, are --bootstrap-servers "
                    + "and --schema-registry-url right, and for a secured cluster (stack --secure) is --kafka-config "
                    + "given? a client without TLS and credentials gets no answer): " + timeout.getMessage());
            err.flush();
            return 1;
        }
        if (e instanceof UncheckedIOException io) {
            err.println("error: " + io.getCause().getMessage());
            err.flush();
            return 1;
        }
        err.println("error: " + e);
        e.printStackTrace(err);
        err.flush();
        return 1;
    }

    /** A Kafka timeout anywhere in the cause chain: the usual face of an unreachable or unanswering cluster. */
    private static TimeoutException kafkaTimeout(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof TimeoutException t) {
                return t;
            }
        }
        return null;
    }

    /**
     * The Kafka user the failed command logged in as: the {@code sasl.jaas.config} of its -X options, else of its
     * --kafka-config file (Kafka's authorization errors do not name it).
     */
    private static Optional<String> loginUser(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult leaf = parsed;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        Map<String, String> overrides = leaf.matchedOptionValue("-X", Map.<String, String>of());
        if (overrides.containsKey("sasl.jaas.config")) {
            return AccessErrors.jaasUser(overrides.get("sasl.jaas.config"));
        }
        Path file = leaf.matchedOptionValue("--kafka-config", null);
        if (file == null) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            p.load(reader);
        } catch (IOException ex) {
            return Optional.empty();
        }
        return AccessErrors.jaasUser(p.getProperty("sasl.jaas.config"));
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
