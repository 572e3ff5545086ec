package dev.ssdpulse.cli.analytics;

import dev.ssdpulse.cli.options.AnalyticsOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.report.SummaryRenderer;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.streams.app.AnalyticsApp;
import dev.ssdpulse.streams.app.ReplayResult;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ssdpulse replay --run ID}: recomputes one run from the retained raw topics into fresh state (a new
 * application id and state directory; outputs to replay-prefixed topics) and prints its summary.
 */
@Command(name = "replay", description = "Recompute one run's results from the raw topics into fresh state.")
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--run", required = true, paramLabel = "ID", description = "The run to recompute.")
    String runId;

    @Option(names = "--timeout", defaultValue = "10m", paramLabel = "DURATION",
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
        RunIds.validate(runId);
        ReplayResult result = AnalyticsApp.replayRun(analytics.toConfig(kafka), runId, timeout);
        PrintWriter out = spec.commandLine().getOut();
        if (result.summaryDatum() == null) {
            out.printf("replay of run %s produced no summary%n", runId);
            out.flush();
            return 1;
        }
        RunSummary summary = decode(result.summaryDatum());
        if ("json".equals(format)) {
            out.println(SummaryRenderer.json(summary, null));
        } else {
            SummaryRenderer.text(summary, null, out);
            out.println("outputs recomputed (application id " + result.replayApplicationId() + "):");
            for (Map.Entry<String, ?> e : result.datumsByTopic().entrySet()) {
                out.printf("  %-28s %,d records%n", e.getKey(), result.datums(e.getKey()).size());
            }
        }
        out.flush();
        return 0;
    }

    private static RunSummary decode(byte[] datum) throws IOException {
        return new SpecificDatumReader<>(RunSummary.class).read(null, DecoderFactory.get().binaryDecoder(datum, null));
    }
}
