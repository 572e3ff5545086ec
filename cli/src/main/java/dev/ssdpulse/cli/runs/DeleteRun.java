package dev.ssdpulse.cli.runs;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.cli.run.RunIds;
import dev.ssdpulse.cli.run.TopicSetup;
import dev.ssdpulse.schemas.avro.RunDeleted;
import dev.ssdpulse.schemas.serde.SpecificAvroSerializer;
import dev.ssdpulse.schemas.topics.RunRecords;
import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse runs delete ID}: removes a run from the views and, where the topic layout allows, from storage.
 * Writes a RunDeleted marker (compacted ssdpulse.run-deletions.v1: the analytics drop the run's views and result
 * sets and ignore its raw events, also after a rebuild) and a tombstone for its RunStarted (compacted runs topic);
 * then explains what stays in the non-compacted topics until their retention.
 */
@Command(
        name = "delete",
        description = "Delete a run: from the views now, from compacted topics at compaction; "
                + "explains what stays until retention.")
final class DeleteRun implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ID", description = "The run to delete.")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why (stored with the deletion marker).")
    String reason;

    @Option(names = "--force", description = "Delete even when the runs topic does not know the run.")
    boolean force;

    @Option(names = "--timeout", defaultValue = "2m", paramLabel = "DURATION", description = "Give up after this long.")
    Duration timeout;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        RunIds.validate(runId);
        PrintWriter out = spec.commandLine().getOut();
        TopicSetup.ensure(kafka.clientProperties(), Topics.all());
        try (var registry = kafka.registryClient()) {
            boolean known = !RunRecords.read(kafka.clientProperties(), registry, Topics.RUNS, runId, timeout)
                    .isEmpty();
            if (!known && !force) {
                throw new UserInputException("no run '" + runId + "' in " + Topics.RUNS.name()
                        + " (already deleted, or a typo?); use --force to write the deletion marker anyway");
            }
            Map<String, Object> props = new HashMap<>(kafka.clientProperties());
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            try (var serializer = new SpecificAvroSerializer<RunDeleted>(registry, kafka.clientProperties(), false);
                    var producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                byte[] marker = serializer.serialize(
                        Topics.RUN_DELETIONS.name(),
                        new RunDeleted(runId, Instant.ofEpochMilli(System.currentTimeMillis()), reason));
                producer.send(new ProducerRecord<>(Topics.RUN_DELETIONS.name(), runId, marker))
                        .get(60, TimeUnit.SECONDS);
                producer.send(new ProducerRecord<>(Topics.RUNS.name(), runId, (byte[]) null))
                        .get(60, TimeUnit.SECONDS);
            }
        }
        out.printf("run %s deleted:%n", runId);
        out.println("  views      the analytics (`ssdpulse streams`) drop its status, summary, series, latency scatter,"
                + " verdicts, WA and result sets as soon as they read the marker; their changelogs get tombstones");
        out.printf(
                "  %-26s deletion marker written (compacted, kept: a rebuild of the views drops the run again)%n",
                Topics.RUN_DELETIONS.name());
        out.printf(
                "  %-26s tombstone written: its RunStarted goes at the next compaction of its segment%n",
                Topics.RUNS.name());
        out.println("  Kafka cannot delete single records from a non-compacted topic; the run's records stay in:");
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            List<TopicSpec<?>> kept = List.of(
                    Topics.IO,
                    Topics.SMART,
                    Topics.RESULT_SETS,
                    Topics.RUN_SUMMARY,
                    Topics.METRICS_1S,
                    Topics.LATENCY,
                    Topics.LATENCY_SCATTER,
                    Topics.WAF,
                    Topics.STEADY_STATE);
            Map<String, TopicRetention.Settings> settings = TopicRetention.describe(
                    admin, kept.stream().map(TopicSpec::name).toList());
            for (TopicSpec<?> t : kept) {
                TopicRetention.Settings s = settings.get(t.name());
                out.printf(
                        "  %-26s %s%n",
                        t.name(),
                        s.retentionMs() < 0
                                ? "until the topic is deleted (retention.ms=-1: kept forever)"
                                : "until retention removes their segments (retention.ms = "
                                        + RetentionSpec.format(s.retentionMs()) + ")");
            }
        }
        out.println("  (the analytics ignore them; to reclaim the space, set a retention with "
                + "`ssdpulse runs retention --raw 90d`)");
        out.flush();
        return 0;
    }
}
