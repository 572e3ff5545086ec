package dev.ssdpulse.cli.importer;

import dev.ssdpulse.cli.UserInputException;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.report.SummaryRenderer;
import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.producer.fio.FioJsonReport;
import dev.ssdpulse.producer.fio.FioLogImport;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.publish.PublishReport;
import dev.ssdpulse.producer.publish.PublisherConfig;
import dev.ssdpulse.producer.publish.RunProducers;
import dev.ssdpulse.producer.publish.RunPublisher;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.PhaseSpec;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.schemas.registry.HttpSchemaRegistryClient;
import dev.ssdpulse.schemas.topics.Topics;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ssdpulse import fio LOG...}: fio 3.x per-I/O latency logs ({@code --write_lat_log=NAME
 * --log_offset=1}) become a run, one I/O event per log line, published to Kafka or analysed with --offline.
 */
@Command(name = "fio", description = "Import fio per-I/O latency logs (--write_lat_log --log_offset=1) as a run.")
public final class ImportFioCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "fio _clat or _lat logs, one per job (worker).")
    List<Path> logs;

    @Option(names = "--json", paramLabel = "FIO_JSON", description = "fio's --output-format=json(+) output of the same run.")
    Path json;

    @Option(names = "--iodepth", defaultValue = "0", paramLabel = "N",
            description = "The job's iodepth, recorded as each I/O's queue depth (default: unknown, 0).")
    int iodepth;

    @Option(names = "--run-id", paramLabel = "ID", description = "Run id (default: generated, fio-<date>-<time>-<hex>).")
    String runId;

    @Option(names = "--offline", description = "Analyse in-process and print the summary; no Kafka needed.")
    boolean offline;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "Summary format with --offline (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--batch-ios", defaultValue = "512", paramLabel = "N", description = "I/Os per Kafka record.")
    int batchIos;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        for (Path log : logs) {
            if (!Files.isRegularFile(log)) {
                throw new UserInputException("fio log " + log + " does not exist or is not a file");
            }
        }
        if (!"text".equals(format) && !"json".equals(format)) {
            throw new UserInputException("--format must be text or json, got '" + format + "'");
        }
        FioJsonReport report = json == null ? null : FioJsonReport.read(json);
        String id = runId == null ? RunIds.newRunId("fio") : RunIds.validate(runId);
        FioLogImport importer = new FioLogImport(iodepth);
        PrintWriter out = spec.commandLine().getOut();
        if (offline) {
            OfflineRunAnalysis analysis = new OfflineRunAnalysis(id, 1_000_000_000L, 2_000_000_000L,
                    LatencyBins.iometer(), 60_000_000_000L, false);
            analysis.phaseStarted(0, "fio", PhaseKind.TEST, 0L);
            FioLogImport.Totals totals = importer.importLogs(logs, (w, phase, op, offset, size, submitNs, latencyNs, qd, status) ->
                    analysis.io(op, phase, submitNs, latencyNs, size, status));
            RunSummary summary = analysis.finish(RunStatus.COMPLETED, null, totals.lastCompletionNs(), totals.ioCount());
            var context = new SummaryRenderer.Context("fio import", String.join(", ", logs.stream().map(Path::toString).toList()),
                    Map.of());
            if ("json".equals(format)) {
                out.println(SummaryRenderer.json(summary, context));
                out.flush();
            } else {
                SummaryRenderer.text(summary, context, out);
            }
            return 0;
        }
        Map<String, Object> props = kafka.clientProperties();
        TopicSetup.ensure(props, Topics.all());
        try (HttpSchemaRegistryClient registry = new HttpSchemaRegistryClient(kafka.schemaRegistryUrl());
             var producer = RunProducers.create(props, registry)) {
            RunPublisher publisher = new RunPublisher(producer,
                    PublisherConfig.defaults(props, OverflowPolicy.BLOCK).withMaxBatchIos(batchIos),
                    runStarted(id, report), logs.size());
            publisher.phaseChanged(new PhaseChanged(id, 0, "fio", PhaseKind.TEST, 0L));
            FioLogImport.Totals totals;
            try {
                totals = importer.importLogs(logs, publisher);
            } catch (RuntimeException e) {
                publisher.finish(RunStatus.FAILED, e.getMessage(), 0, 30_000);
                throw e;
            }
            PublishReport published = publisher.finish(RunStatus.COMPLETED, null, totals.lastCompletionNs(), 120_000);
            out.printf("run %s: %,d I/Os imported from %d log(s), %,d published to %s%s%n", id, totals.ioCount(),
                    logs.size(), published.ioPublished(), Topics.IO.name(),
                    published.failure() == null ? "" : "; first error: " + published.failure());
            out.flush();
            return published.complete() ? 0 : 1;
        }
    }

    private RunStarted runStarted(String id, FioJsonReport report) {
        String logNames = String.join(", ", logs.stream().map(p -> p.getFileName().toString()).toList());
        String spec = "{\"source\":\"fio\",\"logs\":[" + String.join(",", logs.stream()
                .map(p -> "\"" + p.getFileName().toString().replace("\"", "\\\"") + "\"").toList()) + "]}";
        var host = HostDescriptions.current(report == null ? "fio" : "fio " + report.fioVersion(), false, null);
        return RunStarted.newBuilder()
                .setRunId(id)
                .setRunName("fio import: " + logNames)
                .setProducerKind(ProducerKind.FIO_IMPORT)
                .setDevice(DeviceDescription.newBuilder().setModel("unknown (fio import)").setCapacityBytes(0)
                        .setLogicalBlockSizeBytes(512).build())
                .setHost(host)
                .setWorkload(WorkloadDescription.newBuilder().setName("fio-import")
                        .setDescription("fio latency logs: " + logNames).setSpecJson(spec)
                        .setPhases(List.of(PhaseSpec.newBuilder().setIndex(0).setName("fio").setKind(PhaseKind.TEST)
                                .setAccessSpecs(List.of()).setQueueDepth(iodepth).setWorkers(logs.size())
                                .setSpanOffsetBytes(0).setSpanSizeBytes(0).build()))
                        .build())
                .setSeed(0)
                .setWallClockStartEpochNs(report == null ? System.currentTimeMillis() * 1_000_000L
                        : report.timestampMs() * 1_000_000L)
                .setToolVersion("fio-import")
                .build();
    }
}
