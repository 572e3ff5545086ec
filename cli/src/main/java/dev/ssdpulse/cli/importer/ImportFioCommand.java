package dev.ssdpulse.cli.importer;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.GroupOptions;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.options.OfflineOptions;
import dev.ssdpulse.cli.options.RunLabelOptions;
import dev.ssdpulse.cli.run.HostDescriptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.cli.run.StreamedRunOutput;
import dev.ssdpulse.producer.fio.FioJsonReport;
import dev.ssdpulse.producer.fio.FioLogImport;
import dev.ssdpulse.producer.publish.OverflowPolicy;
import dev.ssdpulse.producer.workload.PhaseSpec;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.schemas.avro.DeviceDescription;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.ProducerKind;
import dev.ssdpulse.schemas.avro.RunStarted;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.WorkloadDescription;
import dev.ssdpulse.schemas.runs.RunStartTime;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

    @Option(
            names = "--json",
            paramLabel = "FIO_JSON",
            description = "fio's --output-format=json(+) output of the same run.")
    Path json;

    @Option(
            names = "--iodepth",
            defaultValue = "0",
            paramLabel = "N",
            description = "The job's iodepth, recorded as each I/O's queue depth (default: unknown, 0).")
    int iodepth;

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description = "Run id (default: generated, fio-<date>-<time>-<hex>).")
    String runId;

    @Mixin
    OfflineOptions offline;

    @Mixin
    RunLabelOptions labels;

    @Mixin
    GroupOptions group;

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
        offline.validate();
        group.validate(offline.offline);
        FioLogImport.check(logs); // a file that is no fio log is refused before a run starts
        FioJsonReport report = json == null ? null : FioJsonReport.read(json);
        String id = runId == null ? RunIds.newRunId("fio") : RunIds.validate(runId);
        PrintWriter out = spec.commandLine().getOut();
        String logNames = String.join(", ", logs.stream().map(Path::toString).toList());
        if (offline.offline) {
            return importInto(offline.output(id, "fio import", logNames, out));
        }
        try (StreamedRunOutput output = new StreamedRunOutput(
                kafka.clientProperties(),
                group.apply(
                        labels.apply(runStarted(id, report)),
                        logs.get(0).getFileName().toString()),
                logs.size(),
                OverflowPolicy.BLOCK,
                batchIos,
                out)) {
            return importInto(output);
        }
    }

    private int importInto(RunOutput output) {
        PhaseSpec phase = PhaseSpec.builder("fio", dev.ssdpulse.producer.workload.PhaseKind.TEST)
                .build();
        output.phaseStarted(new ScheduledPhase(0, "fio", phase, 0, 0L), 0L);
        FioLogImport.Totals totals;
        try {
            totals = new FioLogImport(iodepth).importLogs(logs, output);
        } catch (RuntimeException e) {
            output.finish(RunStatus.FAILED, e.getMessage(), 0);
            throw e;
        }
        return output.finish(RunStatus.COMPLETED, null, totals.lastCompletionNs());
    }

    private RunStarted runStarted(String id, FioJsonReport report) {
        String logNames = String.join(
                ", ", logs.stream().map(p -> p.getFileName().toString()).toList());
        String spec = "{\"source\":\"fio\",\"logs\":["
                + String.join(
                        ",",
                        logs.stream()
                                .map(p -> "\"" + p.getFileName().toString().replace("\"", "\\\"") + "\"")
                                .toList())
                + "]}";
        var host = HostDescriptions.current(report == null ? "fio" : "fio " + report.fioVersion(), false, null);
        return RunStartTime.stamp(
                        RunStarted.newBuilder(),
                        Instant.ofEpochMilli(report == null ? System.currentTimeMillis() : report.timestampMs()))
                .setRunId(id)
                .setRunName("fio import: " + logNames)
                .setProducerKind(ProducerKind.FIO_IMPORT)
                .setDevice(DeviceDescription.newBuilder()
                        .setModel("unknown (fio import)")
                        .setCapacityBytes(0)
                        .setLogicalBlockSizeBytes(512)
                        .build())
                .setHost(host)
                .setWorkload(WorkloadDescription.newBuilder()
                        .setName("fio-import")
                        .setDescription("fio latency logs: " + logNames)
                        .setSpecJson(spec)
                        .setPhases(List.of(dev.ssdpulse.schemas.avro.PhaseSpec.newBuilder()
                                .setIndex(0)
                                .setName("fio")
                                .setKind(PhaseKind.TEST)
                                .setAccessSpecs(List.of())
                                .setQueueDepth(iodepth)
                                .setWorkers(logs.size())
                                .setSpanOffsetBytes(0)
                                .setSpanSizeBytes(0)
                                .build()))
                        .build())
                .setSeed(0)
                .setToolVersion(HostDescriptions.toolVersion())
                .build();
    }
}
