package dev.ssdpulse.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.IoStreamRecord;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.streams.group.GroupAnalysis;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live parts of the topology: a heartbeat's completion time closes windows at once, the open window is shown
 * (provisional) and replaced by the closed one, every view change is announced, and a run group's members' events
 * reach the group's analysis through ssdpulse.group-events.v1.
 */
class LiveViewsTopologyTest {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path stateDir;

    private static IoStreamRecord heartbeat(String runId, Long completeUpToNs, GroupMembership membership) {
        return new IoStreamRecord(RunHeartbeat.newBuilder()
                .setRunId(runId)
                .setTimeNs(0)
                .setWallClockEpochMs(Instant.EPOCH)
                .setIoCompleted(0)
                .setIoPublished(0)
                .setIoNotPublished(0)
                .setCompleteUpToNs(completeUpToNs)
                .setMembership(membership)
                .build());
    }

    /** The run's records, its batches at most 100 I/Os, a heartbeat after each 1-s boundary, RunFinished last. */
    private static List<IoStreamRecord> withHeartbeats(SyntheticRun run, GroupMembership membership) {
        List<IoStreamRecord> out = new ArrayList<>();
        out.add(heartbeat(run.runId, null, membership));
        long nextBoundaryNs = S;
        for (IoStreamRecord r : run.records(100)) {
            if (r.getEvent() instanceof IoBatch b) {
                long firstCompletionNs =
                        b.getBaseSubmitTimeNs() + b.getLatencyNs().get(0);
                while (firstCompletionNs > nextBoundaryNs + S / 2) {
                    out.add(heartbeat(run.runId, nextBoundaryNs, membership));
                    nextBoundaryNs += S;
                }
            }
            out.add(r);
        }
        return out;
    }

    @Test
    void aHeartbeatClosesTheWindowsItCoversAndTheOpenWindowShowsUntilThen() {
        AtomicInteger changes = new AtomicInteger();
        ViewChanges viewChanges = new ViewChanges();
        SyntheticRun run = SyntheticRun.random("live-1", 3, 0, 6, 400);
        viewChanges.listen(run.runId, changes::incrementAndGet);
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir), viewChanges)) {
            List<IoStreamRecord> all = withHeartbeats(run, null);
            List<IoStreamRecord> records = all.subList(0, all.size() - 1); // RunFinished later
            int firstBeat = -1;
            for (int i = 0; i < records.size(); i++) {
                h.io.pipeInput(run.runId, records.get(i));
                if (i > 0
                        && records.get(i).getEvent() instanceof RunHeartbeat b
                        && b.getCompleteUpToNs() != null
                        && firstBeat < 0) {
                    firstBeat = i;
                    List<WindowMetrics> closed = h.metrics();
                    assertThat(closed)
                            .as("window 0 closes with the heartbeat saying the run is complete up to 1 s")
                            .isNotEmpty()
                            .allSatisfy(w -> assertThat(w.getWindowStartNs()).isZero());
                }
            }
            assertThat(firstBeat).isPositive();
            KeyValueStore<String, WindowMetrics> open = h.driver.getKeyValueStore(Names.OPEN_WINDOW_STORE);
            h.driver.advanceWallClockTime(Duration.ofMillis(300));
            WindowMetrics reads = open.get(StoreKeys.openWindow(run.runId, 0));
            assertThat(reads).as("the newest open window of the reads").isNotNull();
            assertThat(reads.getWindowStartNs()).isGreaterThanOrEqualTo(5 * S);
            assertThat(reads.getIoCount()).isPositive();
            assertThat(changes.get()).isPositive();

            h.io.pipeInput(run.runId, all.get(all.size() - 1)); // RunFinished
            assertThat(h.metrics()).extracting(WindowMetrics::getWindowStartNs).contains(5 * S);
            assertThat(open.get(StoreKeys.openWindow(run.runId, 0)))
                    .as("the closed window took the open one's place")
                    .isNull();
        }
    }

    @Test
    void theMembersOfARunGroupAreMergedUnderTheGroupsKey() {
        try (TopologyHarness h = new TopologyHarness(TopologyHarness.testConfig(stateDir))) {
            Instant start = Instant.parse("2026-12-04T08:00:00Z");
            SyntheticRun a = SyntheticRun.random("member-a", 1, 0, 4, 300);
            SyntheticRun b = SyntheticRun.random("member-b", 2, 0, 4, 300);
            GroupMembership ma = new GroupMembership("lab", "host-a sim", "host-a", start);
            GroupMembership mb = new GroupMembership("lab", "host-b sim", "host-b", start.plusMillis(400));
            List<IoStreamRecord> ra = withHeartbeats(a, ma);
            List<IoStreamRecord> rb = withHeartbeats(b, mb);
            h.io.pipeInput(a.runId, ra.get(0));
            h.io.pipeInput(b.runId, rb.get(0));
            for (int i = 1; i < Math.max(ra.size(), rb.size()); i++) {
                if (i < ra.size()) {
                    h.io.pipeInput(a.runId, ra.get(i));
                }
                if (i < rb.size() - 1) {
                    h.io.pipeInput(b.runId, rb.get(i));
                }
            }
            // member b ends ABORTED: the group is PARTIAL, member b named
            RunFinished aborted = RunFinished.newBuilder(
                            (RunFinished) rb.get(rb.size() - 1).getEvent())
                    .setStatus(RunStatus.ABORTED)
                    .setReason("interrupted (Ctrl-C)")
                    .build();
            h.io.pipeInput(b.runId, new IoStreamRecord(aborted));

            String groupId = GroupAnalysis.idOf("lab");
            List<RunSummary> summaries = h.summaries();
            RunSummary group = summaries.stream()
                    .filter(s -> s.getRunId().equals(groupId))
                    .findFirst()
                    .orElseThrow();
            assertThat(group.getStatus()).isEqualTo(RunStatus.PARTIAL);
            assertThat(group.getReason()).contains("host-b sim", "ABORTED", "interrupted (Ctrl-C)");
            assertThat(group.getIoCount()).isEqualTo(a.ios.size() + b.ios.size());
            assertThat(group.getGroup().getMembers()).hasSize(2);
            assertThat(group.getGroup().getMembers().get(1).getStartOffsetNs()).isEqualTo(400_000_000L);
            assertThat(summaries.stream().filter(s -> s.getRunId().equals(a.runId)))
                    .as("each member keeps its own results")
                    .singleElement()
                    .satisfies(s -> assertThat(s.getIoCount()).isEqualTo(a.ios.size()));

            KeyValueStore<String, RunGroup> groups = h.driver.getKeyValueStore(Names.RUN_GROUP_STORE);
            assertThat(groups.get(groupId).getStatus()).isEqualTo(RunStatus.PARTIAL);
            KeyValueStore<String, String> status = h.driver.getKeyValueStore(Names.RUN_STATUS_STORE);
            assertThat(status.get(groupId)).isEqualTo("PARTIAL");
            long groupWindowIos = h.metrics().stream()
                    .filter(w -> w.getRunId().equals(groupId))
                    .mapToLong(WindowMetrics::getIoCount)
                    .sum();
            assertThat(groupWindowIos + group.getLateIoCount()).isEqualTo(group.getIoCount());
        }
    }
}
