package dev.ssdpulse.cli.runs;

import dev.ssdpulse.cli.options.KafkaOptions;
import dev.ssdpulse.schemas.topics.TopicSpec;
import dev.ssdpulse.schemas.topics.Topics;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ssdpulse runs retention [--raw DURATION|forever] [--derived DURATION|forever]}: shows how long each topic
 * keeps runs on this cluster, and changes it. Raw topics (io, smart) and result sets keep runs forever by default:
 * a run stays until the user deletes it; a finite raw retention drops whole old runs (and with them the ability
 * to re-analyse or play them back).
 */
@Command(name = "retention", description = "Show or set how long topics keep runs (raw: forever by default).")
final class Retention implements Callable<Integer> {
    static final List<TopicSpec<?>> RAW = List.of(Topics.IO, Topics.SMART, Topics.RESULT_SETS);
    static final List<TopicSpec<?>> DERIVED = List.of(
            Topics.METRICS_1S,
            Topics.LATENCY,
            Topics.LATENCY_SCATTER,
            Topics.WAF,
            Topics.STEADY_STATE,
            Topics.DEAD_LETTER);

    @Spec
    CommandSpec spec;

    @Option(
            names = "--raw",
            paramLabel = "DURATION|forever",
            description = "Retention of " + "ssdpulse.io.v1, ssdpulse.smart.v1 and ssdpulse.result-sets.v1, e.g. 365d.")
    String raw;

    @Option(
            names = "--derived",
            paramLabel = "DURATION|forever",
            description = "Retention of the recomputable outputs (metrics, latency, latency scatter, WA, steady state, "
                    + "dead letters).")
    String derived;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() throws Exception {
        Long rawMs = raw == null ? null : RetentionSpec.parseMs(raw);
        Long derivedMs = derived == null ? null : RetentionSpec.parseMs(derived);
        PrintWriter out = spec.commandLine().getOut();
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            if (rawMs != null) {
                TopicRetention.setRetention(
                        admin, RAW.stream().map(TopicSpec::name).toList(), rawMs);
            }
            if (derivedMs != null) {
                TopicRetention.setRetention(
                        admin, DERIVED.stream().map(TopicSpec::name).toList(), derivedMs);
            }
            Map<String, TopicRetention.Settings> now = TopicRetention.describe(
                    admin, Topics.all().stream().map(TopicSpec::name).toList());
            out.printf("%-28s %-8s %-10s %s%n", "topic", "policy", "retention", "catalogue default");
            for (TopicSpec<?> t : Topics.all()) {
                TopicRetention.Settings s = now.get(t.name());
                out.printf(
                        "%-28s %-8s %-10s %s%n",
                        t.name(),
                        s.cleanupPolicy(),
                        RetentionSpec.format(s.retentionMs()),
                        RetentionSpec.format(t.retentionMs()));
            }
        }
        out.flush();
        return 0;
    }
}
