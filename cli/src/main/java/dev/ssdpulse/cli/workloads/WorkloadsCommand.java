package dev.ssdpulse.cli.workloads;

import dev.ssdpulse.producer.workload.PresetInfo;
import dev.ssdpulse.producer.workload.WorkloadJson;
import dev.ssdpulse.producer.workload.WorkloadLoader;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ssdpulse workloads [list|show|validate]}: the built-in workload presets. */
@Command(
        name = "workloads",
        description = "List, show and validate workloads (presets for every test in the seeds).",
        subcommands = {WorkloadsCommand.Show.class, WorkloadsCommand.Validate.class})
public final class WorkloadsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Without a subcommand: the list of presets with a one-line description each. */
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        var presets = new WorkloadPresets().list();
        int width = presets.stream().mapToInt(p -> p.name().length()).max().orElse(10);
        for (PresetInfo preset : presets) {
            out.printf("%-" + width + "s  %s%n", preset.name(), preset.description());
            if (!preset.variables().isEmpty()) {
                out.printf("%-" + width + "s    variables: %s%n", "", preset.variables());
            }
        }
        out.printf(
                "%n%d presets. `ssdpulse workloads show NAME` prints one; set a variable with --set NAME=VALUE.%n",
                presets.size());
        out.flush();
        return 0;
    }

    @Command(name = "show", description = "Print a preset's workload file, or with --resolved its canonical JSON.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "Preset name.")
        String name;

        @Option(names = "--resolved", description = "Print the canonical JSON with variables applied.")
        boolean resolved;

        @Option(names = "--set", paramLabel = "VAR=VALUE", description = "Set a preset variable.")
        Map<String, String> variables = new LinkedHashMap<>();

        @Override
        public Integer call() {
            WorkloadPresets presets = new WorkloadPresets();
            PrintWriter out = spec.commandLine().getOut();
            if (resolved) {
                out.println(WorkloadJson.toCanonicalJson(presets.load(name, variables)));
            } else {
                out.print(presets.text(name));
            }
            out.flush();
            return 0;
        }
    }

    @Command(name = "validate", description = "Validate a workload file (YAML or JSON) and summarise its phases.")
    static final class Validate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "Workload file.")
        Path file;

        @Option(names = "--set", paramLabel = "VAR=VALUE", description = "Set a placeholder variable.")
        Map<String, String> variables = new LinkedHashMap<>();

        @Override
        public Integer call() {
            WorkloadSpec workload = new WorkloadLoader().load(file, variables);
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    "%s: valid: workload '%s', %d scheduled phases%n",
                    file, workload.name(), workload.scheduledPhaseCount());
            workload.schedule().stream()
                    .limit(20)
                    .forEach(p -> out.printf(
                            "  %3d %-40s %s%n", p.index(), p.name(), p.phase().kind()));
            if (workload.scheduledPhaseCount() > 20) {
                out.printf("  ... %d more%n", workload.scheduledPhaseCount() - 20);
            }
            out.flush();
            return 0;
        }
    }
}
