package dev.ssdpulse.streams.group;

import dev.ssdpulse.schemas.avro.GroupMember;
import dev.ssdpulse.schemas.avro.GroupMembership;
import dev.ssdpulse.schemas.avro.IoBatch;
import dev.ssdpulse.schemas.avro.LatencyScatter;
import dev.ssdpulse.schemas.avro.PhaseChanged;
import dev.ssdpulse.schemas.avro.RunFinished;
import dev.ssdpulse.schemas.avro.RunGroup;
import dev.ssdpulse.schemas.avro.RunHeartbeat;
import dev.ssdpulse.schemas.avro.RunLatency;
import dev.ssdpulse.schemas.avro.RunStatus;
import dev.ssdpulse.schemas.avro.RunSummary;
import dev.ssdpulse.schemas.avro.SteadyStateVerdict;
import dev.ssdpulse.schemas.avro.WindowMetrics;
import dev.ssdpulse.schemas.avro.WriteAmplification;
import dev.ssdpulse.schemas.iobatch.IoBatchReader;
import dev.ssdpulse.streams.analysis.AnalysisOutput;
import dev.ssdpulse.streams.analysis.AnalysisSettings;
import dev.ssdpulse.streams.analysis.RunAnalysis;
import dev.ssdpulse.streams.codec.BinaryReader;
import dev.ssdpulse.streams.codec.BinaryWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The analysis of a run group: several producers (hosts, devices, jobs) publishing one logical test, each as a run
 * of its own. Every member's I/Os go into one {@link RunAnalysis}, so the group's windows, latency percentiles and
 * bins, steady-state verdicts and summary are those of the members' I/Os taken together (merged histograms, never
 * averaged percentiles), computed by the same code as a run's; each member's own run keeps its own results.
 *
 * <p><b>Time.</b> Members start at different moments; the group's time axis is the wall clock, from the start of the
 * member that joined first (its origin): a member's run times are shifted by its start after the origin, so the
 * group's window [t, t + 1 s) holds what every member completed in that wall-clock second. Members' clocks are
 * taken as synchronised (NTP: milliseconds).
 *
 * <p><b>Closing.</b> The members' events reach the group interleaved in no particular order, so the group cannot
 * close its windows on its latest completion: its watermark is the lowest of its running members' watermarks
 * (each the later of the member's completion time, {@code RunHeartbeat.completeUpToNs}, and its latest completion
 * minus the grace). A member that has finished (or was timed out) no longer holds the group back. Nor does the group close a window
 * before its latest completion (of any member) is the grace past the window's end, the grace single runs close on
 * without their producer's word: a member that has not joined yet cannot hold the group back, so one starting
 * within the grace of the group's latest completion is merged exactly, where the known members' watermarks alone
 * would have closed the windows it completes I/Os in and counted them late. When every
 * member the group knows has finished, the group finishes: COMPLETED when they all completed, else PARTIAL, naming
 * the members that did not and how they ended.
 *
 * <p><b>Phases.</b> A phase of the group starts where the first member entered it ({@link
 * RunAnalysis#mergedPhaseChanged}). Members' workers keep apart: worker w of the member that joined k-th is the
 * group's worker {@code k * 65536 + w}, so duplicate batches are still found per worker.
 *
 * <p>Not thread-safe: one instance per group.
 */
public final class GroupAnalysis {
    /** The group's key in the topics, stores and API: {@code group:NAME}; a run id never contains ':'. */
    public static final String ID_PREFIX = "group:";
    /** The group's own windows close on its members' watermarks only: no grace of its own. */
    static final long NO_GRACE_NS = Long.MAX_VALUE / 4;

    private static final int WORKERS_PER_MEMBER = 1 << 16;
    private static final int STATE_VERSION = 1;

    private final String groupId;
    private final String group;
    private final long memberGraceNs;
    private final RunAnalysis analysis;
    private final GroupOutput output;
    /** By member run id, in the order they joined. */
    private final Map<String, Member> members = new LinkedHashMap<>();
    /** The first member's start, µs since the epoch; Long.MIN_VALUE before the first member. */
    private long originMicros = Long.MIN_VALUE;

    private RunStatus status;
    private String reason;
    private final IoBatchReader reader = new IoBatchReader();

    /** @param settings the runs' settings: the group's windows, bins and criteria, the members' grace */
    public GroupAnalysis(String groupId, AnalysisSettings settings, AnalysisOutput output) {
        this(groupId, settings, output, null);
    }

    private GroupAnalysis(String groupId, AnalysisSettings settings, AnalysisOutput output, byte[] analysisState) {
        this.groupId = Objects.requireNonNull(groupId, "groupId");
        if (!groupId.startsWith(ID_PREFIX)) {
            throw new IllegalArgumentException("a group id starts with '" + ID_PREFIX + "', got '" + groupId + "'");
        }
        this.group = groupId.substring(ID_PREFIX.length());
        this.memberGraceNs = settings.graceNs();
        this.output = new GroupOutput(Objects.requireNonNull(output, "output"));
        AnalysisSettings merged = settings.withWindow(settings.windowSizeNs(), NO_GRACE_NS);
        this.analysis = analysisState == null
                ? new RunAnalysis(groupId, merged, this.output)
                : RunAnalysis.decode(groupId, analysisState, merged, this.output);
    }

    /** The group id of a group name. */
    public static String idOf(String groupName) {
        return ID_PREFIX + groupName;
    }

    public static boolean isGroupId(String key) {
        return key != null && key.startsWith(ID_PREFIX);
    }

    public String groupId() {
        return groupId;
    }

    public boolean isRunning() {
        return status == null;
    }

    /** The group's merged analysis (its open windows for the views). */
    public RunAnalysis analysis() {
        return analysis;
    }

    /**
     * One event of a member's stream, in that member's order (members interleave freely).
     *
     * @return false when the event was not taken: a new member of a group that has already finished
     */
    public boolean event(String memberRunId, GroupMembership membership, Object event) {
        Member m = members.get(memberRunId);
        if (m == null) {
            if (status != null) {
                return false;
            }
            m = join(memberRunId, membership);
        }
        if (event instanceof IoBatch batch) {
            batch(m, batch);
        } else if (event instanceof PhaseChanged change) {
            // the producer publishes a phase change after every I/O before it
            m.completeUpToNs = Math.max(m.completeUpToNs, change.getTimeNs() + m.shiftNs);
            analysis.mergedPhaseChanged(
                    change.getPhaseIndex(),
                    change.getPhaseName(),
                    change.getPhaseKind(),
                    change.getTimeNs() + m.shiftNs);
            advance();
        } else if (event instanceof RunHeartbeat heartbeat) {
            moveStart(m, heartbeat.getMembership());
            if (heartbeat.getCompleteUpToNs() != null) {
                m.completeUpToNs = Math.max(m.completeUpToNs, heartbeat.getCompleteUpToNs() + m.shiftNs);
                advance();
            }
        } else if (event instanceof RunFinished finished) {
            memberFinished(m, finished);
        }
        return true;
    }

    private Member join(String memberRunId, GroupMembership membership) {
        long startMicros = micros(membership.getRunStart());
        if (originMicros == Long.MIN_VALUE) {
            originMicros = startMicros;
        }
        Member m = new Member(
                members.size(),
                memberRunId,
                membership.getMember(),
                membership.getHost(),
                (startMicros - originMicros) * 1000);
        members.put(memberRunId, m);
        return m;
    }

    /**
     * A paced member whose first phase started behind its schedule moved its run's origin forward and says so in a
     * heartbeat before its first I/O: its times are placed from the moved start. Once it has I/Os in the group, its
     * place on the wall clock no longer moves (its producer moves its origin only before its first I/O).
     */
    private void moveStart(Member m, GroupMembership membership) {
        if (membership == null || membership.getRunStart() == null || m.ioCount > 0 || m.status != null) {
            return;
        }
        m.shiftNs = (micros(membership.getRunStart()) - originMicros) * 1000;
    }

    private void batch(Member m, IoBatch batch) {
        if (m.status != null) {
            return;
        }
        long maxCompletionNs = Long.MIN_VALUE;
        long bytes = 0;
        reader.reset(batch);
        while (reader.next()) {
            maxCompletionNs = Math.max(maxCompletionNs, reader.completionTimeNs());
            bytes += reader.sizeBytes();
        }
        batch.setWorker(m.index * WORKERS_PER_MEMBER + batch.getWorker());
        batch.setBaseSubmitTimeNs(batch.getBaseSubmitTimeNs() + m.shiftNs);
        if (analysis.ioBatch(batch)) {
            m.ioCount += batch.getIoCount();
            m.bytes += bytes;
            if (batch.getIoCount() > 0) {
                m.maxCompletionNs = Math.max(m.maxCompletionNs, maxCompletionNs + m.shiftNs);
            }
            advance();
        }
    }

    private void memberFinished(Member m, RunFinished finished) {
        if (m.status != null) {
            return;
        }
        m.status = finished.getStatus();
        m.reason = finished.getReason();
        m.endNs = finished.getTimeNs() + m.shiftNs;
        m.expectedIoCount = finished.getIoCount();
        m.notPublished = finished.getIoNotPublished();
        boolean allDone = members.values().stream().allMatch(x -> x.status != null);
        if (allDone) {
            finish();
        } else {
            advance();
        }
    }

    /**
     * Moves the group's watermark to the lowest of its running members', and never past its latest completion (of
     * any member) minus the grace: the members it knows cannot speak for the ones that have not joined yet.
     */
    private void advance() {
        long lowest = Long.MAX_VALUE;
        long latestCompletionNs = Long.MIN_VALUE;
        for (Member m : members.values()) {
            if (m.status == null) {
                lowest = Math.min(lowest, m.watermarkNs(memberGraceNs));
            }
            latestCompletionNs = Math.max(latestCompletionNs, m.maxCompletionNs);
        }
        if (lowest == Long.MAX_VALUE || lowest == Long.MIN_VALUE || latestCompletionNs == Long.MIN_VALUE) {
            return;
        }
        analysis.completedThrough(Math.min(lowest, latestCompletionNs - memberGraceNs));
    }

    private void finish() {
        List<String> notCompleted = new ArrayList<>();
        long endNs = 0;
        long expected = 0;
        long notPublished = 0;
        for (Member m : members.values()) {
            endNs = Math.max(endNs, m.endNs);
            expected = expected < 0 || m.expectedIoCount < 0 ? -1 : expected + m.expectedIoCount;
            notPublished += m.notPublished;
            if (m.status != RunStatus.COMPLETED) {
                notCompleted.add(String.format(
                        Locale.ROOT,
                        "member %s (host %s, run %s) %s at %.1f s%s",
                        m.member,
                        m.host == null ? "unknown" : m.host,
                        m.runId,
                        m.status,
                        m.endNs / 1e9,
                        m.reason == null ? "" : ": " + m.reason));
            }
        }
        status = notCompleted.isEmpty() ? RunStatus.COMPLETED : RunStatus.PARTIAL;
        reason = notCompleted.isEmpty() ? null : String.join("; ", notCompleted);
        analysis.finish(status, reason, endNs, expected, notPublished);
    }

    /** The group and its members as they stand: who, where, how they ended, their share of the group's I/O. */
    public RunGroup describe() {
        long ios = 0;
        long bytes = 0;
        for (Member m : members.values()) {
            ios += m.ioCount;
            bytes += m.bytes;
        }
        List<GroupMember> list = new ArrayList<>(members.size());
        for (Member m : members.values()) {
            list.add(GroupMember.newBuilder()
                    .setMember(m.member)
                    .setRunId(m.runId)
                    .setHost(m.host)
                    .setStatus(m.status)
                    .setReason(m.reason)
                    .setStartOffsetNs(m.shiftNs)
                    .setEndNs(m.status == null ? null : m.endNs)
                    .setIoCount(m.ioCount)
                    .setBytes(m.bytes)
                    .setIoShare(ios == 0 ? 0.0 : m.ioCount / (double) ios)
                    .setBytesShare(bytes == 0 ? 0.0 : m.bytes / (double) bytes)
                    .build());
        }
        return RunGroup.newBuilder()
                .setGroupId(groupId)
                .setGroup(group)
                .setStatus(status)
                .setReason(reason)
                .setOrigin(Instant.EPOCH.plus(Math.max(0, originMicros), ChronoUnit.MICROS))
                .setMembers(list)
                .build();
    }

    private static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }

    /** The whole state: members, their watermarks and counts, and the merged analysis. */
    public byte[] encode() {
        byte[] analysisBytes = analysis.encode();
        BinaryWriter out = new BinaryWriter(analysisBytes.length + 256 * (members.size() + 1));
        out.writeByte(STATE_VERSION);
        out.writeVarLong(originMicros);
        out.writeByte(status == null ? 0 : 1 + status.ordinal());
        out.writeBoolean(reason != null);
        if (reason != null) {
            out.writeString(reason);
        }
        out.writeUnsignedVarLong(members.size());
        for (Member m : members.values()) {
            out.writeString(m.runId).writeString(m.member).writeBoolean(m.host != null);
            if (m.host != null) {
                out.writeString(m.host);
            }
            out.writeVarLong(m.shiftNs)
                    .writeVarLong(m.completeUpToNs)
                    .writeVarLong(m.maxCompletionNs)
                    .writeUnsignedVarLong(m.ioCount)
                    .writeUnsignedVarLong(m.bytes)
                    .writeByte(m.status == null ? 0 : 1 + m.status.ordinal())
                    .writeBoolean(m.reason != null);
            if (m.reason != null) {
                out.writeString(m.reason);
            }
            out.writeVarLong(m.endNs).writeVarLong(m.expectedIoCount).writeVarLong(m.notPublished);
        }
        out.writeBlock(analysisBytes);
        return out.toByteArray();
    }

    public static GroupAnalysis decode(String groupId, byte[] bytes, AnalysisSettings settings, AnalysisOutput output) {
        BinaryReader in = new BinaryReader(bytes, "group analysis state of " + groupId);
        int version = in.readByte("version");
        if (version != STATE_VERSION) {
            throw new IllegalStateException("the stored analysis state of group " + groupId + " has format " + version
                    + ", this ssdpulse reads format " + STATE_VERSION + ": start the analytics under a new"
                    + " application id");
        }
        long origin = in.readVarLong("origin");
        RunStatus status = status(in, groupId);
        String reason = in.readBoolean("reason present") ? in.readString("reason") : null;
        int n = in.readCount("member count", 1 << 16);
        List<Member> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String runId = in.readString("member run id");
            String member = in.readString("member id");
            String host = in.readBoolean("host present") ? in.readString("host") : null;
            Member m = new Member(i, runId, member, host, in.readVarLong("shift"));
            m.completeUpToNs = in.readVarLong("completeUpToNs");
            m.maxCompletionNs = in.readVarLong("maxCompletionNs");
            m.ioCount = in.readUnsignedVarLong("ioCount");
            m.bytes = in.readUnsignedVarLong("bytes");
            m.status = status(in, groupId);
            m.reason = in.readBoolean("member reason present") ? in.readString("member reason") : null;
            m.endNs = in.readVarLong("endNs");
            m.expectedIoCount = in.readVarLong("expected");
            m.notPublished = in.readVarLong("notPublished");
            list.add(m);
        }
        byte[] analysisBytes = in.readBlock("merged analysis");
        in.expectEnd();
        GroupAnalysis g = new GroupAnalysis(groupId, settings, output, analysisBytes);
        g.originMicros = origin;
        g.status = status;
        g.reason = reason;
        list.forEach(m -> g.members.put(m.runId, m));
        return g;
    }

    private static RunStatus status(BinaryReader in, String groupId) {
        int code = in.readByte("status");
        if (code > RunStatus.values().length) {
            throw new IllegalArgumentException("group analysis state of " + groupId + ": unknown status " + code);
        }
        return code == 0 ? null : RunStatus.values()[code - 1];
    }

    private static final class Member {
        final int index;
        final String runId;
        final String member;
        final String host;
        /** The member's start after the group's origin, ns: added to every run time of the member. */
        long shiftNs;

        long completeUpToNs = Long.MIN_VALUE;
        long maxCompletionNs = Long.MIN_VALUE;
        long ioCount;
        long bytes;
        RunStatus status;
        String reason;
        long endNs;
        long expectedIoCount = -1;
        long notPublished;

        Member(int index, String runId, String member, String host, long shiftNs) {
            this.index = index;
            this.runId = runId;
            this.member = member;
            this.host = host;
            this.shiftNs = shiftNs;
        }

        /** On the group's axis: the later of its completion time and its latest completion minus the grace. */
        long watermarkNs(long graceNs) {
            long byGrace = maxCompletionNs == Long.MIN_VALUE ? Long.MIN_VALUE : maxCompletionNs - graceNs;
            return Math.max(completeUpToNs, byGrace);
        }
    }

    /** The merged analysis's outputs, the summary with the group's members in it. */
    private final class GroupOutput implements AnalysisOutput {
        private final AnalysisOutput delegate;

        GroupOutput(AnalysisOutput delegate) {
            this.delegate = delegate;
        }

        @Override
        public void window(WindowMetrics window) {
            delegate.window(window);
        }

        @Override
        public void latency(RunLatency latency) {
            delegate.latency(latency);
        }

        @Override
        public void scatter(LatencyScatter scatter) {
            delegate.scatter(scatter);
        }

        @Override
        public void verdict(SteadyStateVerdict verdict, int slot) {
            delegate.verdict(verdict, slot);
        }

        @Override
        public void writeAmplification(WriteAmplification interval) {
            delegate.writeAmplification(interval);
        }

        @Override
        public void summary(RunSummary summary) {
            summary.setGroup(describe());
            delegate.summary(summary);
        }

        @Override
        public List<WriteAmplification> writeAmplificationSeries(String runId) {
            return List.of();
        }
    }
}
