package dev.ssdpulse.cli.options;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.producer.naming.NearestName;
import dev.ssdpulse.producer.workload.Amount;
import dev.ssdpulse.producer.workload.Span;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadOverrides;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Which workload to run, shared by {@code simulate} and {@code device}: a preset or a file, plus overrides. */
public final class WorkloadOptions {

    @Option(
            names = {"-w", "--workload"},
            required = true,
            paramLabel = "NAME|FILE",
            description = "A preset name (see `ssdpulse workloads`) or a workload file (YAML or JSON).")
    String workload;

    @Option(
            names = "--set",
            paramLabel = "VAR=VALUE",
            description = "Set a workload variable, e.g. --set freeFlashGB=8 (repeatable).")
    Map<String, String> variables = new LinkedHashMap<>();

    @Option(
            names = {"-q", "--queue-depth"},
            paramLabel = "N",
            description = "Override the queue depth of test phases.")
    Integer queueDepth;

    @Option(names = "--workers", paramLabel = "N", description = "Override the workers of test phases.")
    Integer workers;

    @Option(
            names = {"-d", "--duration"},
            paramLabel = "DURATION",
            description = "Override the duration of test phases (e.g. 300s, 20m).")
    Duration duration;

    @Option(
            names = "--span",
            paramLabel = "SIZE",
            description = "Override the span of test phases: a size from offset 0 (e.g. 24GB, 50%%).")
    String span;

    @Option(names = "--rate-iops", paramLabel = "IOPS", description = "Override the rate limit of test phases.")
    Long rateIops;

    @Option(names = "--seed", paramLabel = "N", description = "Override the workload's random seed.")
    Long seed;

    public String name() {
        return workload;
    }

    /** Loads the preset or file, applies the overrides; errors name the file and field. */
    public WorkloadSpec load() {
        WorkloadSpec spec;
        Path file = Path.of(workload);
        if (Files.isRegularFile(file)) {
            spec = new WorkloadLoader().load(file, variables);
        } else {
            WorkloadPresets presets = new WorkloadPresets();
            if (!presets.exists(workload)) {
                throw new UserInputException("--workload " + workload + ": no such file, and no preset of that name"
                        + NearestName.among(workload, presets.names())
                                .map(n -> "; did you mean " + n + "?")
                                .orElse("")
                        + " Presets: " + String.join(", ", presets.names()) + " (`ssdpulse workloads` describes them)");
            }
            spec = presets.load(workload, variables);
        }
        Span spanOverride = null;
        if (span != null) {
            spanOverride = new Span(Amount.ofBytes(0), Amount.parse(span));
        }
        WorkloadOverrides overrides = WorkloadOverrides.none()
                .withQueueDepth(queueDepth)
                .withWorkers(workers)
                .withDurationNs(duration == null ? null : duration.toNanos())
                .withSpan(spanOverride)
                .withRateLimitIops(rateIops)
                .withSeed(seed);
        return overrides.isEmpty() ? spec : overrides.apply(spec, "command line");
    }
}
