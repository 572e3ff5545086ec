package dev.ssdpulse.cli.analytics;

import dev.ssdpulse.cli.options.AnalyticsOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.SummaryRenderer;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.app.Reanalysis;
import dev.ssdpulse.streams.app.ReplayResult;
import dev.ssdpulse.streams.app.RunReplay;
import dev.ssdpulse.streams.app.SteadyStateSpecs;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.resultsets.ResultSetNames;
import dev.ssdpulse.streams.topology.TopologyMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse replay --run ID [--run ID2 ...] [--as NAME] [--window 5s] [--bins EDGES] [--steady-state SPEC]}:
 * recomputes stored runs from the retained raw topics into fresh state. Without {@code --as} it prints each
 * run's summary; with {@code --as NAME} the results are stored as the runs' result set NAME (topic
 * ssdpulse.result-sets.v1), which the live {@code streams} app serves beside the runs' own results.
 */
@Command(
        name = "replay",
        description = "Recompute stored runs from the raw topics, optionally into a named result set "
                + "with other settings.")
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--run",
            required = true,
            paramLabel = "ID",
            description = "A run to recompute; repeatable (several runs spread over --threads by partition).")
    List<String> runIds = new ArrayList<>();

    @Option(
            names = "--as",
            paramLabel = "NAME",
            description =
                    "Store the results as the result set NAME of each run (replaces an earlier one of that name).")
    String resultSet;

    @Option(
            names = "--bins",
            paramLabel = "EDGES",
            description = "Latency bin upper bounds, comma-separated with units, e.g. 100us,1ms,10ms,100ms,1s "
                    + "(default: IOMeter's 21 edges).")
    String bins;

    @Option(
            names = "--steady-state",
            paramLabel = "SPEC",
            description = "snia:round=DURATION or fio:MODE:LIMIT[%%]:DURATION[:RAMP] (e.g. fio:iops_slope:1%%:300s); "
                    + "repeatable; fio specs replace the fio criteria.")
    List<String> steadyState = new ArrayList<>();

    @Option(
            names = "--timeout",
            defaultValue = "10m",
            paramLabel = "DURATION",
            description = "Give up after this long (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Summary format.")
    String format;

    @Mixin
    KafkaOptions kafka;

    @Mixin
    AnalyticsOptions analytics;

    @Override
    public Integer call() throws Exception {
        Set<String> runs = new LinkedHashSet<>();
        runIds.forEach(r -> runs.add(RunIds.validate(r)));
        if (resultSet != null) {
            ResultSetNames.validate(resultSet);
        }
        if (!"text".equals(format) && !"json".equals(format)) {
            throw new IllegalArgumentException("--format must be text or json, was '" + format + "'");
        }
        AnalyticsConfig config = SteadyStateSpecs.apply(analytics.toConfig(kafka), steadyState);
        if (bins != null) {
            config = config.withLatencyBins(LatencyBins.parse(bins));
        }
        PrintWriter out = spec.commandLine().getOut();
        int exit = 0;
        if (resultSet != null) {
            Map<String, Reanalysis.Outcome> outcomes = Reanalysis.run(config, runs, resultSet, timeout);
            for (Reanalysis.Outcome o : outcomes.values()) {
                print(out, o.summary());
                if (!"json".equals(format)) {
                    out.printf(
                            "stored as result set '%s' of run %s (%s); see GET /api/runs/%s/result-sets%n",
                            o.resultSet(), o.runId(), o.recordsByKind(), o.runId());
                }
            }
        } else {
            Map<String, ReplayResult> results = new RunReplay(config, TopologyMode.Kind.REPLAY).run(runs, timeout);
            for (Map.Entry<String, ReplayResult> e : results.entrySet()) {
                ReplayResult result = e.getValue();
                if (result.summaryDatum() == null) {
                    out.printf("replay of run %s produced no summary%n", e.getKey());
                    exit = 1;
                    continue;
                }
                print(out, decode(result.summaryDatum()));
                if (!"json".equals(format)) {
                    out.println("outputs recomputed (application id " + result.replayApplicationId() + "):");
                    for (Map.Entry<String, ?> t : result.datumsByTopic().entrySet()) {
                        out.printf(
                                "  %-28s %,d records%n",
                                t.getKey(), result.datums(t.getKey()).size());
                    }
                }
            }
        }
        out.flush();
        return exit;
    }

    private void print(PrintWriter out, RunSummary summary) {
        if ("json".equals(format)) {
            out.println(SummaryRenderer.json(summary, null));
        } else {
            SummaryRenderer.text(summary, null, out);
        }
    }

    private static RunSummary decode(byte[] datum) throws IOException {
        return new SpecificDatumReader<>(RunSummary.class)
                .read(null, DecoderFactory.get().binaryDecoder(datum, null));
    }
}
