package dev.ssdpulse.cli.options;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.schemas.avro.RunStarted;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --label KEY=VALUE} on the producers: free-form labels in the run's RunStarted (drive under test, test
 * campaign, scheduler series), by which {@code report --label} picks a set of runs.
 */
public final class RunLabelOptions {
    @Option(
            names = "--label",
            paramLabel = "KEY=VALUE",
            description = "A label of the run, repeatable (e.g. --label campaign=seed000 --label drive=sample-2).")
    Map<String, String> labels = new LinkedHashMap<>();

    /** The run's RunStarted with these labels added (a label given here wins over one the producer set). */
    public RunStarted apply(RunStarted started) {
        if (labels.isEmpty()) {
            return started;
        }
        for (var e : labels.entrySet()) {
            if (e.getKey().isBlank()) {
                throw new UserInputException(
                        "--label needs KEY=VALUE with a non-empty key, got '=" + e.getValue() + "'");
            }
        }
        Map<String, String> merged = new HashMap<>(started.getLabels());
        merged.putAll(labels);
        return RunStarted.newBuilder(started).setLabels(merged).build();
    }
}
