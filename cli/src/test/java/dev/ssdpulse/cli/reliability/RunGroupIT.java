package dev.ssdpulse.cli.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ssdpulse.cli.Main;
import dev.ssdpulse.cli.run.RunOutput;
import dev.ssdpulse.cli.simulate.SimulatedRunDriver;
import dev.ssdpulse.platform.testing.KafkaTestEnvironment;
import dev.ssdpulse.platform.testing.TestStack;
import dev.ssdpulse.producer.replay.ReplayResult;
import dev.ssdpulse.producer.sim.config.SsdPresets;
import dev.ssdpulse.producer.sim.engine.SimulatedDrive;
import dev.ssdpulse.producer.workload.ScheduledPhase;
import dev.ssdpulse.producer.workload.WorkloadOverrides;
import dev.ssdpulse.producer.workload.WorkloadPresets;
import dev.ssdpulse.producer.workload.WorkloadSpec;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SmartSample;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteVerification;
import dev.ssdpulse.schemas.iobatch.IoOpCode;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.app.AnalyticsConfig;
import dev.ssdpulse.streams.offline.OfflineRunAnalysis;
import dev.ssdpulse.streams.report.ReportTables;
import dev.ssdpulse.streams.report.SummaryJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One test across several producer processes ({@code ssdpulse simulate --group NAME --member ID}, child JVMs with
 * different seeds, paced to the wall clock): the group's windows and summary equal the offline analysis of the
 * members' runs merged on the wall clock (each shifted by its start after the first), and each member keeps its own
 * results; a member killed with SIGKILL leaves the group PARTIAL, naming it, and the other members intact.
 */
@ExtendWith(KafkaTestEnvironment.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class RunGroupIT {
    private static final String SSD = "tiny-test";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(6);

    @TempDir
    Path tmp;

    private static WorkloadSpec spec(long seed, int durationS) {
        WorkloadSpec preset = new WorkloadPresets()
                .load(
                        "seed003-mixed-80-20",
                        Map.of("durationS", Integer.toString(durationS), "preconditionPercent", "5", "qd", "4"));
        return WorkloadOverrides.none().withRateLimitIops(1500L).withSeed(seed).apply(preset, "group member " + seed);
    }

    private static ChildJvm member(
            Path log, TestStack stack, String group, String member, String runId, long seed, int durationS) {
        return ChildJvm.start(
                log,
                List.of(
                        "simulate",
                        "--ssd",
                        SSD,
                        "--workload",
                        "seed003-mixed-80-20",
                        "--set",
                        "durationS=" + durationS,
                        "--set",
                        "preconditionPercent=5",
                        "--set",
                        "qd=4",
                        "--rate-iops",
                        "1500",
                        "--seed",
                        Long.toString(seed),
                        "--realtime",
                        "--group",
                        group,
                        "--member",
                        member,
                        "--run-id",
                        runId,
                        "--quiet",
                        "--bootstrap-servers",
                        stack.bootstrapServers(),
                        "--schema-registry-url",
                        stack.schemaRegistryUrl()));
    }

    private InProcessAnalytics analytics(TestStack stack, String name) throws Exception {
        return InProcessAnalytics.start(AnalyticsConfig.defaults(
                        stack.bootstrapServers(), stack.schemaRegistryUrl(), tmp.resolve("state-" + name))
                .withApplicationId(name)
                .withHeartbeatTimeout(HEARTBEAT_TIMEOUT));
    }

    @Test
    void threeProducersInOneGroupGiveTheOfflineAnalysisOfTheirRunsMerged(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String group = "lab-" + suffix;
        long[] seeds = {101, 202, 303};
        List<String> runIds = new ArrayList<>();
        try (InProcessAnalytics analytics = analytics(stack, "group-it-" + suffix)) {
            ApiClient api = analytics.api();
            List<ChildJvm> producers = new ArrayList<>();
            try {
                for (int i = 0; i < seeds.length; i++) {
                    String runId = "grp-" + suffix + "-m" + i;
                    runIds.add(runId);
                    producers.add(
                            member(tmp.resolve("member-" + i + ".log"), stack, group, "m" + i, runId, seeds[i], 6));
                }
                for (ChildJvm p : producers) {
                    assertThat(p.awaitExit(Duration.ofMinutes(3))).as(p.tail()).isZero();
                }
            } finally {
                ChildJvm.closeAll(producers);
            }
            String groupId = "group:" + group;
            JsonNode summary = await("the group's summary")
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(() -> api.json("/api/runs/" + groupId + "/summary"), Optional::isPresent)
                    .get();
            JsonNode described = api.json("/api/groups/" + group).orElseThrow();
            assertThat(described.path("status").asText()).isEqualTo("COMPLETED");
            Map<String, Long> offsets = new HashMap<>();
            for (JsonNode m : described.path("members")) {
                offsets.put(m.path("runId").asText(), m.path("startOffsetNs").asLong());
                assertThat(m.path("host").asText()).isNotEmpty();
                assertThat(m.path("status").asText()).isEqualTo("COMPLETED");
                assertThat(m.path("ioShare").asDouble()).isBetween(0.2, 0.5);
            }
            assertThat(offsets.keySet()).containsExactlyInAnyOrderElementsOf(runIds);
            List<Member> members = new ArrayList<>();
            for (int i = 0; i < seeds.length; i++) {
                members.add(new Member(spec(seeds[i], 6), offsets.get(runIds.get(i))));
            }
            OfflineRunAnalysis merged = merged(groupId, members);

            JsonNode series = api.json("/api/runs/" + groupId + "/series").orElseThrow();
            for (int op = 0; op < IoOpCode.COUNT; op++) {
                int o = op;
                List<WindowMetrics> expected = merged.windows().stream()
                        .filter(w -> w.getOp().ordinal() == o)
                        .toList();
                JsonNode live = series.path("ops").path(IoOpCode.name(op));
                if (expected.isEmpty()) {
                    assertThat(live.isMissingNode()).isTrue();
                } else {
                    assertThat(live)
                            .as("the group's %s windows = the merged runs' offline windows", IoOpCode.name(op))
                            .isEqualTo(asServed(ReportTables.POINT.json(expected)));
                }
            }
            assertThat(summary)
                    .as("the group's summary = the merged runs' offline summary")
                    .isEqualTo(asServed(SummaryJson.of(merged.summary(), null, null)));
            assertThat(summary.path("lateIoCount").asLong()).isZero();
            // each member keeps its own results: its summary as its run's offline analysis
            for (int i = 0; i < seeds.length; i++) {
                JsonNode own =
                        api.json("/api/runs/" + runIds.get(i) + "/summary").orElseThrow();
                assertThat(OfflineSummaries.withoutContext(own))
                        .isEqualTo(OfflineSummaries.withoutContext(
                                OfflineSummaries.of(runIds.get(i), SSD, spec(seeds[i], 6))));
            }
            assertThat(api.get("/metrics").orElseThrow())
                    .contains("ssdpulse_run_status{run_id=\"" + groupId + "\",status=\"COMPLETED\"} 1.0")
                    .contains("ssdpulse_group_member_io_share{group=\"" + group + "\"")
                    .containsPattern("ssdpulse_run_iops\\{op=\"\\w+\",run_id=\"" + groupId + "\"\\} \\d");

            // report --html --group: the group first, its members' table, then each member's run
            Path html = tmp.resolve("group.html");
            StringWriter err = new StringWriter();
            CommandLine cli = Main.commandLine();
            cli.setErr(new PrintWriter(err));
            int exit = cli.execute(
                    "report",
                    "--group",
                    group,
                    "--html",
                    html.toString(),
                    "--bootstrap-servers",
                    stack.bootstrapServers(),
                    "--schema-registry-url",
                    stack.schemaRegistryUrl());
            assertThat(exit).as(err.toString()).isZero();
            String page = Files.readString(html);
            List<String> sections = new ArrayList<>();
            Matcher section = Pattern.compile("<section class=\"run card\" id=\"run-([^\"]+)\">")
                    .matcher(page);
            while (section.find()) {
                sections.add(section.group(1));
            }
            // the group first, then its members in the order they joined it (members started together join in
            // the order their first events reach the group, not necessarily the order they were launched in)
            assertThat(sections).first().isEqualTo(groupId);
            assertThat(sections.subList(1, sections.size()))
                    .containsExactlyInAnyOrder(runIds.get(0), runIds.get(1), runIds.get(2));
            String groupSection = page.substring(
                    page.indexOf("id=\"run-" + groupId + "\""), page.indexOf("id=\"run-" + sections.get(1) + "\""));
            assertThat(groupSection).contains("<h2>Run group " + group + "</h2>");
            for (int i = 0; i < seeds.length; i++) {
                assertThat(groupSection)
                        .contains("data-column=\"member\" data-value=\"m" + i + "\"")
                        .contains("data-column=\"run_id\" data-value=\"" + runIds.get(i) + "\"")
                        .contains("<a href=\"#run-" + runIds.get(i) + "\">");
            }
            assertThat(groupSection).containsPattern("data-column=\"host\" data-value=\"[^\"]+\"");
            Matcher share = Pattern.compile("data-column=\"io_share_pct\" data-value=\"([0-9.]+)\"")
                    .matcher(groupSection);
            double shares = 0;
            int count = 0;
            while (share.find()) {
                shares += Double.parseDouble(share.group(1));
                count++;
            }
            assertThat(count).isEqualTo(seeds.length);
            assertThat(shares).isCloseTo(100.0, within(0.01));
        }
    }

    @Test
    void aMemberKilledWithSigkillLeavesTheGroupPartialNamingItAndTheOthersIntact(TestStack stack) throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String group = "kill-" + suffix;
        long[] seeds = {11, 22, 33};
        List<String> runIds = new ArrayList<>();
        try (InProcessAnalytics analytics = analytics(stack, "group-kill-it-" + suffix)) {
            ApiClient api = analytics.api();
            List<ChildJvm> producers = new ArrayList<>();
            try {
                for (int i = 0; i < seeds.length; i++) {
                    String runId = "grk-" + suffix + "-m" + i;
                    runIds.add(runId);
                    producers.add(
                            member(tmp.resolve("kill-" + i + ".log"), stack, group, "m" + i, runId, seeds[i], 12));
                }
                String victim = runIds.get(1);
                await("windows of " + victim)
                        .atMost(Duration.ofMinutes(2))
                        .ignoreExceptionsInstanceOf(RuntimeException.class)
                        .until(() -> api.windowCount(victim) >= 3);
                producers.get(1).kill();
                for (int i : new int[] {0, 2}) {
                    assertThat(producers.get(i).awaitExit(Duration.ofMinutes(3)))
                            .as(producers.get(i).tail())
                            .isZero();
                }
            } finally {
                ChildJvm.closeAll(producers);
            }
            JsonNode described = await("the group PARTIAL")
                    .atMost(Duration.ofMinutes(2))
                    .ignoreExceptionsInstanceOf(RuntimeException.class)
                    .until(
                            () -> api.json("/api/groups/" + group)
                                    .filter(g -> g.path("status").asText().equals("PARTIAL")),
                            Optional::isPresent)
                    .get();
            assertThat(described.path("reason").asText())
                    .contains("member m1", runIds.get(1), "INCOMPLETE", "heartbeat timeout")
                    .doesNotContain("member m0", "member m2");
            JsonNode summary = api.json("/api/runs/group:" + group + "/summary").orElseThrow();
            assertThat(summary.path("status").asText()).isEqualTo("PARTIAL");
            assertThat(api.status(runIds.get(1))).contains("INCOMPLETE");
            for (int i : new int[] {0, 2}) {
                JsonNode own =
                        api.json("/api/runs/" + runIds.get(i) + "/summary").orElseThrow();
                assertThat(own.path("status").asText()).isEqualTo("COMPLETED");
                assertThat(OfflineSummaries.withoutContext(own))
                        .as("member %d intact", i)
                        .isEqualTo(OfflineSummaries.withoutContext(
                                OfflineSummaries.of(runIds.get(i), SSD, spec(seeds[i], 12))));
            }
        }
    }

    /**
     * JSON built here as the API serves it, read back: the API's numbers parse as the smallest node that holds them
     * (2641 an int), the built ones keep their Java type (a long), and Jackson's nodes of different types differ.
     */
    private static JsonNode asServed(JsonNode built) throws JsonProcessingException {
        return JSON.readTree(built.toString());
    }

    private record Member(WorkloadSpec spec, long startOffsetNs) {}

    /** One I/O or phase change of a member, on the group's time axis. */
    private record Event(long timeNs, int order, Object what) {}

    /**
     * The members' runs simulated offline (the simulator is deterministic), their I/Os shifted by each member's start
     * after the group's first, taken in completion order by one analysis; a phase starts where the first member
     * entered it.
     */
    private static OfflineRunAnalysis merged(String groupId, List<Member> members) {
        List<Event> events = new ArrayList<>();
        TreeMap<Integer, Event> phaseStarts = new TreeMap<>();
        long[] endNs = {0};
        long[] ios = {0};
        for (Member m : members) {
            SimulatedDrive drive =
                    new SimulatedDrive(new SsdPresets().resolve(SSD), m.spec().seed());
            RunOutput collector = new RunOutput() {
                @Override
                public String runId() {
                    return "offline";
                }

                @Override
                public void onIoCompleted(
                        int worker,
                        int phaseIndex,
                        byte op,
                        long offsetBytes,
                        int sizeBytes,
                        long submitTimeNs,
                        long latencyNs,
                        int queueDepth,
                        int status) {
                    long completion = submitTimeNs + latencyNs + m.startOffsetNs();
                    events.add(new Event(
                            completion, 1, new long[] {op, phaseIndex, completion, sizeBytes, latencyNs, status}));
                    ios[0]++;
                }

                @Override
                public void phaseStarted(ScheduledPhase phase, long timeNs) {
                    long t = timeNs + m.startOffsetNs();
                    Event e = new Event(t, 0, phase);
                    phaseStarts.merge(phase.index(), e, (a, b) -> a.timeNs() <= b.timeNs() ? a : b);
                }

                @Override
                public void smart(SmartSample sample) {}

                @Override
                public void replayFinished(ReplayResult result) {}

                @Override
                public void verification(WriteVerification verification) {}

                @Override
                public int finish(RunStatus status, String reason, long durationNs) {
                    endNs[0] = Math.max(endNs[0], durationNs + m.startOffsetNs());
                    return 0;
                }
            };
            new SimulatedRunDriver(drive, m.spec(), 1_000_000_000L, 0, null, () -> false).run(collector);
        }
        events.addAll(phaseStarts.values());
        events.sort(Comparator.comparingLong(Event::timeNs).thenComparingInt(Event::order));
        OfflineRunAnalysis analysis = new OfflineRunAnalysis(groupId, AnalysisSettings.defaults(), true);
        for (Event e : events) {
            if (e.what() instanceof ScheduledPhase p) {
                analysis.phaseStarted(
                        p.index(), p.name(), PhaseKind.valueOf(p.phase().kind().name()), e.timeNs());
            } else {
                long[] io = (long[]) e.what();
                analysis.io((int) io[0], (int) io[1], io[2] - io[4], io[4], io[3], (int) io[5]);
            }
        }
        RunSummary summary = analysis.finish(RunStatus.COMPLETED, null, endNs[0], ios[0], 0);
        assertThat(summary.getLateIoCount()).isZero();
        return analysis;
    }
}
