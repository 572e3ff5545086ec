package dev.ssdpulse.streams.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.PhaseKind;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.iobatch.IoBatchBuilder;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.CollectingOutput;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.latency.LatencyBins;
import dev.ssdpulse.streams.steadystate.FioCriterion;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * A run group's analysis equals the analysis of its members' I/Os merged on the wall clock (each member's times
 * shifted by its start after the first member's), whatever order the members' events interleave in; a member that
 * did not complete makes the group PARTIAL and is named.
 */
class GroupAnalysisTest {
    private static final long S = 1_000_000_000L;
    private static final AnalysisSettings SETTINGS =
            new AnalysisSettings(S, 2 * S, LatencyBins.iometer(), 4 * S, List.of(FioCriterion.parse("iops:20%:4")), 3);
    private static final Instant ORIGIN = Instant.parse("2026-12-04T07:00:00.250Z");

    /** One member's run: its I/Os in completion order per worker, its phase change, its events as published. */
    private record Member(String runId, long startOffsetNs, List<long[]> ios, long changeNs, long endNs) {
        GroupMembership membership() {
            return new GroupMembership("lab", "m-" + runId, "host-" + runId, ORIGIN.plusNanos(startOffsetNs));
        }

        /** Its events as its publisher sends them: batches of 64 per worker, a heartbeat every 100 ms. */
        List<Object> events() {
            List<Object> out = new ArrayList<>();
            out.add(heartbeat(null));
            out.add(new PhaseChanged(runId, 0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0L));
            IoBatchBuilder[] builders = {new IoBatchBuilder(runId, 0, 64), new IoBatchBuilder(runId, 1, 64)};
            long nextBeatNs = S / 10;
            boolean changed = false;
            for (long[] io : ios) {
                if (!changed && io[1] == 1) {
                    for (IoBatchBuilder b : builders) {
                        add(out, b.flush());
                    }
                    out.add(new PhaseChanged(runId, 1, "test", PhaseKind.TEST, changeNs));
                    changed = true;
                }
                long completion = io[2];
                if (completion >= nextBeatNs) {
                    for (IoBatchBuilder b : builders) {
                        add(out, b.flush());
                    }
                    out.add(heartbeat(nextBeatNs));
                    nextBeatNs += S / 10;
                }
                int worker = (int) io[0] % 2;
                add(
                        out,
                        builders[worker].add(
                                (int) io[1], (byte) io[0], 0L, (int) io[3], completion - io[4], io[4], 1, 0));
            }
            for (IoBatchBuilder b : builders) {
                add(out, b.flush());
            }
            out.add(RunFinished.newBuilder()
                    .setRunId(runId)
                    .setStatus(RunStatus.COMPLETED)
                    .setTimeNs(endNs)
                    .setWallClockEpochMs(Instant.EPOCH)
                    .setIoCount(ios.size())
                    .setIoCountPerWorker(List.of())
                    .setBatchCountPerWorker(List.of())
                    .setBytesRead(0)
                    .setBytesWritten(0)
                    .build());
            return out;
        }

        private RunHeartbeat heartbeat(Long completeUpToNs) {
            return RunHeartbeat.newBuilder()
                    .setRunId(runId)
                    .setTimeNs(0)
                    .setWallClockEpochMs(Instant.EPOCH)
                    .setIoCompleted(0)
                    .setIoPublished(0)
                    .setIoNotPublished(0)
                    .setCompleteUpToNs(completeUpToNs)
                    .setMembership(membership())
                    .build();
        }

        private static void add(List<Object> out, IoBatch batch) {
            if (batch != null) {
                out.add(batch);
            }
        }
    }

    /** ~8 s at 1,500 IOPS on two workers, phase change at 3 s (member time), latencies 20 us .. 40 ms. */
    private static Member member(String runId, long seed, long startOffsetNs) {
        SplittableRandom random = new SplittableRandom(seed);
        List<long[]> ios = new ArrayList<>();
        long completion = 0;
        while (completion < 8 * S) {
            completion += S / 1500 + random.nextLong(S / 3000);
            long latency = random.nextInt(100) < 2
                    ? 10_000_000L + random.nextLong(30_000_000L)
                    : 20_000 + random.nextLong(1_500_000);
            ios.add(new long[] {
                random.nextInt(2), completion < 3 * S ? 0 : 1, completion, 4096L << random.nextInt(4), latency
            });
        }
        return new Member(runId, startOffsetNs, ios, 3 * S, 8 * S + S / 3);
    }

    private static List<Member> members() {
        return List.of(member("a", 11, 0), member("b", 12, 730_000_000L), member("c", 13, 1_415_000_000L));
    }

    /** The members' I/Os shifted onto the wall clock and taken in completion order, as one run. */
    private static CollectingOutput merged(List<Member> members) {
        CollectingOutput out = new CollectingOutput();
        RunAnalysis run = new RunAnalysis("group:lab", SETTINGS, out);
        List<long[]> all = new ArrayList<>();
        long changeNs = Long.MAX_VALUE;
        long endNs = 0;
        long ios = 0;
        for (Member m : members) {
            for (long[] io : m.ios()) {
                all.add(new long[] {io[0], io[1], io[2] + m.startOffsetNs(), io[3], io[4]});
            }
            changeNs = Math.min(changeNs, m.changeNs() + m.startOffsetNs());
            endNs = Math.max(endNs, m.endNs() + m.startOffsetNs());
            ios += m.ios().size();
        }
        all.sort(Comparator.comparingLong(io -> io[2]));
        run.phaseChanged(0, "precondition", PhaseKind.PRECONDITION_INDEPENDENT, 0);
        boolean changed = false;
        for (long[] io : all) {
            if (!changed && io[2] >= changeNs) {
                run.phaseChanged(1, "test", PhaseKind.TEST, changeNs);
                changed = true;
            }
            run.io((int) io[0], (int) io[1], io[2], io[3], io[4], 0);
        }
        run.finish(RunStatus.COMPLETED, null, endNs, ios, 0);
        return out;
    }

    /**
     * The members' events interleaved at random, each member's in its own order, after each member's first heartbeat
     * (in the order they started: the members of a test start together, and a member joining after the group has
     * closed its first windows would have those I/Os counted late).
     */
    private static List<Object[]> interleaved(List<Member> members, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<Object>> streams = new ArrayList<>();
        members.forEach(m -> streams.add(new ArrayList<>(m.events())));
        int[] next = new int[members.size()];
        List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            out.add(new Object[] {members.get(i), streams.get(i).get(next[i]++)});
        }
        while (true) {
            List<Integer> open = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++) {
                if (next[i] < streams.get(i).size()) {
                    open.add(i);
                }
            }
            if (open.isEmpty()) {
                return out;
            }
            int i = open.get(random.nextInt(open.size()));
            // runs of up to 40 events of one member: as the members' partitions deliver them
            for (int k = random.nextInt(40) + 1;
                    k > 0 && next[i] < streams.get(i).size();
                    k--) {
                out.add(new Object[] {members.get(i), streams.get(i).get(next[i]++)});
            }
        }
    }

    private static CollectingOutput group(List<Member> members, long seed) {
        CollectingOutput out = new CollectingOutput();
        GroupAnalysis group = new GroupAnalysis("group:lab", SETTINGS, out);
        for (Object[] e : interleaved(members, seed)) {
            Member m = (Member) e[0];
            assertThat(group.event(m.runId(), m.membership(), e[1])).isTrue();
        }
        return out;
    }

    @Test
    void theGroupsWindowsAndSummaryAreThoseOfItsMembersIoMergedOnTheWallClock() {
        List<Member> members = members();
        CollectingOutput expected = merged(members);
        for (long seed : new long[] {1, 2, 3}) {
            CollectingOutput actual = group(members, seed);
            assertThat(bytes(actual.windows)).as("windows, order %d", seed).isEqualTo(bytes(expected.windows));
            assertThat(bytes(actual.verdicts)).as("verdicts, order %d", seed).isEqualTo(bytes(expected.verdicts));
            assertThat(bytes(actual.latencies)).as("latencies, order %d", seed).isEqualTo(bytes(expected.latencies));
            RunSummary summary = RunSummary.newBuilder(actual.lastSummary()).build();
            RunGroup described = summary.getGroup();
            summary.setGroup(null);
            assertThat(bytes(List.of(summary)))
                    .as("summary, order %d", seed)
                    .isEqualTo(bytes(List.of(expected.lastSummary())));
            assertThat(summary.getStatus()).isEqualTo(RunStatus.COMPLETED);
            assertThat(summary.getLateIoCount()).isZero();
            assertThat(described.getMembers())
                    .extracting(GroupMember::getStartOffsetNs)
                    .containsExactly(0L, 730_000_000L, 1_415_000_000L);
            long total = members.stream().mapToLong(m -> m.ios().size()).sum();
            assertThat(described.getMembers())
                    .allSatisfy(m -> assertThat(m.getIoShare())
                            .isEqualTo(m.getIoCount() / (double) total)
                            .isBetween(0.2, 0.45));
            assertThat(described.getMembers())
                    .extracting(GroupMember::getHost)
                    .containsExactly("host-a", "host-b", "host-c");
        }
        assertThat(expected.windows).hasSizeGreaterThan(15);
    }

    @Test
    void aMemberJoiningWithinTheGraceIsMergedExactlyThoughTheOthersHadPassedItsFirstWindows() {
        List<Member> members = members();
        Member late = members.get(2);
        // the two members' events alternately, so neither runs more than the grace ahead of the other
        List<Object[]> first = new ArrayList<>();
        List<Object> a = members.get(0).events();
        List<Object> b = members.get(1).events();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            if (i < a.size()) {
                first.add(new Object[] {members.get(0), a.get(i)});
            }
            if (i < b.size()) {
                first.add(new Object[] {members.get(1), b.get(i)});
            }
        }
        // the members the group knows say they are complete past the late member's first window (its start 1.415 s,
        // their word up to 2.915 s on the group's axis) before the late member's first event reaches the group
        long knownThroughNs = late.startOffsetNs() + 3 * S / 2;
        CollectingOutput out = new CollectingOutput();
        GroupAnalysis group = new GroupAnalysis("group:lab", SETTINGS, out);
        java.util.Map<String, Long> completeUpTo = new java.util.HashMap<>();
        int next = 0;
        while (completeUpTo.size() < 2 || completeUpTo.values().stream().anyMatch(t -> t < knownThroughNs)) {
            Member m = (Member) first.get(next)[0];
            Object event = first.get(next++)[1];
            if (event instanceof RunHeartbeat beat && beat.getCompleteUpToNs() != null) {
                completeUpTo.put(m.runId(), beat.getCompleteUpToNs() + m.startOffsetNs());
            }
            assertThat(group.event(m.runId(), m.membership(), event)).isTrue();
        }
        assertThat(out.windows).as("the known members' first windows closed").isNotEmpty();
        // then the late member and the rest of the others, alternately
        List<Object> lateEvents = late.events();
        int k = 0;
        while (next < first.size() || k < lateEvents.size()) {
            if (k < lateEvents.size()) {
                assertThat(group.event(late.runId(), late.membership(), lateEvents.get(k++)))
                        .isTrue();
            }
            if (next < first.size()) {
                Member m = (Member) first.get(next)[0];
                group.event(m.runId(), m.membership(), first.get(next++)[1]);
            }
        }
        CollectingOutput expected = merged(members);
        assertThat(out.lastSummary().getLateIoCount()).isZero();
        assertThat(bytes(out.windows)).isEqualTo(bytes(expected.windows));
        assertThat(bytes(out.latencies)).isEqualTo(bytes(expected.latencies));
    }

    @Test
    void aMemberWhosePacerMovedItsStartBeforeItsFirstIoIsPlacedFromTheMovedStart() {
        List<Member> members = members();
        Member moved = members.get(1);
        // its run recorded a start 500 ms earlier; its setup took that long, so its pacer moved the run's origin to
        // 730 ms and said so in a heartbeat before its first I/O
        GroupMembership recorded = GroupMembership.newBuilder(moved.membership())
                .setRunStart(ORIGIN.plusNanos(moved.startOffsetNs() - 500_000_000L))
                .build();
        RunHeartbeat first = RunHeartbeat.newBuilder(
                        (RunHeartbeat) moved.events().get(0))
                .setMembership(recorded)
                .build();
        CollectingOutput out = new CollectingOutput();
        GroupAnalysis group = new GroupAnalysis("group:lab", SETTINGS, out);
        boolean joined = false;
        for (Object[] e : interleaved(members, 9)) {
            Member m = (Member) e[0];
            if (m == moved && !joined) {
                assertThat(group.event(m.runId(), recorded, first)).isTrue();
                joined = true;
            }
            assertThat(group.event(m.runId(), m.membership(), e[1])).isTrue();
        }
        CollectingOutput expected = merged(members);
        assertThat(out.lastSummary().getLateIoCount()).isZero();
        assertThat(bytes(out.windows)).isEqualTo(bytes(expected.windows));
        assertThat(out.lastSummary().getGroup().getMembers())
                .extracting(GroupMember::getStartOffsetNs)
                .containsExactly(0L, 730_000_000L, 1_415_000_000L);
    }

    @Test
    void aMemberThatStopsEarlyMakesTheGroupPartialAndIsNamedTheOthersCountFully() {
        List<Member> members = members();
        CollectingOutput out = new CollectingOutput();
        GroupAnalysis group = new GroupAnalysis("group:lab", SETTINGS, out);
        Member killed = members.get(1);
        for (Member m : members) {
            group.event(m.runId(), m.membership(), m.events().get(0));
        }
        for (Member m : members) {
            List<Object> events = m.events();
            if (m == killed) {
                // killed halfway: its events stop; the analytics time it out (RunFinished INCOMPLETE, no I/O count)
                events = new ArrayList<>(events.subList(0, events.size() / 2));
                events.add(RunFinished.newBuilder()
                        .setRunId(m.runId())
                        .setStatus(RunStatus.INCOMPLETE)
                        .setReason("no event for more than 6 s (heartbeat timeout)")
                        .setTimeNs(4 * S)
                        .setWallClockEpochMs(Instant.EPOCH)
                        .setIoCount(-1)
                        .setIoCountPerWorker(List.of())
                        .setBatchCountPerWorker(List.of())
                        .setBytesRead(0)
                        .setBytesWritten(0)
                        .build());
            }
            for (Object e : events) {
                group.event(m.runId(), m.membership(), e);
            }
        }
        assertThat(group.isRunning()).isFalse();
        RunSummary summary = out.lastSummary();
        assertThat(summary.getStatus()).isEqualTo(RunStatus.PARTIAL);
        assertThat(summary.getReason())
                .contains("member m-b", "host-b", "INCOMPLETE", "heartbeat timeout")
                .doesNotContain("m-a", "m-c");
        assertThat(summary.getIoCountExpected()).isEqualTo(-1);
        RunGroup described = summary.getGroup();
        assertThat(described.getStatus()).isEqualTo(RunStatus.PARTIAL);
        assertThat(described.getMembers())
                .extracting(GroupMember::getStatus)
                .containsExactly(RunStatus.COMPLETED, RunStatus.INCOMPLETE, RunStatus.COMPLETED);
        assertThat(described.getMembers().get(0).getIoCount())
                .isEqualTo(members.get(0).ios().size());
        assertThat(described.getMembers().get(2).getIoCount())
                .isEqualTo(members.get(2).ios().size());
        assertThat(summary.getIoCount())
                .isEqualTo(described.getMembers().stream()
                        .mapToLong(GroupMember::getIoCount)
                        .sum());
    }

    @Test
    void theStateSurvivesEncodingMidRun() {
        List<Member> members = members();
        List<Object[]> events = interleaved(members, 5);
        CollectingOutput straight = group(members, 5);
        CollectingOutput out = new CollectingOutput();
        GroupAnalysis group = new GroupAnalysis("group:lab", SETTINGS, out);
        int half = events.size() / 2;
        for (int i = 0; i < events.size(); i++) {
            if (i == half) {
                group = GroupAnalysis.decode("group:lab", group.encode(), SETTINGS, out);
            }
            Member m = (Member) events.get(i)[0];
            group.event(m.runId(), m.membership(), events.get(i)[1]);
        }
        assertThat(bytes(out.windows)).isEqualTo(bytes(straight.windows));
        assertThat(bytes(out.summaries)).isEqualTo(bytes(straight.summaries));
    }

    private static List<ByteBuffer> bytes(List<? extends SpecificRecordBase> records) {
        return records.stream()
                .map(r -> {
                    try {
                        return (ByteBuffer)
                                r.getClass().getMethod("toByteBuffer").invoke(r);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }
}
